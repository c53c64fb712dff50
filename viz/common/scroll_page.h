// Panels taller than a dock: their content in a frameless scroll area that follows the dock's width
// (so text wraps instead of scrolling sideways) and scrolls only vertically when it must.
#pragma once

#include <QFrame>
#include <QScrollArea>
#include <QVBoxLayout>
#include <QWidget>

namespace warpscope::viz {

// A frameless scroll area holding `content`, resized to the area's width.
inline QScrollArea* framelessScrollArea(QWidget* content, QWidget* parent = nullptr)
{
    auto* scroll = new QScrollArea(parent);
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    return scroll;
}

// Makes `content`, in a frameless scroll area, the whole of `page`, edge to edge.
inline void fillWithScrollArea(QWidget& page, QWidget* content)
{
    auto* outer = new QVBoxLayout(&page);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(framelessScrollArea(content));
}

} // namespace warpscope::viz
