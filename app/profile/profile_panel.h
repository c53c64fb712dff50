// The Profile panel: the form, Profile and Cancel, a progress bar fed by the probe's progress
// records, the outcome of the last run (with the tail of the probe's stderr when it failed), what
// the shown session itself reports (counters not permitted, errors, reading problems), and the
// profile views. It holds the shown session as the bytes it came from (saving writes them back)
// and an optional baseline to compare with.
#pragma once

#include "profile/probe_request.h"
#include "profile/probe_runner.h"
#include "profile/recorded_sessions.h"
#include "session/session.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <optional>

class QLabel;
class QProgressBar;
class QPushButton;
class QTimer;

namespace warpscope::viz {
class ProfileViews;
}

namespace warpscope::app {

class ProfileForm;
struct LoadedSession;

class ProfilePanel : public QWidget {
    Q_OBJECT
public:
    explicit ProfilePanel(QWidget* parent = nullptr);
    ~ProfilePanel() override;

    // Starts the probe for the form's request (or `request`). False, with the reason shown, when it
    // cannot start: a run is in progress, the request is invalid, or the probe is missing.
    bool startProfile();
    bool startProfile(const ProbeRequest& request);
    void cancelProfile();
    bool isProfiling() const;
    void setHangTimeout(int milliseconds);
    int hangTimeout() const;
    void setTerminateGrace(int milliseconds);
    const std::optional<ProbeResult>& lastResult() const { return m_lastResult; }

    // Shows a .wsprof file. A damaged file shows what could be read and the reader's problems;
    // false when nothing could be read (the previous session stays).
    bool openSessionFile(const QString& path);
    bool openRecordedSession(int index);
    // Reads Nsight Compute's CSV (ncu --csv --metrics ..., or ncu --import X.ncu-rep --csv --page raw)
    // and shows it like an opened session, titled as imported from ncu; saving writes the session.
    // False, with the file and line in the banner, for a malformed file (the previous session stays).
    bool importNcuCsv(const QString& path);
    // Writes the shown session's stream, byte for byte. The error, or nullopt.
    std::optional<QString> saveSessionAs(const QString& path);
    bool hasSession() const { return m_shown.has_value(); }
    const session::Session& session() const;
    QStringList problems() const { return m_shown ? m_shown->problems : QStringList(); }
    const QList<RecordedSession>& recordedSessions() const { return m_recorded; }

    // The shown session becomes the baseline every view compares with.
    bool setCurrentAsBaseline();
    bool openBaselineFile(const QString& path);
    void clearBaseline();
    bool hasBaseline() const;

    viz::ProfileViews* views() const { return m_views; }
    ProfileForm* form() const { return m_form; }
    QProgressBar* progressBar() const { return m_progress; }
    QPushButton* profileButton() const { return m_profileButton; }
    QPushButton* cancelButton() const { return m_cancelButton; }
    QString bannerText() const;  // the last run's outcome, as plain text, with its details ("" when none)
    QString visibleBannerText() const; // what the banner shows now: its details only once opened
    bool bannerDetailsShown() const;
    void setBannerDetailsShown(bool shown); // the "Details" disclosure under the banner
    // What the banner says when the probe finds no NVIDIA driver or GPU (on `host`, or here when empty).
    static QString noGpuSentence(const QString& host);
    QString noticeText() const;  // what the shown session reports, as plain text
    QString titleText() const;

signals:
    void stateChanged();                        // profiling started/stopped, session or baseline changed
    void statusMessage(const QString& message); // for the window's status bar

private:
    struct Shown {
        session::Session session;
        QStringList problems;
        QByteArray raw;
        QString source;
    };

    void show(Shown shown);
    void refreshFromRunner();
    void onProbeFinished(const ProbeResult& result);
    void onProgress(int done, int total, const QString& stage, const QString& kernel);
    void resetProgress();
    void showBanner(const QString& html, const QString& severity, const QString& details = {});
    void renderBanner();
    void updateNotice();
    void updateTitle();
    void updateButtons();
    // The recorded sessions as links ("recorded:<index>"); `linkColour` for a coloured banner, empty for the palette's.
    QString recordedSessionsHtml(const QString& linkColour = QStringLiteral("#cfe6ff")) const;
    void handleLink(const QString& link);

    ProfileForm* m_form = nullptr;
    QPushButton* m_profileButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_progressText = nullptr;
    QLabel* m_banner = nullptr;
    QLabel* m_bannerDetails = nullptr; // the raw outcome under "Details", plain text
    QString m_bannerHtml;             // the banner without its Details link
    QLabel* m_notice = nullptr;
    QLabel* m_title = nullptr;
    viz::ProfileViews* m_views = nullptr;
    ProbeRunner* m_runner = nullptr;
    QTimer* m_refreshTimer = nullptr;

    std::optional<Shown> m_shown;
    std::optional<Shown> m_beforeRun;  // restored when a run ends without measuring any kernel
    QString m_runDescription;
    QString m_runHost;                // the run's remote host; empty: this machine
    std::string m_errorInBanner;      // the error record code the run's outcome already quotes
    QString m_baselineLabel;
    std::optional<ProbeResult> m_lastResult;
    QList<RecordedSession> m_recorded;
};

} // namespace warpscope::app
