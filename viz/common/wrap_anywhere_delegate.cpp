#include "common/wrap_anywhere_delegate.h"

#include <QApplication>
#include <QHeaderView>
#include <QPainter>
#include <QStyle>
#include <QTextOption>
#include <QTreeView>

#include <algorithm>

namespace warpscope::viz {

void WrapAnywhereDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QStyleOptionViewItem item = option;
    initStyleOption(&item, index);
    const QString text = item.text;
    item.text.clear();
    const QWidget* widget = option.widget;
    QStyle* style = widget != nullptr ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &item, painter, widget);
    const QRect area = style->subElementRect(QStyle::SE_ItemViewItemText, &item, widget).adjusted(kMargin, 0, -kMargin, 0);
    QTextOption wrap(Qt::AlignLeft | Qt::AlignVCenter);
    wrap.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    painter->save();
    painter->setFont(item.font);
    painter->setPen(item.palette.color(item.state & QStyle::State_Enabled ? QPalette::Normal : QPalette::Disabled,
                                       item.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text));
    painter->drawText(area, text, wrap);
    painter->restore();
}

QSize WrapAnywhereDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    // QTreeView asks for row heights without a width (-1): the column's own width is the one to wrap at.
    const auto* tree = qobject_cast<const QTreeView*>(option.widget);
    const int column = tree != nullptr ? tree->header()->sectionSize(index.column()) : option.rect.width();
    const int width = column - 2 * kMargin - 8;
    if (width <= 0)
        return size;
    const QString text = index.data(Qt::DisplayRole).toString();
    const QRect needed = option.fontMetrics.boundingRect(QRect(0, 0, width, 100000), Qt::TextWrapAnywhere, text);
    size.setHeight(std::max(size.height(), needed.height() + 2));
    return size;
}

} // namespace warpscope::viz
