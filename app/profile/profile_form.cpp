#include "profile/profile_form.h"

#include "demo_kernels.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <map>

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
    m_runs = new QSpinBox(this);
    m_runs->setRange(0, 1000);
    m_runs->setSpecialValueText(tr("default"));
    m_runs->setToolTip(tr("Timed runs for the Activity durations (the median is shown); default: the probe's"));
    m_device = new QSpinBox(this);
    m_device->setRange(0, 63);
    m_device->setToolTip(tr("CUDA device ordinal"));

    m_grid = makeField(this, 50, tr("gridDim override: X[,Y[,Z]], numbers or the manifest's expressions"));
    m_block = makeField(this, 50, tr("blockDim override: X[,Y[,Z]]"));
    m_smem = makeField(this, 45, tr("Dynamic shared memory override in bytes"));
    m_args = makeField(this, 80, tr("Argument overrides, separated by spaces or ';', each replacing the manifest's "
                                     "argument of that name: n=i32:1048576  a=f32[n]:random(1)"));
    m_hangTimeout = new QSpinBox(this);
    m_hangTimeout->setRange(1, 24 * 3600);
    m_hangTimeout->setSuffix(tr(" s"));
    m_hangTimeout->setValue(180);
    m_hangTimeout->setToolTip(tr("A probe that writes nothing for this long is considered hung and is stopped"));
    m_remote = makeField(this, 90, tr("[USER@]HOST: run warpscope-probe on that machine through ssh (keys or an agent, "
                                      "no password prompt) and read its session as it arrives; the probe must be on the "
                                      "PATH there. A kernel file is then a path on that machine. Empty: this machine."));
    m_remote->setPlaceholderText(tr("this machine"));

    // Four short rows rather than one long one: the dock can be narrow.
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
    layout->addLayout(where);

    connect(m_kind, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_targetStack->setCurrentIndex(index);
        updatePlaceholders();
    });
    connect(m_kernel, &QComboBox::currentIndexChanged, this, &ProfileForm::updatePlaceholders);
    connect(m_hangTimeout, &QSpinBox::valueChanged, this, &ProfileForm::hangTimeoutChanged);
    for (QLineEdit* field : {m_file, m_entry, m_grid, m_block, m_smem, m_args, m_remote})
        connect(field, &QLineEdit::returnPressed, this, &ProfileForm::profileRequested);
    updatePlaceholders();
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
    request.runs = m_runs->value();
    request.device = m_device->value();
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
    m_remote->setText(request.remote);
    updatePlaceholders();
}

int ProfileForm::hangTimeoutSeconds() const { return m_hangTimeout->value(); }

void ProfileForm::setHangTimeoutSeconds(int seconds) { m_hangTimeout->setValue(seconds); }

} // namespace warpscope::app
