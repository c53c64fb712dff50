#include "profile/profile_panel.h"

#include "profile/profile_format.h"
#include "profile/profile_metrics_table.h"
#include "profile/profile_views.h"
#include "profile/profile_form.h"
#include "profile/session_file.h"
#include "session/ncu_import.h"
#include "session/session_io.h"
#include "util/input_error.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QTextDocument>
#include <QTimer>
#include <QVBoxLayout>

#include <cstddef>
#include <string_view>

namespace warpscope::app {
namespace {

const char* const kHangTimeoutKey = "profile/hangTimeoutSeconds";

QString bannerStyle(const QString& severity)
{
    if (severity == QLatin1String("error"))
        return QStringLiteral("QLabel { background: #5c1f1f; color: #ffdede; padding: 6px; border-radius: 3px; }");
    if (severity == QLatin1String("warning"))
        return QStringLiteral("QLabel { background: #5c4a12; color: #fff3d6; padding: 6px; border-radius: 3px; }");
    return QStringLiteral("QLabel { background: #1f3d5c; color: #deeeff; padding: 6px; border-radius: 3px; }");
}

QString plain(const QLabel* label)
{
    if (label->isHidden() || label->text().isEmpty())
        return {};
    QTextDocument document;
    document.setHtml(label->text());
    return document.toPlainText();
}

QString escaped(const std::string& text) { return QString::fromStdString(text).toHtmlEscaped(); }

} // namespace

ProfilePanel::ProfilePanel(QWidget* parent) : QWidget(parent)
{
    m_form = new ProfileForm(this);
    m_profileButton = new QPushButton(tr("Profile"), this);
    m_profileButton->setObjectName(QStringLiteral("profileButton"));
    m_profileButton->setToolTip(tr("Run warpscope-probe on the GPU for the chosen kernel (Ctrl+R)"));
    m_profileButton->setDefault(true);
    m_cancelButton = new QPushButton(tr("Cancel"), this);
    m_cancelButton->setObjectName(QStringLiteral("cancelProfileButton"));
    m_cancelButton->setToolTip(tr("Stop the probe: it finishes its current step, then exits; what it measured is kept"));
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("profileProgress"));
    m_progress->setTextVisible(true);
    m_progressText = new QLabel(this);
    m_progressText->setObjectName(QStringLiteral("profileProgressText"));
    m_progressText->setTextFormat(Qt::PlainText); // the stage and kernel come from the probe's stream
    m_progressText->setMinimumWidth(120);

    auto* runRow = new QHBoxLayout;
    runRow->addWidget(m_profileButton);
    runRow->addWidget(m_cancelButton);
    runRow->addWidget(m_progress, 1);
    runRow->addWidget(m_progressText);

    m_banner = new QLabel(this);
    m_banner->setObjectName(QStringLiteral("profileBanner"));
    m_notice = new QLabel(this);
    m_notice->setObjectName(QStringLiteral("profileNotice"));
    // Under the banner, hidden until its "Details" link is followed: the raw outcome (the probe's
    // summary and stderr), so the banner itself can say in one sentence what happened.
    m_bannerDetails = new QLabel(this);
    m_bannerDetails->setObjectName(QStringLiteral("profileBannerDetails"));
    m_bannerDetails->setTextFormat(Qt::PlainText);
    m_bannerDetails->setWordWrap(true);
    m_bannerDetails->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_bannerDetails->setStyleSheet(QStringLiteral("QLabel { font-family: monospace; padding: 4px 6px; }"));
    m_bannerDetails->hide();
    for (QLabel* label : {m_banner, m_notice}) {
        label->setWordWrap(true);
        label->setTextFormat(Qt::RichText);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
        label->hide();
        connect(label, &QLabel::linkActivated, this, &ProfilePanel::handleLink);
    }
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("profileTitle"));
    m_title->setWordWrap(true);
    m_title->setTextFormat(Qt::RichText);
    // With no session it lists the recorded sessions as links.
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    connect(m_title, &QLabel::linkActivated, this, &ProfilePanel::handleLink);
    m_views = new viz::ProfileViews(this);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(5);
    layout->addWidget(m_form);
    layout->addLayout(runRow);
    layout->addWidget(m_banner);
    layout->addWidget(m_bannerDetails);
    layout->addWidget(m_notice);
    layout->addWidget(m_title);
    layout->addWidget(m_views, 1);

    m_runner = new ProbeRunner(this);
    m_refreshTimer = new QTimer(this);
    m_refreshTimer->setSingleShot(true);
    m_refreshTimer->setInterval(120); // a burst of records redraws the views once
    connect(m_refreshTimer, &QTimer::timeout, this, &ProfilePanel::refreshFromRunner);
    connect(m_runner, &ProbeRunner::recordsArrived, m_refreshTimer, qOverload<>(&QTimer::start));
    connect(m_runner, &ProbeRunner::progressChanged, this, &ProfilePanel::onProgress);
    connect(m_runner, &ProbeRunner::finished, this, &ProfilePanel::onProbeFinished);
    connect(m_profileButton, &QPushButton::clicked, this, [this] { startProfile(); });
    // The form follows the open session, and the kernel picked in its metrics table.
    connect(m_views->metricsTable(), &viz::ProfileMetricsTable::kernelSelected, this, [this](const QString& kernel) {
        if (m_shown && !m_runner->isRunning())
            m_form->followSession(m_shown->session, kernel);
    });
    connect(m_form, &ProfileForm::profileRequested, this, [this] { startProfile(); });
    connect(m_form, &ProfileForm::fieldErrorsChanged, this, &ProfilePanel::updateButtons);
    connect(m_cancelButton, &QPushButton::clicked, this, &ProfilePanel::cancelProfile);

    const int seconds = QSettings().value(QLatin1String(kHangTimeoutKey), ProbeRunner::kDefaultHangTimeoutMs / 1000).toInt();
    m_form->setHangTimeoutSeconds(std::max(1, seconds));
    m_runner->setHangTimeout(m_form->hangTimeoutSeconds() * 1000);
    connect(m_form, &ProfileForm::hangTimeoutChanged, this, [this](int value) {
        m_runner->setHangTimeout(value * 1000);
        QSettings().setValue(QLatin1String(kHangTimeoutKey), value);
    });

    m_recorded = listRecordedSessions();
    resetProgress();
    updateButtons();
    updateTitle();
}

ProfilePanel::~ProfilePanel() = default;

const session::Session& ProfilePanel::session() const
{
    static const session::Session empty;
    return m_shown ? m_shown->session : empty;
}

bool ProfilePanel::isProfiling() const { return m_runner->isRunning(); }

void ProfilePanel::setHangTimeout(int milliseconds) { m_runner->setHangTimeout(milliseconds); }

int ProfilePanel::hangTimeout() const { return m_runner->hangTimeout(); }

void ProfilePanel::setTerminateGrace(int milliseconds) { m_runner->setTerminateGrace(milliseconds); }

bool ProfilePanel::startProfile()
{
    // Ctrl+R and Return reach here with the button disabled: the marked fields say what to fix.
    if (const QString errors = m_form->fieldErrors(); !errors.isEmpty() && !m_runner->isRunning()) {
        emit statusMessage(tr("Not profiled while a field is marked: %1").arg(errors.split(QLatin1Char('\n')).join(QStringLiteral("; "))));
        return false;
    }
    return startProfile(m_form->request());
}

bool ProfilePanel::startProfile(const ProbeRequest& request)
{
    if (m_runner->isRunning()) {
        emit statusMessage(tr("A profile is already running; cancel it first."));
        return false;
    }
    if (const auto problem = validateProbeRequest(request)) {
        showBanner(problem->toHtmlEscaped(), QStringLiteral("error"));
        return false;
    }
    const ProbeLocation probe = findProbe();
    if (request.remote.isEmpty() && !probe.executable) {
        showBanner(QStringLiteral("<b>%1</b><br>%2").arg(tr("Cannot profile"), probeMissingMessage(probe).toHtmlEscaped()) +
                       QStringLiteral("<br>") + recordedSessionsHtml(),
                   QStringLiteral("error"));
        return false;
    }
    m_beforeRun = m_shown;
    m_errorInBanner.clear();
    m_runDescription = describeProbeRequest(request);
    m_runHost = request.remote;
    m_lastResult.reset();
    const ProbeCommand command = probeCommand(request, probe.path);
    m_runner->setRemoteHost(request.remote);
    m_runner->start(command.program, command.arguments);
    m_progress->setRange(0, 0); // busy until the first progress record says how many steps there are
    m_progressText->setText(tr("Starting warpscope-probe\u2026"));
    const QString where = request.remote.isEmpty() ? probe.path : tr("warpscope-probe on %1 (through ssh)").arg(request.remote);
    showBanner(tr("Profiling %1 with %2\u2026").arg(m_runDescription.toHtmlEscaped(), where.toHtmlEscaped()),
               QStringLiteral("info"));
    emit statusMessage(tr("Profiling %1").arg(m_runDescription));
    updateButtons();
    emit stateChanged();
    return true;
}

void ProfilePanel::cancelProfile()
{
    if (!m_runner->isRunning())
        return;
    m_runner->cancel();
    m_progressText->setText(tr("Stopping after the current step\u2026"));
    m_cancelButton->setEnabled(false);
}

void ProfilePanel::onProgress(int done, int total, const QString& stage, const QString& kernel)
{
    if (total > 0) {
        m_progress->setRange(0, total);
        m_progress->setValue(std::clamp(done, 0, total));
        m_progress->setFormat(tr("%v of %m steps"));
    }
    m_progressText->setText(kernel.isEmpty() ? stage : tr("%1: %2").arg(stage, kernel));
}

void ProfilePanel::resetProgress()
{
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(tr("idle"));
    m_progressText->setText(QString());
}

void ProfilePanel::refreshFromRunner()
{
    const session::SessionStreamReader& reader = m_runner->reader();
    Shown shown;
    shown.session = reader.session();
    for (const std::string& problem : reader.problems())
        shown.problems << QString::fromStdString(problem);
    shown.raw = m_runner->rawStream();
    shown.source = tr("live run of %1 (%2)").arg(m_runDescription, QDateTime::currentDateTime().toString(QStringLiteral("HH:mm")));
    show(std::move(shown));
}

void ProfilePanel::onProbeFinished(const ProbeResult& result)
{
    m_refreshTimer->stop();
    // The error the outcome already quotes is not repeated in the notice below it.
    if ((result.outcome == ProbeOutcome::NoGpu || result.outcome == ProbeOutcome::KernelFailed) &&
        !m_runner->reader().session().errors.empty())
        m_errorInBanner = m_runner->reader().session().errors.back().code;
    refreshFromRunner();
    m_lastResult = result;
    resetProgress();

    const bool nothingMeasured = m_shown && m_shown->session.kernels.empty();
    QString html = QStringLiteral("<b>%1</b>").arg(result.summary.toHtmlEscaped());
    if (nothingMeasured && result.outcome != ProbeOutcome::Succeeded) {
        // A run that measured nothing leaves the session that was shown before it; one that did not
        // even write a header leaves nothing to show.
        if (m_beforeRun) {
            show(*m_beforeRun);
            html += tr(" The session shown before this run is still shown.");
        } else if (!m_runner->reader().headerSeen()) {
            m_shown.reset();
            m_views->setSession(session::Session{}, {}, tr("none"));
            updateNotice();
            updateTitle();
        }
    }
    m_beforeRun.reset();
    const bool failed = result.outcome != ProbeOutcome::Succeeded && result.outcome != ProbeOutcome::Cancelled;
    if (result.outcome == ProbeOutcome::NoGpu) {
        // One sentence a learner can act on; the probe's own words (the driver's error, twice: its error
        // record and its stderr) wait under Details.
        const QString sentence = noGpuSentence(m_runHost);
        QString details = result.summary;
        if (!result.stderrTail.isEmpty())
            details += QLatin1Char('\n') + tr("The probe's last words on stderr:") + QLatin1Char('\n') + result.stderrTail;
        html.replace(0, html.indexOf(QStringLiteral("</b>")) + 4, QStringLiteral("<b>%1</b>").arg(sentence.toHtmlEscaped()));
        html += QStringLiteral("<br>") + recordedSessionsHtml();
        showBanner(html, QStringLiteral("warning"), details);
        emit statusMessage(sentence);
        updateButtons();
        emit stateChanged();
        return;
    }
    if (failed && !result.stderrTail.isEmpty())
        html += tr("<br>The probe's last words on stderr:<br>") +
                QStringLiteral("<span style='font-family:monospace'>%1</span>")
                    .arg(result.stderrTail.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")));
    showBanner(html, failed ? QStringLiteral("error") : QStringLiteral("info"));
    emit statusMessage(result.summary);
    updateButtons();
    emit stateChanged();
}

void ProfilePanel::show(Shown shown)
{
    m_shown = std::move(shown);
    m_views->setSession(m_shown->session, m_shown->problems, m_shown->source);
    updateNotice();
    updateTitle();
    updateButtons();
}

bool ProfilePanel::openSessionFile(const QString& path)
{
    if (m_runner->isRunning()) {
        // The running probe's records would replace it at once: finish or cancel the run first.
        emit statusMessage(tr("A profile is running: cancel it (Ctrl+.) or wait for it before opening %1").arg(path));
        return false;
    }
    m_errorInBanner.clear();
    LoadedSession loaded = loadSessionFile(path);
    if (!loaded.headerSeen) {
        QStringList problems;
        for (const QString& problem : loaded.problems)
            problems << problem.toHtmlEscaped();
        showBanner(QStringLiteral("<b>%1</b><br>%2")
                       .arg(tr("%1 could not be opened as a session").arg(QFileInfo(path).fileName().toHtmlEscaped()),
                            problems.join(QStringLiteral("<br>"))),
                   QStringLiteral("error"));
        return false;
    }
    show({std::move(loaded.session), loaded.problems, loaded.raw, QFileInfo(path).absoluteFilePath()});
    m_form->followSession(m_shown->session); // Profile runs what the session measured, not the form's old pick
    showBanner({}, {}); // the notice lists what the reader found wrong
    emit statusMessage(tr("Opened %1").arg(path));
    emit stateChanged();
    return true;
}

bool ProfilePanel::openRecordedSession(int index)
{
    if (index < 0 || index >= m_recorded.size())
        return false;
    const RecordedSession& recorded = m_recorded.at(index);
    if (!openSessionFile(recorded.path))
        return false;
    m_shown->source = tr("recorded session: %1").arg(recorded.label);
    m_views->setSession(m_shown->session, m_shown->problems, m_shown->source);
    updateTitle();
    return true;
}

bool ProfilePanel::importNcuCsv(const QString& path)
{
    if (m_runner->isRunning()) {
        emit statusMessage(tr("A profile is running: cancel it (Ctrl+.) or wait for it before importing %1").arg(path));
        return false;
    }
    m_errorInBanner.clear();
    const QString name = QFileInfo(path).fileName();
    auto refuse = [&](const QString& reason) {
        showBanner(QStringLiteral("<b>%1</b><br>%2")
                       .arg(tr("%1 could not be imported as Nsight Compute CSV").arg(name.toHtmlEscaped()), reason.toHtmlEscaped()),
                   QStringLiteral("error"));
        emit statusMessage(tr("Could not import %1").arg(path));
        return false;
    };
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return refuse(QStringLiteral("%1: cannot open (%2)").arg(path, file.errorString()));
    if (file.size() > (qint64{1} << 30)) // as the command line: an ncu CSV import reads at most 1 GiB
        return refuse(QStringLiteral("%1: %2 bytes is more than the 1 GiB an ncu CSV import reads").arg(path, QString::number(file.size())));
    const QByteArray bytes = file.readAll();
    session::NcuImport imported;
    try {
        imported = session::importNcuCsv(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
                                         path.toStdString());
    } catch (const InputError& error) {
        return refuse(QString::fromStdString(error.what()));
    }
    const std::size_t launches = imported.session.kernels.size();
    QByteArray raw = QByteArray::fromStdString(session::formatSession(imported.session));
    show({std::move(imported.session), {}, std::move(raw),
          tr("imported from Nsight Compute (ncu): %1").arg(QFileInfo(path).absoluteFilePath())});
    showBanner(tr("Imported %n launch(es) from %1 (ncu's %2 layout): %3 metric(s) in Warpscope's catalog, with their "
                  "explanations; %4 shown by their ncu name. Save it as a session with File > Save Session As.",
                  nullptr, static_cast<int>(launches))
                   .arg(name.toHtmlEscaped(), // one arg() call: a file name holding "%3" is not filled in
                        QString::fromUtf8(imported.layout == session::NcuCsvLayout::Details ? "details" : "raw page"),
                        QString::number(imported.knownMetrics.size()), QString::number(imported.unknownMetrics.size())),
               QStringLiteral("info"));
    emit statusMessage(tr("Imported %1").arg(path));
    emit stateChanged();
    return true;
}

std::optional<QString> ProfilePanel::saveSessionAs(const QString& path)
{
    if (!m_shown)
        return tr("There is no session to save.");
    if (auto error = saveSessionBytes(path, m_shown->raw))
        return error;
    emit statusMessage(tr("Saved %1").arg(path));
    return std::nullopt;
}

bool ProfilePanel::setCurrentAsBaseline()
{
    if (!m_shown)
        return false;
    m_baselineLabel = m_shown->source;
    m_views->setBaseline(m_shown->session);
    updateTitle();
    emit stateChanged();
    return true;
}

bool ProfilePanel::openBaselineFile(const QString& path)
{
    LoadedSession loaded = loadSessionFile(path);
    if (!loaded.headerSeen) {
        showBanner(QStringLiteral("<b>%1</b><br>%2")
                       .arg(tr("%1 could not be opened as a baseline").arg(QFileInfo(path).fileName().toHtmlEscaped()),
                            loaded.problems.join(QLatin1Char('\n')).toHtmlEscaped()),
                   QStringLiteral("error"));
        return false;
    }
    m_baselineLabel = QFileInfo(path).absoluteFilePath();
    m_views->setBaseline(std::move(loaded.session));
    if (!loaded.problems.isEmpty())
        showBanner(tr("The baseline %1 was read with %2 problem(s): %3")
                       .arg(QFileInfo(path).fileName().toHtmlEscaped(), QString::number(loaded.problems.size()),
                            loaded.problems.join(QStringLiteral("; ")).toHtmlEscaped()),
                   QStringLiteral("warning"));
    updateTitle();
    emit stateChanged();
    return true;
}

void ProfilePanel::clearBaseline()
{
    m_baselineLabel.clear();
    m_views->setBaseline(std::nullopt);
    updateTitle();
    emit stateChanged();
}

bool ProfilePanel::hasBaseline() const { return m_views->baseline().has_value(); }

void ProfilePanel::showBanner(const QString& html, const QString& severity, const QString& details)
{
    m_bannerHtml = html;
    m_bannerDetails->setText(details);
    m_bannerDetails->hide();
    if (html.isEmpty()) {
        m_banner->clear();
        m_banner->hide();
        return;
    }
    m_banner->setStyleSheet(bannerStyle(severity));
    renderBanner();
    m_banner->show();
}

void ProfilePanel::renderBanner()
{
    QString html = m_bannerHtml;
    if (!m_bannerDetails->text().isEmpty())
        html += QStringLiteral("<br><a style='color:#cfe6ff' href=\"details:toggle\">%1</a>")
                    .arg(m_bannerDetails->isVisibleTo(this) ? tr("Details \u25be") : tr("Details \u25b8"));
    m_banner->setText(html);
}

void ProfilePanel::setBannerDetailsShown(bool shown)
{
    if (m_bannerDetails->text().isEmpty())
        return;
    m_bannerDetails->setVisible(shown);
    renderBanner();
}

bool ProfilePanel::bannerDetailsShown() const { return m_bannerDetails->isVisibleTo(this); }

QString ProfilePanel::visibleBannerText() const
{
    QString text = plain(m_banner);
    if (bannerDetailsShown())
        text += QLatin1Char('\n') + m_bannerDetails->text();
    return text;
}

QString ProfilePanel::noGpuSentence(const QString& host)
{
    return host.isEmpty() ? tr("This machine has no NVIDIA driver or GPU, so kernels cannot be profiled here; sessions "
                               "recorded on real GPUs are under File > Open Recorded Session.")
                          : tr("%1 has no NVIDIA driver or GPU, so kernels cannot be profiled there; sessions recorded on "
                               "real GPUs are under File > Open Recorded Session.")
                                .arg(host);
}

void ProfilePanel::updateNotice()
{
    QStringList lines;
    QString severity = QStringLiteral("warning");
    const session::Session& s = session();
    // Counters not permitted: the one thing the user can fix on their machine, so it comes first.
    const session::ErrorRecord* counters = viz::profile::findError(s, "counters_not_permitted");
    if (counters != nullptr)
        lines << tr("<b>GPU performance counters are not permitted</b>: only CUPTI Activity timings were taken. %1")
                     .arg(escaped(counters->message));
    else if (!s.devices.empty() && !s.devices.front().countersAllowed)
        lines << tr("<b>GPU performance counters are not permitted</b>: only CUPTI Activity timings were taken. %1")
                     .arg(escaped(s.devices.front().countersMessage));
    for (const session::ErrorRecord& error : s.errors) {
        if (&error == counters || (!m_errorInBanner.empty() && error.code == m_errorInBanner))
            continue;
        if (error.fatal)
            severity = QStringLiteral("error");
        lines << QStringLiteral("<b>%1%2</b>%3: %4")
                     .arg(error.fatal ? tr("Fatal error ") : tr("Error "), escaped(error.code),
                          error.kernel.empty() ? QString() : tr(" in %1").arg(escaped(error.kernel)), escaped(error.message));
    }
    for (const session::CheckRecord& check : s.checks)
        if (!check.matches) {
            severity = QStringLiteral("error");
            lines << tr("<b>%1: the GPU's output does not match the %2</b>: %3")
                         .arg(escaped(check.kernel), escaped(check.reference), escaped(check.detail));
        }
    if (m_shown && !m_shown->problems.isEmpty())
        lines << tr("<b>%1 problem(s) reading the session</b>; what could be read is shown. The first: %2 (all of "
                    "them in the Session tab)")
                     .arg(m_shown->problems.size())
                     .arg(m_shown->problems.front().toHtmlEscaped());
    if (lines.isEmpty()) {
        m_notice->clear();
        m_notice->hide();
        return;
    }
    m_notice->setText(lines.join(QStringLiteral("<br>")));
    m_notice->setStyleSheet(bannerStyle(severity));
    m_notice->show();
}

void ProfilePanel::updateTitle()
{
    QString text;
    if (!m_shown) {
        text = tr("No session. Profile a kernel, or open a session: File > Open Session (Ctrl+O), or File > Open "
                  "Recorded Session.") +
               QStringLiteral("<br>") + recordedSessionsHtml(QString());
    } else {
        const session::Session& s = m_shown->session;
        QStringList parts;
        parts << QStringLiteral("<b>%1</b>").arg(m_shown->source.toHtmlEscaped());
        if (!s.devices.empty())
            parts << escaped(s.devices.front().name);
        if (!s.header.createdUtc.empty())
            parts << escaped(s.header.createdUtc);
        parts << tr("%n kernel(s)", nullptr, static_cast<int>(s.kernels.size()));
        text = parts.join(QStringLiteral(" \u00b7 "));
    }
    if (hasBaseline())
        text += QStringLiteral("<br>") + tr("<b>Baseline</b>: %1").arg(m_baselineLabel.toHtmlEscaped());
    m_title->setText(text);
}

void ProfilePanel::updateButtons()
{
    const bool running = m_runner->isRunning();
    const QString errors = m_form->fieldErrors();
    m_profileButton->setEnabled(!running && errors.isEmpty());
    m_profileButton->setToolTip(errors.isEmpty() ? tr("Run warpscope-probe on the GPU for the chosen kernel (Ctrl+R)")
                                                 : tr("Not until the marked fields are valid:\n%1").arg(errors));
    m_cancelButton->setEnabled(running);
    m_form->setEnabled(!running);
}

QString ProfilePanel::recordedSessionsHtml(const QString& linkColour) const
{
    if (m_recorded.isEmpty())
        return noRecordedSessionsText().toHtmlEscaped() + QLatin1Char('.');
    QString html = tr("Sessions recorded on real GPUs open without one:");
    const QString style = linkColour.isEmpty() ? QString() : QStringLiteral(" style='color:%1'").arg(linkColour);
    // Grouped by where they were recorded (the list is sorted by path, so one GPU's files are together).
    QString origin;
    for (int i = 0; i < m_recorded.size(); ++i) {
        const RecordedSession& recorded = m_recorded.at(i);
        if (recorded.origin != origin) {
            origin = recorded.origin;
            html += QStringLiteral("<br><b>%1</b>").arg(origin.toHtmlEscaped());
        }
        html += QStringLiteral("<br>\u2022 <a%1 href=\"recorded:%2\" title=\"%3\">%4</a>")
                    .arg(style)
                    .arg(i)
                    .arg(recorded.label.toHtmlEscaped(), recorded.item.toHtmlEscaped());
    }
    return html;
}

void ProfilePanel::handleLink(const QString& link)
{
    if (link == QLatin1String("details:toggle"))
        setBannerDetailsShown(!bannerDetailsShown());
    else if (link.startsWith(QLatin1String("recorded:")))
        openRecordedSession(link.mid(9).toInt());
}

QString ProfilePanel::bannerText() const
{
    const QString banner = plain(m_banner);
    return m_bannerDetails->text().isEmpty() || banner.isEmpty() ? banner : banner + QLatin1Char('\n') + m_bannerDetails->text();
}

QString ProfilePanel::noticeText() const { return plain(m_notice); }

QString ProfilePanel::titleText() const { return plain(m_title); }

} // namespace warpscope::app
