// What a window cuts at its present size, as a learner would see it: controls that cannot be seen
// or reached, text cut short ("…") in tabs, buttons, labels, table cells and painted figures, areas
// that scroll sideways, and a central figure too small to read. `warpscope screenshot --fit-report`
// prints it for any view and size; gui.fit checks every view at 1280 x 800, 1366 x 768 and
// 1920 x 1080 with it.
#pragma once

#include <QSize>
#include <QStringList>

class QWidget;

namespace warpscope::app {

// The least a central figure may have: room for a figure and its labels at the default font.
inline constexpr QSize kReadableFigure{560, 360};

// One line per problem, each naming the widget (its object name or class and text) and what is cut.
// `figure` is the central figure shown (null: not checked).
QStringList fitProblems(QWidget& window, const QWidget* figure);

} // namespace warpscope::app
