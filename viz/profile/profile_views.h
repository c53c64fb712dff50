// The profile views as tabs, filled from one session (and an optional baseline): metrics table,
// bandwidth, roofline, predicted vs measured, and the session page (device, ceilings, problems).
#pragma once

#include "session/session.h"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <optional>

class QTabWidget;

namespace warpscope::viz {

class ProfileBandwidthPanel;
class ProfileMetricsTable;
class ProfilePredictionPanel;
class ProfileRooflinePlot;
class ProfileSessionPanel;

class ProfileViews : public QWidget {
    Q_OBJECT
public:
    enum class Tab { Metrics = 0, Bandwidth, Roofline, Prediction, Session };

    explicit ProfileViews(QWidget* parent = nullptr);

    // Shows `session`; `problems` are the reader's, `source` names where it came from.
    void setSession(const session::Session& session, const QStringList& problems, const QString& source);
    // Compares every view with `baseline` (nullopt: no comparison).
    void setBaseline(std::optional<session::Session> baseline);
    const session::Session& session() const { return m_session; }
    const std::optional<session::Session>& baseline() const { return m_baseline; }

    void showTab(Tab tab);
    Tab currentTab() const;
    // "metrics", "bandwidth", "roofline", "prediction", "session"; nullopt for another name.
    static std::optional<Tab> tabFromName(const QString& name);

    ProfileMetricsTable* metricsTable() const { return m_metrics; }
    ProfileBandwidthPanel* bandwidthPanel() const { return m_bandwidth; }
    ProfileRooflinePlot* rooflinePlot() const { return m_roofline; }
    ProfilePredictionPanel* predictionPanel() const { return m_prediction; }
    ProfileSessionPanel* sessionPanel() const { return m_sessionPage; }

private:
    void refresh();

    session::Session m_session;
    QStringList m_problems;
    QString m_source;
    std::optional<session::Session> m_baseline;
    QTabWidget* m_tabs = nullptr;
    ProfileMetricsTable* m_metrics = nullptr;
    ProfileBandwidthPanel* m_bandwidth = nullptr;
    ProfileRooflinePlot* m_roofline = nullptr;
    ProfilePredictionPanel* m_prediction = nullptr;
    ProfileSessionPanel* m_sessionPage = nullptr;
};

} // namespace warpscope::viz
