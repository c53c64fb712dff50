#include "window/fit_report.h"

#include "common/export_actions.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSet>
#include <QStyle>
#include <QTabBar>
#include <QListView>
#include <QTableView>
#include <QTreeView>
#include <QTextEdit>
#include <QToolButton>
#include <QWidget>

#include <algorithm>

namespace warpscope::app {

namespace {

const QChar kEllipsis(0x2026);

QString shortText(QString text)
{
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    text.remove(QLatin1Char('&'));
    return text.size() > 48 ? text.left(47) + kEllipsis : text;
}

// "QPushButton 'Run'", "QLineEdit launchGrid": enough to find the widget.
QString describe(const QWidget* widget)
{
    QString text;
    if (const auto* button = qobject_cast<const QAbstractButton*>(widget))
        text = button->text();
    else if (const auto* label = qobject_cast<const QLabel*>(widget))
        text = label->text();
    QString name = widget->objectName().isEmpty() ? QString::fromLatin1(widget->metaObject()->className())
                                                  : QStringLiteral("%1 %2").arg(QString::fromLatin1(widget->metaObject()->className()),
                                                                              widget->objectName());
    if (!text.isEmpty())
        name += QStringLiteral(" '%1'").arg(shortText(text));
    return name;
}

// The part of `widget` its ancestors show, in window coordinates, up to the window or to a scroll
// area's viewport (what lies beyond a viewport is reached by scrolling).
QRect shownRect(const QWidget* widget, const QWidget* window)
{
    QRect shown(widget->mapTo(window, QPoint(0, 0)), widget->size());
    for (const QWidget* w = widget->parentWidget(); w && w != window; w = w->parentWidget()) {
        if (const auto* area = qobject_cast<const QAbstractScrollArea*>(w->parentWidget()); area && area->viewport() == w)
            break;
        shown &= QRect(w->mapTo(window, QPoint(0, 0)), w->size());
    }
    return shown & window->rect();
}

bool insideCollapsedPane(const QWidget* widget, const QWidget* window)
{
    for (const QWidget* w = widget->parentWidget(); w && w != window; w = w->parentWidget())
        if (w->width() <= 0 || w->height() <= 0)
            return true;
    return false;
}

bool isControl(const QWidget* widget)
{
    return qobject_cast<const QAbstractButton*>(widget) || qobject_cast<const QLineEdit*>(widget) ||
           qobject_cast<const QComboBox*>(widget) || qobject_cast<const QAbstractSpinBox*>(widget) ||
           (qobject_cast<const QAbstractSlider*>(widget) && !qobject_cast<const QScrollBar*>(widget));
}

void checkControl(const QWidget* widget, const QWidget* window, QStringList& problems)
{
    const QRect shown = shownRect(widget, window);
    const int area = widget->width() * widget->height();
    if (area > 0 && shown.width() * shown.height() < area * 9 / 10)
        problems << QStringLiteral("%1 is cut off: %2 of its %3 x %4 px show").arg(describe(widget)).arg(
                        shown.isEmpty() ? QStringLiteral("none") : QStringLiteral("%1 x %2").arg(shown.width()).arg(shown.height()))
                        .arg(widget->width()).arg(widget->height());
    if (const auto* button = qobject_cast<const QAbstractButton*>(widget)) {
        const auto* tool = qobject_cast<const QToolButton*>(widget);
        const bool textShown = !button->text().isEmpty() && (!tool || tool->toolButtonStyle() != Qt::ToolButtonIconOnly);
        if (tool && tool->objectName() == QLatin1String("qt_toolbar_ext_button"))
            problems << QStringLiteral("a tool bar hides buttons behind \u00bb");
        else if (textShown && button->width() < button->minimumSizeHint().width() - 1)
            problems << QStringLiteral("%1: its text is cut (%2 of %3 px)").arg(describe(widget)).arg(button->width())
                            .arg(button->minimumSizeHint().width());
    }
    if (const auto* combo = qobject_cast<const QComboBox*>(widget)) {
        const int text = combo->fontMetrics().horizontalAdvance(combo->currentText());
        const int frame = combo->style()->pixelMetric(QStyle::PM_ComboBoxFrameWidth, nullptr, combo);
        // The text, its frame and the arrow (about one line's height wide).
        if (!combo->isEditable() && text + 2 * frame + combo->fontMetrics().height() + 8 > combo->width())
            problems << QStringLiteral("%1: '%2' is cut (%3 px for %4 px of text)").arg(describe(widget), shortText(combo->currentText()))
                            .arg(combo->width()).arg(text);
    }
}

void checkLabel(const QLabel* label, const QWidget* window, QStringList& problems)
{
    if (label->text().isEmpty() || label->wordWrap() || !label->pixmap().isNull())
        return;
    if (label->width() < label->minimumSizeHint().width() - 1)
        problems << QStringLiteral("%1: its text is cut (%2 of %3 px)").arg(describe(label)).arg(label->width())
                        .arg(label->minimumSizeHint().width());
    const QRect shown = shownRect(label, window);
    if (!shown.isEmpty() && shown.width() < label->minimumSizeHint().width() - 1 && shown.width() < label->width())
        problems << QStringLiteral("%1: its text runs out of sight (%2 of %3 px show)").arg(describe(label)).arg(shown.width())
                        .arg(label->minimumSizeHint().width());
}

void checkTabBar(const QTabBar* bar, QStringList& problems)
{
    const int space = bar->style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, bar);
    for (int i = 0; i < bar->count(); ++i) {
        if (!bar->isTabVisible(i))
            continue;
        const QRect tab = bar->tabRect(i);
        const QString text = bar->tabText(i);
        if (!bar->rect().contains(tab))
            problems << QStringLiteral("tab '%1' is out of sight (scroll arrows)").arg(shortText(text));
        else if (bar->elideMode() != Qt::ElideNone && bar->fontMetrics().horizontalAdvance(QString(text).remove(QLatin1Char('&'))) + space / 2 > tab.width())
            problems << QStringLiteral("tab '%1' is cut").arg(shortText(text));
    }
}

void checkItemView(const QAbstractItemView* view, QStringList& problems)
{
    const QAbstractItemModel* model = view->model();
    if (!model || view->textElideMode() == Qt::ElideNone)
        return;
    bool wraps = false;
    if (const auto* table = qobject_cast<const QTableView*>(view))
        wraps = table->wordWrap();
    else if (const auto* tree = qobject_cast<const QTreeView*>(view))
        wraps = tree->wordWrap();
    else if (const auto* list = qobject_cast<const QListView*>(view))
        wraps = list->wordWrap();
    int reported = 0;
    const QRect viewport = view->viewport()->rect();
    for (int row = 0; row < std::min(model->rowCount(view->rootIndex()), 400); ++row) {
        for (int column = 0; column < model->columnCount(view->rootIndex()); ++column) {
            const QModelIndex index = model->index(row, column, view->rootIndex());
            const QRect cell = view->visualRect(index);
            if (cell.isEmpty() || !viewport.intersects(cell))
                continue;
            const QString text = index.data(Qt::DisplayRole).toString();
            if (text.isEmpty() || view->indexWidget(index))
                continue;
            const QVariant font = index.data(Qt::FontRole);
            const QFontMetrics cellMetrics(font.isValid() ? font.value<QFont>() : view->font());
            const int decoration = index.data(Qt::DecorationRole).isValid() ? view->iconSize().width() + 4 : 0;
            const int room = cell.width() - decoration - 6;
            // On one line its width counts; where the view wraps and the row has room for more lines,
            // the height of the text wrapped at words (a word longer than the cell is cut either way).
            const QStringList words = text.split(QLatin1Char(' '));
            const bool cut = wraps && cell.height() >= 2 * cellMetrics.height()
                                 ? cellMetrics.boundingRect(QRect(0, 0, room, 1 << 20), Qt::TextWordWrap, text).height() > cell.height() ||
                                       std::any_of(words.cbegin(), words.cend(),
                                                   [&](const QString& word) { return cellMetrics.horizontalAdvance(word) > room; })
                                 : cellMetrics.horizontalAdvance(text) > room;
            if (cut && reported++ < 5)
                problems << QStringLiteral("%1: cell '%2' is cut (%3 px for %4 px of text)").arg(describe(view), shortText(text))
                                .arg(cell.width()).arg(cellMetrics.horizontalAdvance(text));
        }
    }
}

void checkSideways(const QAbstractScrollArea* area, QStringList& problems)
{
    // Code and logs may scroll sideways, as in an editor; figures, tables and text may not.
    if (qobject_cast<const QPlainTextEdit*>(area))
        return;
    if (const auto* edit = qobject_cast<const QTextEdit*>(area); edit && edit->lineWrapMode() == QTextEdit::NoWrap)
        return;
    const QScrollBar* bar = area->horizontalScrollBar();
    if (bar->isVisible() && bar->maximum() > 0)
        problems << QStringLiteral("%1 scrolls sideways by %2 px").arg(describe(area)).arg(bar->maximum());
}

// Painted text cut with "…" (plots, tables, tabs), read from the window drawn as SVG. Text that
// holds "…" as written (a button "Export Timeline…") is not cut.
void checkPaintedText(QWidget& window, const QSet<QString>& written, QStringList& problems)
{
    const QString svg = QString::fromUtf8(viz::renderFigure(window, viz::FigureFormat::Svg));
    static const QRegularExpression textNode(QStringLiteral(">([^<>]*\u2026[^<>]*)<"));
    QSet<QString> seen;
    for (const auto& match : textNode.globalMatch(svg)) {
        const QString text = match.captured(1).trimmed();
        if (text.isEmpty() || seen.contains(text))
            continue;
        seen.insert(text);
        const bool asWritten = std::any_of(written.begin(), written.end(), [&](const QString& whole) { return whole.contains(text); });
        if (!asWritten)
            problems << QStringLiteral("text cut short: '%1'").arg(shortText(text));
    }
}

} // namespace

QStringList fitProblems(QWidget& window, const QWidget* figure)
{
    QStringList problems;
    QSet<QString> written; // texts as the program set them, "…" and all
    for (const QWidget* widget : window.findChildren<QWidget*>()) {
        if (!widget->isVisibleTo(&window) || widget->width() <= 0 || widget->height() <= 0)
            continue;
        if (const auto* button = qobject_cast<const QAbstractButton*>(widget))
            written.insert(QString(button->text()).remove(QLatin1Char('&')));
        if (const auto* label = qobject_cast<const QLabel*>(widget))
            written.insert(label->text());
        if (insideCollapsedPane(widget, &window))
            continue; // folded away by the learner (a splitter pane, a section), not cut
        if (isControl(widget))
            checkControl(widget, &window, problems);
        if (const auto* label = qobject_cast<const QLabel*>(widget))
            checkLabel(label, &window, problems);
        if (const auto* bar = qobject_cast<const QTabBar*>(widget)) {
            for (int i = 0; i < bar->count(); ++i)
                written.insert(bar->tabText(i));
            checkTabBar(bar, problems);
        }
        if (const auto* view = qobject_cast<const QAbstractItemView*>(widget))
            checkItemView(view, problems);
        if (const auto* area = qobject_cast<const QAbstractScrollArea*>(widget))
            checkSideways(area, problems);
    }
    checkPaintedText(window, written, problems);
    if (figure && (figure->width() < kReadableFigure.width() || figure->height() < kReadableFigure.height()))
        problems << QStringLiteral("the figure is only %1 x %2 px (at least %3 x %4 reads)").arg(figure->width()).arg(figure->height())
                        .arg(kReadableFigure.width()).arg(kReadableFigure.height());
    problems.removeDuplicates();
    return problems;
}

} // namespace warpscope::app
