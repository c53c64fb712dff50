// Item text that wraps anywhere, on as many lines as its column needs: the style's own word wrap
// breaks only at spaces, so an ncu metric name ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")
// or FP32's 0.100000001490116119384765625 would be cut at the column's edge.
#pragma once

#include <QStyledItemDelegate>

namespace warpscope::viz {

class WrapAnywhereDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    // As tall as the text wrapped at its column's width (a tree asks without one: its header's is used).
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    static constexpr int kMargin = 3; // as the style's own text margin
};

} // namespace warpscope::viz
