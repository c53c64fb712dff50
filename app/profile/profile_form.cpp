#include "profile/profile_form.h"

#include "common/validated_field.h"
#include "demo_kernels.h"
#include "kernel_target.h"
#include "launch/launch_geometry.h"
#include "ptx/cuda_compiler.h"
#include "session/session.h"
#include "util/input_error.h"
#include "util/input_wording.h"
#include "util/parse.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QRegularExpression>
#include <QScopedValueRollback>
#include <QStackedWidget>
#include <QStringList>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace warpscope::app {
namespace {

QString fromStd(const std::string& text) { return QString::fromStdString(text); }

QLineEdit* makeField(QWidget* parent, int width, const QString& tip)
{
    auto* field = new QLineEdit(parent);
    field->setMinimumWidth(width);
    field->setToolTip(tip);
    field->setClearButtonEnabled(true);
    return field;
}

// The ranges are the probe's own (profiling/probe_options.cpp) and `warpscope profile`'s.
constexpr std::int64_t kMaxRuns = 1000;
constexpr std::int64_t kMaxDevice = 255;
constexpr std::int64_t kMaxHangTimeoutSeconds = 24 * 3600;

// Timed runs: empty or 0 leaves the count to the probe.
std::int64_t parseRuns(const QString& text)
{
    if (text.trimmed().isEmpty())
        return 0;
    static const viz::ValidatedField::Parser count = viz::countParser(QStringLiteral("runs"), 0, kMaxRuns, false);
    try {
        return count(text);
    } catch (const InputError& error) {
        std::string message = error.what();
        message.insert(message.size() - 1, "; empty or 0: the probe's default");
        throw InputError(message);
    }
}

// A CUDA device ordinal: empty is device 0, as the placeholder says.
std::int64_t parseDevice(const QString& text)
{
    static const viz::ValidatedField::Parser count = viz::countParser(QStringLiteral("device"), 0, kMaxDevice, false);
    return text.trimmed().isEmpty() ? 0 : count(text);
}

// Seconds, as --hang-timeout takes them, or with a unit: "180", "180 s", "3 min", "1 h", "86,400 s".
std::int64_t parseHangTimeout(const QString& typed)
{
    const std::string range = "1.." + withThousands(kMaxHangTimeoutSeconds) + " s, or in min or h: 3 min, 1 h";
    static const QRegularExpression duration(QStringLiteral("^\\s*\\+?(\\d{1,3}(?:,\\d{3})+|\\d+)\\s*(s|sec|min|h)?\\s*$"),
                                             QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch match = duration.match(typed);
    if (!match.hasMatch())
        throw InputError(notAValueMessage("hang timeout", typed.toStdString(), "a duration", range));
    bool ok = false;
    const qlonglong number = match.captured(1).remove(QLatin1Char(',')).toLongLong(&ok);
    const QString unit = match.captured(2).toLower();
    const std::int64_t scale = unit == QLatin1String("h") ? 3600 : unit == QLatin1String("min") ? 60 : 1;
    if (!ok || number > kMaxHangTimeoutSeconds || number * scale < 1 || number * scale > kMaxHangTimeoutSeconds)
        throw InputError(outOfRangeMessage("hang timeout", typed.toStdString(), range));
    return number * scale;
}

// --compute: "compute_80" reads as 80; empty is the default (0). The check is the command line's
// (kernels::requireComputeOption through computeProblem), so both refuse and allow the same.
std::int64_t parseCompute(const QString& text)
{
    const QString compute = text.trimmed();
    if (compute.isEmpty())
        return 0;
    if (const std::optional<QString> problem = computeProblem(compute, {}))
        throw InputError(problem->toStdString());
    return kernels::architectureNumber(compute.toStdString());
}

// The virtual architecture NVRTC compiles a .cu file for when --compute is not given.
QString defaultCompute() { return fromStd(ptx::CompileOptions{}.arch); }

} // namespace

ProfileForm::ProfileForm(QWidget* parent) : QWidget(parent)
{
    m_kind = new QComboBox(this);
    m_kind->addItem(tr("Demo kernel"));
    m_kind->addItem(tr("Demo ladder"));
    m_kind->addItem(tr("CUDA / PTX file"));
    m_kind->setToolTip(tr("What to profile: one demo kernel, every rung of a demo ladder, or your own .cu or .ptx file"));

    m_kernel = new QComboBox(this);
    m_kernel->setObjectName(QStringLiteral("profileKernel"));
    std::map<std::string, int> ladderRungs;
    std::vector<std::string> ladderOrder;
    for (const kernels::DemoKernel& kernel : kernels::demoKernels()) {
        m_kernel->addItem(QStringLiteral("%1 \u2014 %2").arg(fromStd(kernel.id), fromStd(kernel.title)), fromStd(kernel.id));
        m_kernel->setItemData(m_kernel->count() - 1, fromStd(kernel.summary), Qt::ToolTipRole);
        if (!kernel.ladder.empty()) {
            if (ladderRungs[kernel.ladder]++ == 0)
                ladderOrder.push_back(kernel.ladder);
        }
    }
    m_ladder = new QComboBox(this);
    m_ladder->setObjectName(QStringLiteral("profileLadder"));
    // Long kernel titles must not widen the dock: the combo boxes size to a fixed length.
    for (QComboBox* combo : {m_kernel, m_ladder}) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(16);
    }
    for (const std::string& ladder : ladderOrder)
        m_ladder->addItem(tr("%1 (%2 rungs)").arg(fromStd(ladder)).arg(ladderRungs[ladder]), fromStd(ladder));

    auto* filePage = new QWidget(this);
    auto* fileLayout = new QHBoxLayout(filePage);
    fileLayout->setContentsMargins(0, 0, 0, 0);
    m_file = makeField(filePage, 120, tr("A .cu file (compiled with NVRTC) or a .ptx file"));
    m_file->setObjectName(QStringLiteral("profileFile"));
    m_file->setPlaceholderText(tr("kernel.cu or kernel.ptx"));
    auto* browse = new QToolButton(filePage);
    browse->setText(QStringLiteral("\u2026"));
    browse->setToolTip(tr("Choose a file"));
    m_entry = makeField(filePage, 70, tr("The kernel's entry name (--kernel), when the file has more than one"));
    m_entry->setPlaceholderText(tr("entry"));
    fileLayout->addWidget(m_file, 1);
    fileLayout->addWidget(browse);
    fileLayout->addWidget(m_entry);
    connect(browse, &QToolButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Kernel to Profile"), m_file->text(),
                                                          tr("CUDA or PTX (*.cu *.ptx)"));
        if (!path.isEmpty())
            m_file->setText(path);
    });

    m_targetStack = new QStackedWidget(this);
    m_targetStack->addWidget(m_kernel);
    m_targetStack->addWidget(m_ladder);
    m_targetStack->addWidget(filePage);
    m_targetStack->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);

    m_metrics = new QComboBox(this);
    m_metrics->setEditable(true);
    m_metrics->addItems({QStringLiteral("headline"), QStringLiteral("full")});
    m_metrics->setToolTip(tr("headline: the metrics every view needs (few replay passes); full: every metric in the "
                             "catalog; or ncu metric names separated by commas"));
    m_runs = new viz::ValidatedField(QStringLiteral("profileRuns"), parseRuns, this);
    m_runs->setFormatter([](std::int64_t runs) { return runs == 0 ? QString() : QString::number(runs); });
    m_runs->setStepping(1, 0, kMaxRuns);
    m_runs->setValue(0);
    m_runs->lineEdit()->setPlaceholderText(tr("default"));
    m_runs->setToolTip(tr("Timed runs for the Activity durations (the median is shown): 1 to %1; empty or 0: the probe's "
                          "default. Up/Down: one more or less")
                           .arg(kMaxRuns));
    m_device = new viz::ValidatedField(QStringLiteral("profileDevice"), parseDevice, this);
    m_device->setStepping(1, 0, kMaxDevice);
    m_device->setValue(0);
    m_device->lineEdit()->setPlaceholderText(QStringLiteral("0"));
    m_device->setToolTip(tr("CUDA device ordinal, 0 to %1 (warpscope-probe --devices lists them); empty: 0").arg(kMaxDevice));

    m_compute = new viz::ValidatedField(QStringLiteral("profileCompute"), parseCompute, this);
    m_compute->lineEdit()->setPlaceholderText(tr("default (%1)").arg(defaultCompute()));
    m_compute->setToolTip(tr("The virtual architecture NVRTC compiles a .cu file for (--compute): %1; empty: %2. "
                             "The GPU must be at least as new. Demo kernels and .ptx files are compiled already.")
                              .arg(fromStd(ptx::supportedVirtualArchList()), defaultCompute()));
    m_computeChoices = new QToolButton(this);
    m_computeChoices->setObjectName(QStringLiteral("profileComputeChoices"));
    m_computeChoices->setText(QStringLiteral("\u25be"));
    m_computeChoices->setToolTip(tr("Choose a virtual architecture NVRTC knows"));
    m_computeChoices->setPopupMode(QToolButton::InstantPopup);
    m_computeChoices->setStyleSheet(QStringLiteral("QToolButton::menu-indicator { image: none; }")); // the text is the arrow
    auto* computeMenu = new QMenu(m_computeChoices);
    computeMenu->addAction(tr("default (%1)").arg(defaultCompute()), this, [this] { m_compute->setTextAsTyped(QString()); });
    for (const std::string& arch : ptx::supportedVirtualArchs())
        computeMenu->addAction(fromStd(arch), this, [this, arch = fromStd(arch)] { m_compute->setTextAsTyped(arch); });
    m_computeChoices->setMenu(computeMenu);

    m_grid = makeField(this, 50, tr("gridDim override: X[,Y[,Z]], numbers or the manifest's expressions"));
    m_block = makeField(this, 50, tr("blockDim override: X[,Y[,Z]]"));
    m_smem = makeField(this, 45, tr("Dynamic shared memory override in bytes"));
    m_args = makeField(this, 80, tr("Argument overrides, separated by spaces or ';', each replacing the manifest's "
                                     "argument of that name: n=i32:1048576  a=f32[n]:random(1)"));
    m_hangTimeout = new viz::ValidatedField(QStringLiteral("profileHangTimeout"), parseHangTimeout, this);
    m_hangTimeout->setFormatter([](std::int64_t seconds) { return QStringLiteral("%1 s").arg(seconds); });
    m_hangTimeout->setStepping(10, 1, kMaxHangTimeoutSeconds);
    m_hangTimeout->setValue(m_lastValidHangTimeout);
    m_hangTimeout->setToolTip(tr("A probe that writes nothing for this long is considered hung and is stopped: 1 to %1 s, "
                                 "or in min or h (3 min, 1 h). Up/Down: 10 s more or less")
                                  .arg(QString::fromStdString(withThousands(kMaxHangTimeoutSeconds))));
    // "default (compute_75)" and "compute_100" whole, with the line edit's frame and margins.
    const int computeWidth = QFontMetrics(m_compute->lineEdit()->font()).horizontalAdvance(m_compute->lineEdit()->placeholderText()) + 16;
    // Narrow rows: each field's message goes to the line under the form, not under the field.
    for (auto [field, width] : {std::pair{m_runs, 64}, std::pair{m_device, 44}, std::pair{m_compute, computeWidth}, std::pair{m_hangTimeout, 72}}) {
        field->setShowsMessage(false);
        field->lineEdit()->setMinimumWidth(width);
        field->lineEdit()->setMaximumWidth(width + 40);
        field->lineEdit()->setToolTip(field->toolTip());
    }
    m_remote = makeField(this, 90, tr("[USER@]HOST: run warpscope-probe on that machine through ssh (keys or an agent, "
                                      "no password prompt) and read its session as it arrives; the probe must be on the "
                                      "PATH there. A kernel file is then a path on that machine. Empty: this machine."));
    m_remote->setPlaceholderText(tr("this machine"));

    // Five short rows rather than one long one: the dock can be narrow.
    auto label = [&](const QString& text, QWidget* buddy) {
        auto* l = new QLabel(text, this);
        l->setBuddy(buddy);
        return l;
    };
    auto* target = new QHBoxLayout;
    target->addWidget(label(tr("&Profile"), m_kind));
    target->addWidget(m_kind);
    target->addWidget(m_targetStack, 1);
    auto* launch = new QHBoxLayout;
    launch->addWidget(label(tr("Grid"), m_grid));
    launch->addWidget(m_grid);
    launch->addWidget(label(tr("Block"), m_block));
    launch->addWidget(m_block);
    launch->addWidget(label(tr("Shared"), m_smem));
    launch->addWidget(m_smem);
    launch->addWidget(label(tr("&Args"), m_args));
    launch->addWidget(m_args, 1);
    auto* options = new QHBoxLayout;
    options->addWidget(label(tr("&Metrics"), m_metrics));
    options->addWidget(m_metrics);
    options->addWidget(label(tr("Runs"), m_runs));
    options->addWidget(m_runs);
    options->addWidget(label(tr("Device"), m_device));
    options->addWidget(m_device);
    options->addStretch(1);
    auto* compile = new QHBoxLayout; // a row of its own: beside Runs and Device the row outgrows a narrow dock
    compile->addWidget(label(tr("&Compute"), m_compute));
    compile->addWidget(m_compute);
    compile->addWidget(m_computeChoices);
    auto* computeNote = new QLabel(tr("for a .cu file, which NVRTC compiles"), this);
    computeNote->setStyleSheet(QStringLiteral("QLabel { color: palette(placeholder-text); }"));
    compile->addWidget(computeNote);
    compile->addStretch(1);
    auto* where = new QHBoxLayout; // where the probe runs, and how long it may stay silent
    where->addWidget(label(tr("Re&mote"), m_remote));
    where->addWidget(m_remote, 1);
    where->addWidget(label(tr("Hang &timeout"), m_hangTimeout));
    where->addWidget(m_hangTimeout);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addLayout(target);
    layout->addLayout(launch);
    layout->addLayout(options);
    layout->addLayout(compile);
    layout->addLayout(where);
    m_followLabel = new QLabel(this);
    m_followLabel->setObjectName(QStringLiteral("profileFollowNote"));
    m_followLabel->setTextFormat(Qt::PlainText); // kernel names and paths come from the session
    m_followLabel->setWordWrap(true);
    m_followLabel->setStyleSheet(QStringLiteral("QLabel { color: palette(placeholder-text); }"));
    m_followLabel->hide();
    layout->addWidget(m_followLabel);
    m_fieldErrors = new QLabel(this);
    m_fieldErrors->setObjectName(QStringLiteral("profileFieldErrors"));
    m_fieldErrors->setTextFormat(Qt::PlainText); // the messages quote what was typed
    m_fieldErrors->setWordWrap(true);
    m_fieldErrors->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_fieldErrors->hide();
    layout->insertWidget(layout->indexOf(m_followLabel), m_fieldErrors);

    connect(m_kind, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_targetStack->setCurrentIndex(index);
        updatePlaceholders();
    });
    connect(m_kernel, &QComboBox::currentIndexChanged, this, &ProfileForm::updatePlaceholders);
    for (QComboBox* combo : {m_kind, m_kernel, m_ladder})
        connect(combo, &QComboBox::currentIndexChanged, this, &ProfileForm::targetPicked);
    connect(m_hangTimeout, &viz::ValidatedField::valueEdited, this, [this](qint64 seconds) {
        m_lastValidHangTimeout = static_cast<int>(seconds);
        emit hangTimeoutChanged(m_lastValidHangTimeout);
    });
    connect(m_file, &QLineEdit::textChanged, this, &ProfileForm::updateCompute);
    for (viz::ValidatedField* field : {m_runs, m_device, m_compute, m_hangTimeout}) {
        // Each check, so one bad value typed over another shows its own message.
        connect(field, &viz::ValidatedField::textChecked, this, &ProfileForm::showFieldErrors);
    }
    for (QLineEdit* field : {m_file, m_entry, m_grid, m_block, m_smem, m_args, m_remote, m_runs->lineEdit(),
                             m_device->lineEdit(), m_compute->lineEdit(), m_hangTimeout->lineEdit()})
        connect(field, &QLineEdit::returnPressed, this, &ProfileForm::profileRequested);
    updatePlaceholders();
}

QString ProfileForm::fieldErrors() const
{
    QStringList errors;
    for (const viz::ValidatedField* field : {m_runs, m_device, m_compute, m_hangTimeout})
        if (!field->errorText().isEmpty() && (field != m_compute || computeApplies())) // Compute only counts for a .cu file
            errors << field->errorText();
    return errors.join(QLatin1Char('\n'));
}

void ProfileForm::showFieldErrors()
{
    const QString errors = fieldErrors();
    // The same colour as the fields' marks, in either palette.
    const QColor color = palette().color(QPalette::Window).lightness() < 128 ? QColor(0xff, 0x6b, 0x6b) : QColor(0xc6, 0x28, 0x28);
    m_fieldErrors->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(color.name()));
    m_fieldErrors->setText(errors.isEmpty() ? QString() : errors + QLatin1Char('\n') + tr("Profile waits until the marked fields are valid."));
    m_fieldErrors->setVisible(!errors.isEmpty());
    emit fieldErrorsChanged();
}

void ProfileForm::updatePlaceholders()
{
    const auto kind = static_cast<ProbeTargetKind>(m_kind->currentIndex());
    const bool ladder = kind == ProbeTargetKind::Ladder;
    for (QLineEdit* field : {m_grid, m_block, m_smem})
        field->setEnabled(!ladder);
    if (kind == ProbeTargetKind::DemoKernel) {
        const kernels::DemoKernel* kernel = kernels::findDemoKernel(m_kernel->currentData().toString().toStdString());
        m_grid->setPlaceholderText(kernel ? fromStd(kernel->grid) : QString());
        m_block->setPlaceholderText(kernel ? fromStd(kernel->block) : QString());
        m_smem->setPlaceholderText(kernel && !kernel->smem.empty() ? fromStd(kernel->smem) : QStringLiteral("0"));
        QStringList args;
        if (kernel)
            for (const std::string& arg : kernel->args)
                args << fromStd(arg);
        m_args->setPlaceholderText(args.join(QLatin1Char(' ')));
    } else if (ladder) {
        for (QLineEdit* field : {m_grid, m_block, m_smem})
            field->setPlaceholderText(tr("each rung's"));
        m_args->setPlaceholderText(tr("each rung's (overrides apply to every rung)"));
    } else {
        m_grid->setPlaceholderText(tr("X[,Y[,Z]]"));
        m_block->setPlaceholderText(tr("X[,Y[,Z]]"));
        m_smem->setPlaceholderText(QStringLiteral("0"));
        m_args->setPlaceholderText(tr("name=type[len]:init ..."));
    }
    updateCompute();
}

bool ProfileForm::computeApplies() const
{
    // The command line's rule (kernels::requireComputeOption): the file's name ends in .cu.
    return static_cast<ProbeTargetKind>(m_kind->currentIndex()) == ProbeTargetKind::File &&
           m_file->text().trimmed().endsWith(QLatin1String(".cu"));
}

void ProfileForm::updateCompute()
{
    const bool applies = computeApplies();
    if (m_compute->isEnabledTo(this) == applies)
        return;
    // Kept as typed while it does not apply, and neither sent nor counted as marked.
    m_compute->setEnabled(applies);
    m_computeChoices->setEnabled(applies);
    if (m_fieldErrors != nullptr)
        showFieldErrors();
}

ProbeRequest ProfileForm::request() const
{
    ProbeRequest request;
    request.kind = static_cast<ProbeTargetKind>(m_kind->currentIndex());
    switch (request.kind) {
    case ProbeTargetKind::DemoKernel: request.target = m_kernel->currentData().toString(); break;
    case ProbeTargetKind::Ladder: request.target = m_ladder->currentData().toString(); break;
    case ProbeTargetKind::File: request.target = m_file->text().trimmed(); break;
    }
    request.entry = m_entry->text().trimmed();
    request.grid = m_grid->text().trimmed();
    request.block = m_block->text().trimmed();
    request.smem = m_smem->text().trimmed();
    static const QRegularExpression separators(QStringLiteral("[;\\s]+"));
    request.args = m_args->text().split(separators, Qt::SkipEmptyParts);
    request.metrics = m_metrics->currentText().trimmed();
    // A marked field has no value: the request then holds the default, and Profile waits (fieldErrors).
    request.runs = static_cast<int>(m_runs->value().value_or(0));
    request.device = static_cast<int>(m_device->value().value_or(0));
    if (computeApplies() && m_compute->valid())
        request.compute = m_compute->text().trimmed();
    request.remote = m_remote->text().trimmed();
    return request;
}

void ProfileForm::setRequest(const ProbeRequest& request)
{
    m_kind->setCurrentIndex(static_cast<int>(request.kind));
    switch (request.kind) {
    case ProbeTargetKind::DemoKernel: m_kernel->setCurrentIndex(std::max(0, m_kernel->findData(request.target))); break;
    case ProbeTargetKind::Ladder: m_ladder->setCurrentIndex(std::max(0, m_ladder->findData(request.target))); break;
    case ProbeTargetKind::File: m_file->setText(request.target); break;
    }
    m_entry->setText(request.entry);
    m_grid->setText(request.grid);
    m_block->setText(request.block);
    m_smem->setText(request.smem);
    m_args->setText(request.args.join(QLatin1Char(' ')));
    m_metrics->setCurrentText(request.metrics);
    m_runs->setValue(request.runs);
    m_device->setValue(request.device);
    m_compute->setText(request.compute);
    m_remote->setText(request.remote);
    updatePlaceholders();
    showFieldErrors();
}

void ProfileForm::targetPicked()
{
    if (m_following || !m_followed)
        return;
    // The launch came from the open session's kernel: it does not belong to the one picked now.
    m_followed = false;
    for (QLineEdit* field : {m_entry, m_grid, m_block, m_smem, m_args})
        field->clear();
    m_followLabel->hide();
}

void ProfileForm::followSession(const session::Session& session, const QString& kernel)
{
    if (session.kernels.empty())
        return;
    const QScopedValueRollback following(m_following, true);
    const session::KernelRecord* record = kernel.isEmpty() ? &session.kernels.front() : session.findKernel(kernel.toStdString());
    if (record == nullptr)
        return;
    // A ladder: every kernel a rung of the same one, and the whole session was asked for (no kernel picked).
    const std::string ladder = session.kernels.front().ladder;
    const bool wholeLadder = kernel.isEmpty() && session.kernels.size() > 1 && !ladder.empty() && m_ladder->findData(fromStd(ladder)) >= 0 &&
                             std::all_of(session.kernels.begin(), session.kernels.end(),
                                         [&](const session::KernelRecord& k) { return k.ladder == ladder; });
    QString note;
    if (wholeLadder) {
        for (QLineEdit* field : {m_file, m_entry, m_grid, m_block, m_smem, m_args})
            field->clear();
        m_compute->setText(QString()); // demo kernels are the build's PTX: there is no architecture to choose
        m_kind->setCurrentIndex(static_cast<int>(ProbeTargetKind::Ladder));
        m_ladder->setCurrentIndex(m_ladder->findData(fromStd(ladder)));
        // The argument specs every rung ran with apply to every rung again.
        std::vector<std::string> shared = session.kernels.front().args;
        for (const session::KernelRecord& rung : session.kernels)
            std::erase_if(shared, [&](const std::string& arg) { return std::find(rung.args.begin(), rung.args.end(), arg) == rung.args.end(); });
        QStringList args;
        for (const std::string& arg : shared)
            args << fromStd(arg);
        m_args->setText(args.join(QLatin1Char(' ')));
        note = tr("Following the open session: the %1 ladder, %2 %3")
                   .arg(fromStd(ladder))
                   .arg(session.kernels.size())
                   .arg(session.kernels.size() == 1 ? tr("rung") : tr("rungs"));
        if (!args.isEmpty())
            note += tr(", with %1").arg(args.join(QLatin1Char(' ')));
    } else {
        const bool demo = kernels::findDemoKernel(record->id) != nullptr && m_kernel->findData(fromStd(record->id)) >= 0;
        const bool file = !demo && QFileInfo(fromStd(record->sourceName)).isFile();
        if (demo || file)
            for (QLineEdit* field : {m_file, m_entry, m_grid, m_block, m_smem, m_args})
                field->clear();
        if (demo) {
            m_kind->setCurrentIndex(static_cast<int>(ProbeTargetKind::DemoKernel));
            m_kernel->setCurrentIndex(m_kernel->findData(fromStd(record->id)));
            m_compute->setText(QString()); // its record's compute is the build's PTX, not a choice
        } else if (file) {
            m_kind->setCurrentIndex(static_cast<int>(ProbeTargetKind::File));
            m_file->setText(fromStd(record->sourceName));
            m_entry->setText(fromStd(record->entry));
            // What NVRTC compiled it for: a .cu file's record names it (empty in older sessions, which
            // used the default, and for .ptx files). One this NVRTC does not know is marked, not dropped.
            m_compute->setText(fromStd(record->compute));
        } else {
            // Not a demo, and its source is not on this machine (or was never recorded): the form cannot
            // run it again, so it keeps its own choice (without a launch an earlier session filled in) and says why.
            if (m_followed)
                for (QLineEdit* field : {m_entry, m_grid, m_block, m_smem, m_args})
                    field->clear();
            m_followed = false;
            m_followLabel->setText(tr("The open session measured %1%2, which is not a demo kernel and whose source is "
                                      "not on this machine: Profile runs the kernel chosen above.")
                                       .arg(fromStd(record->id),
                                            record->sourceName.empty() ? QString() : tr(" (from %1)").arg(fromStd(record->sourceName))));
            m_followLabel->show();
            return;
        }
        // The launch it was measured with, so Profile measures the same again.
        m_grid->setText(fromStd(launch::formatDim3({record->grid[0], record->grid[1], record->grid[2]})));
        m_block->setText(fromStd(launch::formatDim3({record->block[0], record->block[1], record->block[2]})));
        if (record->dynamicSharedBytes > 0)
            m_smem->setText(QString::number(record->dynamicSharedBytes));
        QStringList args;
        for (const std::string& arg : record->args)
            args << fromStd(arg);
        m_args->setText(args.join(QLatin1Char(' ')));
        const QString size = record->launchSize == "gpu"   ? tr(", the demo's GPU size")
                             : record->launchSize == "sim" ? tr(", the demo's simulator size")
                                                           : QString();
        const QString compiled = file && !record->compute.empty() ? tr(", compiled for %1").arg(fromStd(record->compute)) : QString();
        note = tr("Following the open session: %1, grid %2 × block %3%4%5")
                   .arg(fromStd(record->id), m_grid->text(), m_block->text(), size, compiled);
    }
    m_followed = true;
    m_followLabel->setText(note);
    m_followLabel->show();
    updatePlaceholders();
    showFieldErrors();
}

QString ProfileForm::followNote() const { return m_followLabel->isHidden() ? QString() : m_followLabel->text(); }

int ProfileForm::hangTimeoutSeconds() const
{
    return static_cast<int>(m_hangTimeout->value().value_or(m_lastValidHangTimeout));
}

void ProfileForm::setHangTimeoutSeconds(int seconds)
{
    // Shown as given and checked: a value outside 1..86,400 s is marked, never clamped.
    m_hangTimeout->setValue(seconds);
    if (const std::optional<std::int64_t> value = m_hangTimeout->value())
        m_lastValidHangTimeout = static_cast<int>(*value);
    showFieldErrors();
}

} // namespace warpscope::app
