// The table under the hierarchical roofline: one compact row per kernel, with its FP32 FLOP/s and,
// per memory level, its intensity and share of that level's roof, or in a few words why it has no
// point there (the full numbers and the reason's sentence on hover). Kernels that cannot be plotted
// are read here, not in paragraphs. With a cuBLAS SGEMM reference in the session, a last row holds it
// and each matmul rung's FP32 cell its share of it.
#pragma once

#include "session/roofline.h"

#include <QString>
#include <QTableWidget>

#include <vector>

namespace warpscope::session {
struct Session;
}

namespace warpscope::viz {

class ProfileRooflineTable : public QTableWidget {
    Q_OBJECT
public:
    enum Column { KernelColumn = 0, FlopsColumn, L1Column, L2Column, DramColumn, ColumnCount };
    static Column levelColumn(session::MemoryLevel level) { return static_cast<Column>(L1Column + static_cast<int>(level)); }

    explicit ProfileRooflineTable(QWidget* parent = nullptr);

    void setModel(const session::Session& session, const std::vector<session::KernelRoofline>& kernels,
                  const session::RooflineRoofs& roofs);

    // The cell's text or tooltip in `kernel`'s row; a null QString when the kernel has no row.
    QString cellText(const QString& kernel, Column column) const;
    QString cellToolTip(const QString& kernel, Column column) const;
    QSize sizeHint() const override;

protected:
    void changeEvent(QEvent* event) override;

private:
    int rowOf(const QString& kernel) const;
    void addSgemmReference(const session::Session& session);
    void recolour();
};

// The text of one level's cell and its tooltip, with the share of the level's roof.
QString rooflineCellText(const session::KernelRoofline& kernel, session::MemoryLevel level, const session::RooflineRoofs& roofs);
QString rooflineCellToolTip(const session::KernelRoofline& kernel, session::MemoryLevel level, const session::RooflineRoofs& roofs);

} // namespace warpscope::viz
