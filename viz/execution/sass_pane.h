// SassPane: the stepper's SASS pane. What ptxas makes of the stepped kernel's PTX for one GPU
// (sm_75 .. sm_90), listed by nvdisasm with each instruction's source line and the PTX lines of that
// line; ptxas's registers, spills and static shared memory above it; the current source line's
// instructions highlighted. Compiles off the GUI thread (cached like NVRTC's output). Without
// nvdisasm it says how to get it.
#pragma once

#include "ptx/sass.h"

#include <QString>
#include <QWidget>

#include <map>
#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QTreeWidget;

namespace warpscope::viz {

class LabWorker;

class SassPane : public QWidget {
    Q_OBJECT
public:
    explicit SassPane(QWidget* parent = nullptr);

    // The stepped kernel: its PTX module, the entry to list and how messages name the PTX.
    // Recompiles for the chosen GPU; an empty text clears the pane.
    void setKernel(const QString& ptxText, const QString& kernelName, const QString& ptxName = QString());
    void setArch(const QString& arch);                   // "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"
    QString arch() const;
    void setCurrentLine(int sourceLine);                 // the kernel's own line (as the stepper's); 0 for none
    int currentLine() const { return m_currentLine; }

    bool busy() const;                                   // a compile is queued or running
    QString summary() const;                             // "ptxas for sm_90: 32 registers, ..."
    QString message() const;                             // why there is no SASS; empty when there is
    int instructionCount() const;                        // rows listed
    std::vector<int> highlightedRows() const;            // rows of the current line, top to bottom
    QTreeWidget* list() const { return m_list; }
    // The listed kernel's SASS per source line (instructions; memory by width), for the heat column.
    const std::map<int, ptx::SassLineCounts>& countsByLine() const { return m_counts; }

signals:
    void ready();                                        // a compile's listing or message is shown
    void lineActivated(int sourceLine);                  // a row was chosen: its source line

private:
    void recompile();
    void display(const std::shared_ptr<const ptx::SassListing>& listing, const QString& failure);
    void highlight();

    QComboBox* m_arch = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_message = nullptr;
    QTreeWidget* m_list = nullptr;
    LabWorker* m_worker = nullptr;
    QString m_ptxText;
    QString m_kernelName;
    QString m_ptxName;
    int m_currentLine = 0;
    std::vector<int> m_rowLines;                         // each row's source line (0: none)
    std::vector<int> m_highlighted;
    std::map<int, ptx::SassLineCounts> m_counts;
};

} // namespace warpscope::viz
