#include "window/tooltip_wrapper.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QEvent>
#include <QFontMetrics>
#include <QHeaderView>
#include <QHelpEvent>
#include <QStringList>
#include <QTextDocument>
#include <QToolTip>
#include <QWidget>

#include <algorithm>

namespace warpscope::app {

namespace {

int longestLine(const QString& text, const QFontMetrics& metrics)
{
    int widest = 0;
    for (const QString& line : text.split(QLatin1Char('\n')))
        widest = std::max(widest, metrics.horizontalAdvance(line));
    return widest;
}

// What Qt would show for this tooltip event, and the rectangle it belongs to (empty: the widget).
struct ToolTipSource {
    QString text;
    QRect rect;
};

ToolTipSource toolTipFor(QWidget* widget, const QPoint& pos)
{
    // An item view's cells and a header's sections carry their own tooltips; the event goes to
    // the view's viewport (a header is its own viewport's view).
    if (auto* header = qobject_cast<QHeaderView*>(widget->parentWidget()); header && header->viewport() == widget) {
        const int section = header->logicalIndexAt(pos);
        if (section < 0 || header->model() == nullptr)
            return {};
        return {header->model()->headerData(section, header->orientation(), Qt::ToolTipRole).toString(), {}};
    }
    if (auto* view = qobject_cast<QAbstractItemView*>(widget->parentWidget()); view && view->viewport() == widget) {
        const QModelIndex index = view->indexAt(pos);
        if (!index.isValid())
            return {};
        return {index.data(Qt::ToolTipRole).toString(), view->visualRect(index)};
    }
    return {widget->toolTip(), {}};
}

} // namespace

QString wrappedToolTip(const QString& text, const QFontMetrics& metrics)
{
    if (text.isEmpty() || Qt::mightBeRichText(text) || longestLine(text, metrics) <= kToolTipWrapWidth)
        return text;
    return Qt::convertFromPlainText(text, Qt::WhiteSpaceNormal);
}

bool ToolTipWrapper::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::ToolTip || !watched->isWidgetType())
        return false;
    auto* widget = static_cast<QWidget*>(watched);
    const auto* help = static_cast<QHelpEvent*>(event);
    const ToolTipSource source = toolTipFor(widget, help->pos());
    const QString shown = wrappedToolTip(source.text, QFontMetrics(QToolTip::font()));
    if (shown == source.text)
        return false; // Qt shows it as it would anyway
    QToolTip::showText(help->globalPos(), shown, widget, source.rect, widget->toolTipDuration());
    return true;
}

void installToolTipWrapper()
{
    auto* application = qobject_cast<QApplication*>(QCoreApplication::instance());
    if (application == nullptr || application->findChild<ToolTipWrapper*>(QString(), Qt::FindDirectChildrenOnly) != nullptr)
        return;
    application->installEventFilter(new ToolTipWrapper(application));
}

} // namespace warpscope::app
