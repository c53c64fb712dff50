#include "profile/profile_session_panel.h"

#include "profile/profile_format.h"
#include "session/session.h"
#include "util/parse.h"

#include <QTextBrowser>
#include <QVBoxLayout>

namespace warpscope::viz {
namespace {

using namespace profile;

QString esc(const std::string& text) { return QString::fromStdString(text).toHtmlEscaped(); }

QString row(const QString& name, const QString& value)
{
    return QStringLiteral("<tr><td style='padding-right:14px'><b>%1</b></td><td>%2</td></tr>").arg(name, value);
}

QString binary(std::uint64_t bytes)
{
    // Device sizes in binary units, as the CUDA programming guide quotes them.
    if (bytes >= (1ULL << 30))
        return QString::number(static_cast<double>(bytes) / (1ULL << 30), 'f', 1) + QStringLiteral(" GiB");
    if (bytes >= (1ULL << 20))
        return QString::number(static_cast<double>(bytes) / (1ULL << 20), 'f', bytes % (1ULL << 20) == 0 ? 0 : 1) +
               QStringLiteral(" MiB");
    return QString::fromStdString(warpscope::formatBytes(static_cast<std::size_t>(bytes)));
}

QString dim(const session::Dim3& d) { return QStringLiteral("(%1, %2, %3)").arg(d[0]).arg(d[1]).arg(d[2]); }

QString mhz(int kiloHertz)
{
    return kiloHertz > 0 ? QString::fromStdString(withThousands(kiloHertz / 1000)) + QStringLiteral(" MHz")
                         : QStringLiteral("unknown");
}

} // namespace

QString sessionPageHtml(const session::Session& s, const QStringList& problems, const QString& source)
{
    QString html;
    html += QStringLiteral("<h3>Session</h3><table>");
    html += row(QStringLiteral("Source"), source.toHtmlEscaped());
    html += row(QStringLiteral("Producer"), esc(s.header.producer));
    html += row(QStringLiteral("Created"), esc(s.header.createdUtc));
    html += row(QStringLiteral("Host"), esc(s.header.host));
    html += row(QStringLiteral("Status"), s.end ? QStringLiteral("%1 after %2 s").arg(esc(s.end->status)).arg(s.end->wallSeconds, 0, 'f', 2)
                                                : QStringLiteral("<b>incomplete</b> (no end record)"));
    html += QStringLiteral("</table>");

    if (!problems.isEmpty() || !s.errors.empty()) {
        html += QStringLiteral("<h3>Problems</h3><ul>");
        for (const session::ErrorRecord& e : s.errors)
            html += QStringLiteral("<li><b>%1%2</b>%3: %4</li>")
                        .arg(e.fatal ? QStringLiteral("fatal error ") : QStringLiteral("error "), esc(e.code),
                             e.kernel.empty() ? QString() : QStringLiteral(" (kernel %1)").arg(esc(e.kernel)), esc(e.message));
        for (const QString& problem : problems)
            html += QStringLiteral("<li>reading: %1</li>").arg(problem.toHtmlEscaped());
        html += QStringLiteral("</ul>");
    }

    html += QStringLiteral("<h3>Device</h3>");
    if (s.devices.empty()) {
        html += QStringLiteral("<p>No device record (the probe stopped before it read the GPU).</p>");
    } else {
        const session::DeviceRecord& d = s.devices.front();
        html += QStringLiteral("<table>");
        html += row(QStringLiteral("Name"), esc(d.name) + (d.chip.empty() ? QString() : QStringLiteral(" (%1)").arg(esc(d.chip))));
        html += row(QStringLiteral("Device ordinal"), QString::number(d.ordinal));
        html += row(QStringLiteral("Compute capability"), QStringLiteral("%1.%2").arg(d.computeMajor).arg(d.computeMinor));
        html += row(QStringLiteral("SMs"), QString::number(d.smCount));
        html += row(QStringLiteral("Clocks (peak)"), QStringLiteral("SM %1, memory %2").arg(mhz(d.coreClockKHz), mhz(d.memoryClockKHz)));
        html += row(QStringLiteral("Memory"), QStringLiteral("%1, %2-bit bus; L2 %3")
                                                  .arg(binary(d.totalMemoryBytes)).arg(d.memoryBusWidthBits).arg(binary(d.l2Bytes)));
        html += row(QStringLiteral("Per SM"), QStringLiteral("%1 threads, %2 blocks, %3 registers, %4 shared memory")
                                                  .arg(d.maxThreadsPerSm).arg(d.maxBlocksPerSm)
                                                  .arg(QString::fromStdString(withThousands(d.registersPerSm)))
                                                  .arg(binary(d.sharedPerSm)));
        html += row(QStringLiteral("Per block"), QStringLiteral("%1 threads, %2 registers, %3 shared memory (%4 opt-in, %5 reserved)")
                                                     .arg(d.maxThreadsPerBlock)
                                                     .arg(QString::fromStdString(withThousands(d.registersPerBlock)))
                                                     .arg(binary(d.sharedPerBlock), binary(d.sharedPerBlockOptin),
                                                          binary(d.reservedSharedPerBlock)));
        html += row(QStringLiteral("Driver"), QStringLiteral("%1 (CUDA driver API %2)")
                                                  .arg(d.driverRelease.empty() ? QStringLiteral("release unknown") : esc(d.driverRelease),
                                                       cudaVersionText(d.driverVersion)));
        html += row(QStringLiteral("CUDA toolkit"), cudaVersionText(d.toolkitVersion) + QStringLiteral(" (the probe was built with it)"));
        html += row(QStringLiteral("CUPTI"), d.cuptiVersion.empty() ? QStringLiteral("unknown") : esc(d.cuptiVersion));
        html += row(QStringLiteral("Counters allowed"),
                    d.countersAllowed ? QStringLiteral("yes")
                                      : QStringLiteral("<b>no</b>") + (d.countersMessage.empty() ? QString() : QStringLiteral(": ") + esc(d.countersMessage)));
        html += QStringLiteral("</table>");
        for (std::size_t i = 1; i < s.devices.size(); ++i)
            html += QStringLiteral("<p>Also listed: device %1, %2.</p>").arg(s.devices[i].ordinal).arg(esc(s.devices[i].name));
    }

    html += QStringLiteral("<h3>Ceilings</h3>");
    if (s.ceilings) {
        const session::CeilingsRecord& c = *s.ceilings;
        html += QStringLiteral("<table>");
        html += row(QStringLiteral("DRAM, measured"), formatBytesPerSecond(c.measuredDramGBps * 1e9) + QStringLiteral(" (") + esc(c.measuredDramMethod) + QLatin1Char(')'));
        html += row(QStringLiteral("FP32, measured"), formatFlopsPerSecond(c.measuredFp32Gflops * 1e9) + QStringLiteral(" (") + esc(c.measuredFp32Method) + QLatin1Char(')'));
        html += row(QStringLiteral("DRAM, theoretical"), formatBytesPerSecond(c.theoreticalDramGBps * 1e9));
        html += row(QStringLiteral("FP32, theoretical"), formatFlopsPerSecond(c.theoreticalFp32Gflops * 1e9));
        html += row(QStringLiteral("Theoretical from"), esc(c.theoreticalSource));
        html += QStringLiteral("</table>");
    } else {
        html += QStringLiteral("<p>No ceilings record.</p>");
    }

    html += QStringLiteral("<h3>Kernels</h3>");
    if (s.kernels.empty())
        html += QStringLiteral("<p>None.</p>");
    for (const session::KernelRecord& k : s.kernels) {
        html += QStringLiteral("<p><b>%1</b>%2<br>").arg(esc(k.id), k.title.empty() ? QString() : QStringLiteral(" \u2014 ") + esc(k.title));
        html += QStringLiteral("entry %1 in %2").arg(esc(k.entry), esc(k.sourceName));
        if (!k.ladder.empty())
            html += QStringLiteral(", rung %1 of the %2 ladder").arg(k.ladderRung).arg(esc(k.ladder));
        html += QStringLiteral("<br>grid %1 \u00d7 block %2, %3 dynamic shared memory")
                    .arg(dim(k.grid), dim(k.block), QString::fromStdString(warpscope::formatBytes(static_cast<std::size_t>(k.dynamicSharedBytes))));
        if (!k.args.empty()) {
            QStringList args;
            for (const std::string& a : k.args)
                args << esc(a);
            html += QStringLiteral("<br>arguments: <code>%1</code>").arg(args.join(QStringLiteral("</code> <code>")));
        }
        html += QStringLiteral("<br>PTX hash %1").arg(esc(k.ptxHash));
        if (const session::ActivityRecord* a = s.activityFor(k.id); a && a->droppedRecords > 0)
            html += QStringLiteral("<br><b>%1 Activity records dropped</b>").arg(a->droppedRecords);
        html += QStringLiteral("</p>");
    }
    if (!s.memcpys.empty()) {
        html += QStringLiteral("<h3>Copies</h3><ul>");
        for (const session::MemcpyRecord& m : s.memcpys)
            html += QStringLiteral("<li>%1 %2: %3 in %4</li>")
                        .arg(esc(m.kernel), esc(m.direction), formatBytes(static_cast<double>(m.bytes)),
                             formatDurationNs(static_cast<double>(m.durationNs)));
        html += QStringLiteral("</ul>");
    }
    if (!s.logs.empty()) {
        html += QStringLiteral("<h3>Probe log</h3><ul>");
        for (const session::LogRecord& l : s.logs)
            html += QStringLiteral("<li>%1: %2</li>").arg(esc(l.level), esc(l.message));
        html += QStringLiteral("</ul>");
    }
    return html;
}

ProfileSessionPanel::ProfileSessionPanel(QWidget* parent) : QWidget(parent)
{
    m_text = new QTextBrowser(this);
    m_text->setObjectName(QStringLiteral("profileSessionText"));
    m_text->setOpenLinks(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_text);
    setSession(session::Session{}, {}, tr("none"));
}

void ProfileSessionPanel::setSession(const session::Session& current, const QStringList& problems, const QString& source)
{
    m_text->setHtml(sessionPageHtml(current, problems, source));
}

QString ProfileSessionPanel::plainText() const { return m_text->toPlainText(); }

} // namespace warpscope::viz
