// The Execution view's launch fields: arguments, grid, block and block index, applied one way as in
// every view (viz/common/validated_field.h). Each is checked as typed against the others by
// sim::checkLaunchFields (cheap: no buffer is made), marked at once, and its mistake is one line in
// the row under the fields, rebuilt from the fields' current texts on every key. What was typed is
// applied, that is recorded, on Enter, on leaving the field or after a pause, never per key: typing
// 2000 into Block never first records blocks of 200.
#include "execution/execution_panel.h"

#include "common/validated_field.h"
#include "demo_kernels.h"
#include "execution/code_view.h"
#include "launch/launch_geometry.h"
#include "sim/simulator.h"
#include "util/input_error.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPalette>
#include <QTimer>

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace warpscope::viz {

void ExecutionPanel::buildLaunchFields(QHBoxLayout* kernelRow, QHBoxLayout* launchRow)
{
    // `chars`: how many characters the field shows at least, so "cdiv(n,256)" is not cut short.
    auto addField = [&](QHBoxLayout* row, LaunchField role, const QString& name, const QString& label, int chars,
                        const QString& tip) {
        auto* caption = new QLabel(label, this);
        auto* field = new ValidatedField(name, [this, role](const QString& text) -> std::int64_t {
            const sim::LaunchFieldsCheck check = checkFields(role, text);
            const std::string* errors[] = {&check.argsError, &check.gridError, &check.blockError, &check.blockIndexError};
            if (const std::string& error = *errors[static_cast<int>(role)]; !error.empty())
                throw InputError(error);
            return 0; // the text itself is what a run reads
        }, this);
        QLineEdit* edit = field->lineEdit();
        edit->setMinimumWidth(edit->fontMetrics().horizontalAdvance(QString(chars, QLatin1Char('0'))) + 14); // + frame and margins
        field->setToolTip(tip);
        field->setShowsMessage(false); // too narrow for a sentence: the row under the fields says it
        caption->setBuddy(edit);
        row->addWidget(caption);
        row->addWidget(field, chars > 12 ? 3 : 1);
        connect(field, &ValidatedField::textChecked, this, &ExecutionPanel::fieldsChecked);
        connect(field, &ValidatedField::valueEdited, this, &ExecutionPanel::fieldsApplied);
        // Enter records the launch again even when nothing changed (after the field has applied its text).
        connect(edit, &QLineEdit::returnPressed, this, [this] {
            m_enterPressed = true;
            fieldsApplied();
        });
        return field;
    };
    m_args = addField(kernelRow, LaunchField::Args, QStringLiteral("executionArgs"), QStringLiteral("&Args"), 16,
                      QStringLiteral("Argument specs separated by spaces, e.g. n=i32:256 x=f32[n]:iota (see kernels/README.md)"));
    m_grid = addField(launchRow, LaunchField::Grid, QStringLiteral("executionGrid"), QStringLiteral("&Grid"), 11,
                      QStringLiteral("gridDim: X[,Y[,Z]], expressions over the arguments"));
    m_grid->lineEdit()->setObjectName(QStringLiteral("gridField"));
    m_block = addField(launchRow, LaunchField::Block, QStringLiteral("executionBlock"), QStringLiteral("&Block"), 4,
                       QStringLiteral("blockDim: X[,Y[,Z]], expressions over the arguments"));
    m_blockIndex = addField(launchRow, LaunchField::BlockIndex, QStringLiteral("executionBlockIndex"), QStringLiteral("Block &index"), 4,
                            QStringLiteral("blockIdx of the block to record and step through: X[,Y[,Z]]"));
    m_fieldErrors = new QLabel(this);
    m_fieldErrors->setObjectName(QStringLiteral("executionFieldErrors"));
    m_fieldErrors->setWordWrap(true);
    m_fieldErrors->setTextFormat(Qt::PlainText);
    m_fieldErrors->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_fieldErrors->hide();
}

QStringList ExecutionPanel::launchFieldTexts() const
{
    const QString kernel = m_kernel->currentData().toString();
    // The playground's source is part of what a run records.
    const QString source = kernel == QLatin1String("playground") ? m_source->toPlainText() : QString();
    return {kernel, m_args->text(), m_grid->text(), m_block->text(), m_blockIndex->text(), source};
}

sim::LaunchFieldsCheck ExecutionPanel::checkFields(std::optional<LaunchField> typed, const QString& text) const
{
    if (!m_args || !m_grid || !m_block || !m_blockIndex || !m_kernel)
        return {}; // still being built
    std::array<QString, 4> texts = {m_args->text(), m_grid->text(), m_block->text(), m_blockIndex->text()};
    if (typed)
        texts[static_cast<std::size_t>(*typed)] = text;
    const kernels::DemoKernel* demo = kernels::findDemoKernel(m_kernel->currentData().toString().toStdString());
    sim::LaunchFieldsText fields{texts[0].toStdString(), texts[1].trimmed().toStdString(), texts[2].trimmed().toStdString(),
                                 texts[3].toStdString()};
    // An empty grid or block keeps a demo kernel's own, as a run does.
    if (demo && fields.grid.empty())
        fields.grid = demo->grid;
    if (demo && fields.block.empty())
        fields.block = demo->block;
    const std::uint64_t cap = sim::SimOptions{}.maxBufferBytes;
    if (!demo)
        return sim::checkLaunchFields(fields, nullptr, "playground.cu", cap);
    const std::vector<sim::ArgSpec> own = kernels::demoArgSpecs(*demo, kernels::LaunchSize::Sim);
    return sim::checkLaunchFields(fields, &own, demo->id, cap);
}

void ExecutionPanel::fieldsChecked()
{
    if (m_recheckingFields || !m_args || !m_grid || !m_block || !m_blockIndex || !m_fieldErrors)
        return;
    // The grid reads the arguments, the block index the grid: the others are checked again.
    m_recheckingFields = true;
    for (ValidatedField* field : {m_args, m_grid, m_block, m_blockIndex})
        if (field != sender())
            field->recheck();
    m_recheckingFields = false;
    QStringList lines;
    for (const ValidatedField* field : {m_args, m_grid, m_block, m_blockIndex})
        if (!field->valid())
            lines << field->errorText();
    if (!lines.isEmpty() && m_stepper)
        lines << QStringLiteral("Not recorded: the stepper shows the launch it recorded last, grid %1 × block %2, block %3.")
                     .arg(QString::fromStdString(launch::formatDim3(m_stepper->run().grid)),
                          QString::fromStdString(launch::formatDim3(m_stepper->run().block)),
                          QString::fromStdString(launch::formatIndex(m_stepper->run().blockIndex)));
    m_fieldErrors->setText(lines.join(QLatin1Char('\n')));
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    m_fieldErrors->setStyleSheet(QStringLiteral("color: %1;").arg(dark ? QStringLiteral("#ff6b6b") : QStringLiteral("#c62828")));
    m_fieldErrors->setVisible(!lines.isEmpty());
    // A "Not run" line about a mistake that is fixed now would be stale.
    if (lines.isEmpty() && m_statusShowsFieldError) {
        m_statusShowsFieldError = false;
        m_status->setText(QStringLiteral("Enter, or Run (Ctrl+Shift+R), records the block."));
    }
}

void ExecutionPanel::fieldsApplied()
{
    // Enter both applies the field's text and asks for a run: the two make one run.
    if (m_applyQueued)
        return;
    m_applyQueued = true;
    QTimer::singleShot(0, this, &ExecutionPanel::applyFieldsNow);
}

void ExecutionPanel::applyFieldsNow()
{
    m_applyQueued = false;
    const bool enter = std::exchange(m_enterPressed, false);
    // A mistake is marked and said under the fields; Enter also says that nothing was run.
    if (!m_args->valid() || !m_grid->valid() || !m_block->valid() || !m_blockIndex->valid()) {
        if (enter)
            run();
        return;
    }
    if (enter || launchFieldTexts() != m_startedFields)
        run();
}

} // namespace warpscope::viz
