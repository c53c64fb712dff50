#include "profile/profile_views.h"

#include "profile/profile_bandwidth_panel.h"
#include "profile/profile_metrics_table.h"
#include "profile/profile_prediction_panel.h"
#include "profile/profile_roofline_plot.h"
#include "profile/profile_session_panel.h"

#include <QTabWidget>
#include <QVBoxLayout>

namespace warpscope::viz {

ProfileViews::ProfileViews(QWidget* parent) : QWidget(parent)
{
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("profileTabs"));
    m_tabs->setDocumentMode(true);
    m_metrics = new ProfileMetricsTable;
    m_bandwidth = new ProfileBandwidthPanel;
    m_roofline = new ProfileRooflinePlot;
    m_prediction = new ProfilePredictionPanel;
    m_sessionPage = new ProfileSessionPanel;
    m_tabs->addTab(m_metrics, tr("Metrics"));
    m_tabs->addTab(m_bandwidth, tr("Bandwidth"));
    m_tabs->addTab(m_roofline, tr("Roofline"));
    m_tabs->addTab(m_prediction, tr("Predicted vs measured"));
    m_tabs->addTab(m_sessionPage, tr("Session"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);
    m_source = tr("none");
}

void ProfileViews::setSession(const session::Session& session, const QStringList& problems, const QString& source)
{
    m_session = session;
    m_problems = problems;
    m_source = source;
    refresh();
}

void ProfileViews::setBaseline(std::optional<session::Session> baseline)
{
    m_baseline = std::move(baseline);
    refresh();
}

void ProfileViews::refresh()
{
    const session::Session* baseline = m_baseline ? &*m_baseline : nullptr;
    m_metrics->setSession(m_session, baseline);
    m_bandwidth->setSession(m_session, baseline);
    m_roofline->setSession(m_session, baseline);
    m_prediction->setSession(m_session, baseline);
    m_sessionPage->setSession(m_session, m_problems, m_source);
    // A tab whose content has a problem says so in its title.
    const bool troubled = !m_problems.isEmpty() || !m_session.errors.empty();
    m_tabs->setTabText(static_cast<int>(Tab::Session), troubled ? tr("Session (problems)") : tr("Session"));
}

void ProfileViews::showTab(Tab tab) { m_tabs->setCurrentIndex(static_cast<int>(tab)); }

ProfileViews::Tab ProfileViews::currentTab() const { return static_cast<Tab>(m_tabs->currentIndex()); }

std::optional<ProfileViews::Tab> ProfileViews::tabFromName(const QString& name)
{
    if (name == QLatin1String("metrics")) return Tab::Metrics;
    if (name == QLatin1String("bandwidth")) return Tab::Bandwidth;
    if (name == QLatin1String("roofline")) return Tab::Roofline;
    if (name == QLatin1String("prediction")) return Tab::Prediction;
    if (name == QLatin1String("session")) return Tab::Session;
    return std::nullopt;
}

} // namespace warpscope::viz
