// Long plain-text tooltips wrap. Qt shows a plain-text tooltip on one line until it is wider than
// the screen (one of ours ran about 1,330 px); rich text wraps at about 80 characters. The filter,
// installed on the application, turns a long plain tooltip into escaped rich text as it is shown:
// a widget's own tooltip and an item view's cell tooltip alike. Short and rich tooltips are left
// to Qt.
#pragma once

#include <QObject>
#include <QString>

class QFontMetrics;

namespace warpscope::app {

// Wider than this (in pixels, its longest line), a plain tooltip is wrapped.
inline constexpr int kToolTipWrapWidth = 480;

// The rich text a tooltip is shown as: `text` itself when it is empty, already rich text or
// narrower than kToolTipWrapWidth in `metrics`; otherwise the escaped text as a paragraph, with
// its line breaks kept.
QString wrappedToolTip(const QString& text, const QFontMetrics& metrics);

class ToolTipWrapper : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

// Installs one ToolTipWrapper on the running QApplication (once; no-op without one).
void installToolTipWrapper();

} // namespace warpscope::app
