#include "execution/sass_pane.h"

#include "gpu/gpu_preset.h"
#include "precision/precision_lab_worker.h"
#include "ptx/cuda_compiler.h"
#include "ptx/ptx_ir.h"
#include "ptx/ptx_parser.h"

#include <QBrush>
#include <QColor>
#include <QComboBox>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPalette>
#include <QTreeWidget>
#include <QTreeWidgetItem>
#include <QVBoxLayout>

#include <atomic>
#include <exception>
#include <optional>
#include <string>
#include <utility>

namespace warpscope::viz {

namespace {

enum Column { OffsetColumn, SassColumn, LineColumn, PtxColumn, ColumnCount };

// What the worker hands back: the listing and the PTX lines of each of the kernel's instructions.
struct SassResult {
    ptx::SassListing listing;
    std::vector<std::vector<std::int32_t>> ptxLines; // per instruction of the kernel
};

// The presets' GPUs this toolkit can compile for (V100's sm_70 left CUDA 13), oldest first.
std::vector<std::pair<QString, QString>> archChoices()
{
    std::vector<std::pair<QString, QString>> choices;
    for (const gpu::GpuPreset& preset : gpu::allPresets()) {
        const std::string arch(preset.arch);
        if (!ptx::isKnownVirtualArch("compute_" + arch.substr(3)))
            continue;
        choices.emplace_back(QString::fromStdString(arch),
                             QStringLiteral("%1 (%2)").arg(QString::fromStdString(arch), QString::fromUtf8(preset.name.data(),
                                                                                       static_cast<qsizetype>(preset.name.size()))));
    }
    return choices;
}

QString lineText(const ptx::SassInstruction& instruction)
{
    if (instruction.lines.empty())
        return QString();
    // The learner's line first (as the stepper's); where the code really is after it, when that is a
    // toolkit header's line.
    const ptx::SassLocation* learner = ptx::learnerLine(instruction);
    QString text = QString::number(learner->line);
    const ptx::SassLocation& inner = instruction.lines.front();
    if (&inner != learner)
        text += QStringLiteral(" (%1:%2)").arg(QFileInfo(QString::fromStdString(inner.file)).fileName()).arg(inner.line);
    return text;
}

QString lineToolTip(const ptx::SassInstruction& instruction)
{
    QStringList rows;
    for (std::size_t i = 0; i < instruction.lines.size(); ++i)
        rows << (i == 0 ? QStringLiteral("%1, line %2") : QStringLiteral("inlined at %1, line %2"))
                    .arg(QString::fromStdString(instruction.lines[i].file))
                    .arg(instruction.lines[i].line);
    return rows.isEmpty() ? QStringLiteral("No source line: code ptxas added (padding, a trap loop)") : rows.join('\n');
}

} // namespace

SassPane::SassPane(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("sassPane"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* row = new QHBoxLayout;
    auto* caption = new QLabel(tr("SASS for"), this);
    m_arch = new QComboBox(this);
    m_arch->setObjectName(QStringLiteral("sassArch"));
    for (const auto& [arch, label] : archChoices())
        m_arch->addItem(label, arch);
    m_arch->setToolTip(tr("The GPU ptxas compiles the PTX for: its SASS, registers and spills are that GPU's"));
    if (const int h100 = m_arch->findData(QStringLiteral("sm_90")); h100 >= 0)
        m_arch->setCurrentIndex(h100);
    caption->setBuddy(m_arch);
    row->addWidget(caption);
    row->addWidget(m_arch);
    row->addStretch(1);
    layout->addLayout(row);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("sassSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("sassMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->hide();
    layout->addWidget(m_message);
    m_list = new QTreeWidget(this);
    m_list->setObjectName(QStringLiteral("sassList"));
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setColumnCount(ColumnCount);
    m_list->setHeaderLabels({tr("Offset"), tr("SASS"), tr("Line"), tr("PTX")});
    m_list->headerItem()->setToolTip(LineColumn, tr("The source line you wrote; a toolkit header's line in brackets"));
    m_list->headerItem()->setToolTip(PtxColumn, tr("The PTX lines of that source line"));
    m_list->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_list->header()->setStretchLastSection(true);
    layout->addWidget(m_list, 1);
    m_worker = new LabWorker(this);

    connect(m_arch, &QComboBox::currentIndexChanged, this, [this] { recompile(); });
    connect(m_list, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
        const int row = m_list->indexOfTopLevelItem(item);
        if (row >= 0 && static_cast<std::size_t>(row) < m_rowLines.size() && m_rowLines[row] > 0)
            emit lineActivated(m_rowLines[row]);
    });
}

void SassPane::setKernel(const QString& ptxText, const QString& kernelName, const QString& ptxName)
{
    m_ptxText = ptxText;
    m_kernelName = kernelName;
    m_ptxName = ptxName.isEmpty() ? kernelName + QStringLiteral(".ptx") : ptxName;
    recompile();
}

void SassPane::setArch(const QString& arch)
{
    const int index = m_arch->findData(arch);
    if (index >= 0)
        m_arch->setCurrentIndex(index); // recompiles when it changes
}

QString SassPane::arch() const { return m_arch->currentData().toString(); }

bool SassPane::busy() const { return m_worker->busy(); }

QString SassPane::summary() const { return m_summary->text(); }

QString SassPane::message() const { return m_message->isHidden() ? QString() : m_message->text(); }

int SassPane::instructionCount() const { return m_list->topLevelItemCount(); }

std::vector<int> SassPane::highlightedRows() const { return m_highlighted; }

void SassPane::recompile()
{
    if (m_ptxText.isEmpty()) {
        m_worker->cancel();
        display(nullptr, QString());
        return;
    }
    const std::string ptxText = m_ptxText.toStdString();
    const std::string kernel = m_kernelName.toStdString();
    ptx::SassOptions options;
    options.arch = arch().toStdString();
    options.ptxName = m_ptxName.toStdString();
    m_summary->setText(tr("Compiling for %1 with ptxas and nvdisasm...").arg(arch()));
    m_worker->submit([this, ptxText, kernel, options](const LabWorker::Progress&,
                                                      const std::atomic<bool>&) -> LabWorker::Delivery {
        auto result = std::make_shared<SassResult>();
        QString failure;
        try {
            result->listing = ptx::compileSass(ptxText, options);
            // The PTX lines of each source line, from the PTX's own line map.
            std::optional<ptx::Module> module;
            try {
                module = ptx::parseModule(ptxText);
            } catch (const std::exception&) {
                module.reset(); // text the parser cannot read: no PTX lines, the SASS still shows
            }
            const ptx::Function* function = module ? module->findFunction(kernel) : nullptr;
            const ptx::PtxLinesBySource index = function ? ptx::ptxLinesBySource(*module, *function) : ptx::PtxLinesBySource{};
            if (const ptx::SassFunction* listed = result->listing.findFunction(kernel))
                for (const ptx::SassInstruction& instruction : listed->instructions)
                    result->ptxLines.push_back(ptx::ptxLinesOf(index, instruction));
        } catch (const std::exception& error) {
            failure = QString::fromStdString(error.what());
        }
        return [this, result, failure] {
            std::shared_ptr<const SassResult> shown = failure.isEmpty() ? result : nullptr;
            display(shown ? std::shared_ptr<const ptx::SassListing>(shown, &shown->listing) : nullptr, failure);
            if (shown)
                for (int row = 0; row < m_list->topLevelItemCount() && static_cast<std::size_t>(row) < shown->ptxLines.size(); ++row)
                    m_list->topLevelItem(row)->setText(
                        PtxColumn, QString::fromStdString(ptx::lineRanges(shown->ptxLines[static_cast<std::size_t>(row)])));
            emit ready();
        };
    });
}

void SassPane::display(const std::shared_ptr<const ptx::SassListing>& listing, const QString& failure)
{
    m_list->clear();
    m_rowLines.clear();
    m_highlighted.clear();
    m_counts.clear();
    m_summary->clear();
    const ptx::SassFunction* function = listing ? listing->findFunction(m_kernelName.toStdString()) : nullptr;
    QString problem = failure;
    if (listing && !function)
        problem = tr("ptxas made no function named %1 for %2").arg(m_kernelName, arch());
    m_message->setText(problem);
    m_message->setVisible(!problem.isEmpty());
    m_list->setVisible(problem.isEmpty());
    if (!function)
        return;
    const ptx::PtxasResources* resources = listing->findResources(function->name);
    m_summary->setText(QStringLiteral("%1 · %2 on %3: %4 instructions")
                           .arg(resources ? QString::fromStdString(ptx::describeResources(*resources))
                                          : tr("ptxas reported no resources"),
                                m_kernelName, arch())
                           .arg(function->instructions.size()));
    QList<QTreeWidgetItem*> items;
    for (const ptx::SassInstruction& instruction : function->instructions) {
        auto* item = new QTreeWidgetItem;
        item->setText(OffsetColumn, QStringLiteral("%1").arg(instruction.offset, 4, 16, QLatin1Char('0')));
        item->setText(SassColumn, QString::fromStdString(instruction.text()));
        item->setText(LineColumn, lineText(instruction));
        item->setToolTip(LineColumn, lineToolTip(instruction));
        if (!instruction.label.empty())
            item->setToolTip(SassColumn, tr("%1: a branch target").arg(QString::fromStdString(instruction.label)));
        items << item;
        m_rowLines.push_back(ptx::learnerLine(instruction) ? ptx::learnerLine(instruction)->line : 0);
    }
    m_list->addTopLevelItems(items);
    m_counts = ptx::sassCountsByLine(*function);
    highlight();
}

void SassPane::setCurrentLine(int sourceLine)
{
    if (sourceLine == m_currentLine)
        return;
    m_currentLine = sourceLine;
    highlight();
}

void SassPane::highlight()
{
    const QBrush none;
    for (int row : m_highlighted)
        if (QTreeWidgetItem* item = m_list->topLevelItem(row))
            for (int column = 0; column < ColumnCount; ++column)
                item->setBackground(column, none);
    m_highlighted.clear();
    if (m_currentLine <= 0)
        return;
    // The CodeView's current-line tint: the palette's highlight, faint, so it reads on light and dark.
    QColor tint = palette().color(QPalette::Highlight);
    tint.setAlpha(70);
    for (std::size_t row = 0; row < m_rowLines.size(); ++row) {
        if (m_rowLines[row] != m_currentLine)
            continue;
        QTreeWidgetItem* item = m_list->topLevelItem(static_cast<int>(row));
        for (int column = 0; column < ColumnCount; ++column)
            item->setBackground(column, tint);
        m_highlighted.push_back(static_cast<int>(row));
    }
    if (!m_highlighted.empty())
        m_list->scrollToItem(m_list->topLevelItem(m_highlighted.front()), QAbstractItemView::PositionAtTop);
}

} // namespace warpscope::viz
