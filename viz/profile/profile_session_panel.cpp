#include "profile/profile_session_panel.h"

#include "profile/profile_format.h"
#include "session/metric_catalog.h"
#include "session/session.h"
#include "session/sgemm_reference.h"
#include "util/parse.h"

#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

// A device field no GPU reports as 0 (SMs, clocks, sizes, limits, versions): 0 means the file did not
// record it (an ncu CSV holds only the attributes ncu printed; an older or hand-made session may
// lack fields), so it reads as unknown, never as a measured 0.
template <typename Number, typename Text>
QString recorded(Number value, Text text)
{
    return value > 0 ? text(value) : notRecordedHtml();
}

QString count(std::int64_t value)
{
    return recorded(value, [](std::int64_t v) { return QString::fromStdString(withThousands(v)); });
}

QString bytes(std::uint64_t value) { return recorded(value, binary); }

// Whether a field that can truly be 0 (reserved shared memory, dynamic shared memory) was recorded:
// the probe writes every field; an imported ncu CSV keeps the attribute among the metrics when it had it.
bool writtenByProbe(const session::Session& s) { return s.header.producer.rfind("warpscope-probe", 0) == 0; }

bool anyMetricHas(const session::Session& s, const char* name)
{
    return std::any_of(s.metrics.begin(), s.metrics.end(), [&](const session::MetricsRecord& m) { return m.values.count(name) > 0; });
}

QString mhz(int kiloHertz)
{
    return recorded(kiloHertz, [](int k) { return QString::fromStdString(withThousands(k / 1000)) + QStringLiteral(" MHz"); });
}

QString version(int cudaVersion) { return recorded(cudaVersion, cudaVersionText); }

QString mhzFromHertz(double hertz)
{
    return QString::fromStdString(withThousands(static_cast<std::int64_t>(std::llround(hertz / 1e6)))) + QStringLiteral(" MHz");
}

// One clock metric over the session's kernels: "1,936–1,977 MHz, median 1,955 MHz over 19 kernels;
// peak 1,980 MHz". Empty when no kernel has it.
QString clockRange(const session::Session& s, const char* metricName, int peakKHz)
{
    std::vector<double> values;
    for (const session::MetricsRecord& m : s.metrics)
        if (auto it = m.values.find(metricName); it != m.values.end() && it->second > 0)
            values.push_back(it->second);
    if (values.empty())
        return {};
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    const double median = n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
    QString text = mhzFromHertz(values.front());
    if (n > 1) {
        text = QStringLiteral("%1\u2013%2, median %3 over %4 kernels")
                   .arg(mhzFromHertz(values.front()).chopped(4), mhzFromHertz(values.back()), mhzFromHertz(median))
                   .arg(n);
    }
    if (peakKHz > 0)
        text += QStringLiteral("; peak %1 (%2 %)").arg(mhz(peakKHz)).arg(median / (peakKHz * 1e3) * 100.0, 0, 'f', 1);
    return text + QStringLiteral(" <span style='color:gray'>(%1)</span>").arg(QLatin1String(metricName));
}

// A per-kernel field summarised: "all 3 kernels: X", or each value with the kernels that have it.
template <typename Describe>
QString perKernel(const std::vector<std::pair<std::string, std::string>>& values, Describe describe)
{
    std::vector<std::string> distinct;
    for (const auto& [kernel, value] : values)
        if (std::find(distinct.begin(), distinct.end(), value) == distinct.end())
            distinct.push_back(value);
    if (distinct.size() == 1)
        return describe(distinct.front()) + (values.size() > 1 ? QStringLiteral(" (all %1 kernels)").arg(values.size()) : QString());
    QStringList parts;
    for (const std::string& value : distinct) {
        QStringList kernels;
        for (const auto& [kernel, v] : values)
            if (v == value)
                kernels << esc(kernel);
        parts << QStringLiteral("%1: %2").arg(describe(value), kernels.join(QStringLiteral(", ")));
    }
    return parts.join(QStringLiteral("<br>"));
}

bool sameForAll(const session::Session& s, std::string session::KernelRecord::*field)
{
    for (const session::KernelRecord& k : s.kernels)
        if (k.*field != s.kernels.front().*field)
            return false;
    return true;
}

QString launchSizeText(const std::string& size)
{
    if (size == "gpu") return QStringLiteral("the demo's GPU size (fills the GPU for measurement)");
    if (size == "sim") return QStringLiteral("the demo's simulator size (small, as the stepper runs it)");
    if (size == "custom") return QStringLiteral("custom (a file, or --grid/--arg overrides)");
    if (size.empty()) return QStringLiteral("not recorded (older session)");
    return esc(size);
}

QString cacheControlText(const std::string& control)
{
    if (control == "all")
        return QStringLiteral("L2 flushed before every timed run and every replay pass (as ncu --cache-control all)");
    if (control == "none")
        return QStringLiteral("not flushed: each run finds what the previous one left in L2");
    if (control.empty())
        return QStringLiteral("not recorded (older session): the caches were warm, the inputs uploaded just before each run");
    return esc(control);
}

// A kernel record's virtual architecture (core/session/session.h: always compute_ and a number, or empty).
QString computeText(const std::string& compute)
{
    if (compute.empty())
        return QStringLiteral("not recorded (a .ptx file, whose own .target line says; an older session; an Nsight Compute import)");
    if (!session::isRecordedComputeArch(compute))
        return esc(compute);
    const QString number = QString::fromStdString(compute.substr(std::string_view("compute_").size()));
    return QStringLiteral("%1 PTX (runs on compute capability %2.%3 and newer)")
        .arg(esc(compute), number.chopped(1), number.right(1));
}

QString timerText(const std::string& timer)
{
    if (timer.empty() || timer == "cupti_activity")
        return QStringLiteral("CUPTI Activity (the GPU's own kernel start and end times)");
    if (timer == "cuda_events")
        return QStringLiteral("CUDA events around each launch: CUPTI Activity was unavailable because another profiler "
                              "(such as ncu) held it");
    return esc(timer);
}

QString levelName(const std::string& level)
{
    if (level == "shared") return QStringLiteral("Shared memory");
    if (level == "l1") return QStringLiteral("L1 hit");
    if (level == "l2") return QStringLiteral("L2 hit");
    if (level == "dram") return QStringLiteral("DRAM");
    if (level == "tlb_miss") return QStringLiteral("DRAM with a TLB miss");
    return esc(level);
}

QString hierarchyTable(const session::HierarchyRecord& h)
{
    const QString none = QStringLiteral("\u2014");
    QString html = QStringLiteral("<table cellpadding='2'><tr><th align='left'>Level</th><th align='right'>Latency</th>"
                                  "<th align='right'></th><th align='right'>Bandwidth</th><th align='right'>Working set</th>"
                                  "<th align='left'>How</th></tr>");
    for (const session::HierarchyLevel& l : h.levels) {
        html += QStringLiteral("<tr><td style='padding-right:10px'>%1</td><td align='right'>%2</td><td align='right' "
                               "style='padding-right:10px'>%3</td><td align='right' style='padding-right:10px'>%4</td>"
                               "<td align='right' style='padding-right:10px'>%5</td><td>%6</td></tr>")
                    .arg(levelName(l.level),
                         l.latencyCycles > 0 ? QStringLiteral("%1 cycles").arg(l.latencyCycles, 0, 'f', 0) : none,
                         l.latencyNs > 0 ? QStringLiteral("%1 ns").arg(l.latencyNs, 0, 'f', 1) : none,
                         l.bandwidthGBps > 0 ? formatBytesPerSecond(l.bandwidthGBps * 1e9) : none,
                         l.footprintBytes > 0 ? binary(l.footprintBytes) : none,
                         l.method.empty() ? none : esc(l.method));
    }
    html += QStringLiteral("</table>");
    if (h.smClockMHz > 0)
        html += QStringLiteral("<p>Cycles converted to nanoseconds at %1 MHz.</p>").arg(h.smClockMHz, 0, 'f', 0);
    return html;
}

// The reference with its method, or why it is missing: never a number the session does not hold.
QString sgemmReferenceText(const session::SgemmReference& reference)
{
    if (!reference.measured)
        return esc(reference.status);
    return QStringLiteral("cuBLAS SGEMM, n = %1: %2").arg(reference.n).arg(formatFlopsPerSecond(reference.flopsPerSecond)) +
           (reference.method.empty() ? QString() : QStringLiteral(" (") + esc(reference.method) + QLatin1Char(')'));
}

// Each matmul rung's GEMM rate (2 n^3 over its median time) and share of cuBLAS at the same n.
QString matmulRungTable(const std::vector<session::RungAgainstReference>& rungs, const session::SgemmReference& reference)
{
    if (rungs.empty())
        return {};
    QString html = QStringLiteral("<p><b>The matmul ladder against cuBLAS</b> (2 n\u00b3 FLOP over each rung's median time, "
                                  "against cuBLAS SGEMM at the same n):</p><table cellpadding='2'><tr><th align='left'>Rung</th>"
                                  "<th align='left'>Kernel</th><th align='right'>FLOP/s</th><th align='right'>Share of cuBLAS</th></tr>");
    for (const session::RungAgainstReference& r : rungs)
        html += QStringLiteral("<tr><td>%1</td><td style='padding-right:10px'>%2</td><td align='right' style='padding-right:10px'>%3</td>"
                               "<td align='right'>%4</td></tr>")
                    .arg(QString::number(r.rung), esc(r.kernel),
                         std::isnan(r.flopsPerSecond) ? QStringLiteral("\u2014") : formatFlopsPerSecond(r.flopsPerSecond),
                         std::isnan(r.share) ? esc(r.why) : formatPercent(r.share * 100.0));
    // The reference rung closes the ladder.
    html += QStringLiteral("<tr><td>ref.</td><td style='padding-right:10px'>cuBLAS SGEMM, n = %1</td><td align='right' "
                           "style='padding-right:10px'>%2</td><td align='right'>100.0 %</td></tr>")
                .arg(QString::number(reference.n), formatFlopsPerSecond(reference.flopsPerSecond));
    return html + QStringLiteral("</table>");
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
    // One arg() call for both: a status holding "%2" must not be filled in by the second one.
    html += row(QStringLiteral("Status"), s.end ? QStringLiteral("%1 after %2").arg(esc(s.end->status),
                                                                             s.end->wallSeconds > 0 ? QString::number(s.end->wallSeconds, 'f', 2) + QStringLiteral(" s")
                                                                                                    : notRecordedHtml())
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
        html += row(QStringLiteral("Compute capability"), d.computeMajor > 0 ? QStringLiteral("%1.%2").arg(d.computeMajor).arg(d.computeMinor)
                                                                             : notRecordedHtml());
        html += row(QStringLiteral("SMs"), count(d.smCount));
        html += row(QStringLiteral("Clocks (peak)"), QStringLiteral("SM %1, memory %2").arg(mhz(d.coreClockKHz), mhz(d.memoryClockKHz)));
        const QString bus = d.memoryBusWidthBits > 0 ? QStringLiteral("%1-bit bus").arg(d.memoryBusWidthBits)
                                                     : QStringLiteral("bus width ") + notRecordedHtml();
        html += row(QStringLiteral("Memory"), QStringLiteral("%1, %2; L2 %3").arg(bytes(d.totalMemoryBytes), bus, bytes(d.l2Bytes)));
        html += row(QStringLiteral("Per SM"), QStringLiteral("%1 threads, %2 blocks, %3 registers, %4 shared memory")
                                                  .arg(count(d.maxThreadsPerSm), count(d.maxBlocksPerSm), count(d.registersPerSm),
                                                       bytes(d.sharedPerSm)));
        // Some GPUs reserve no shared memory per block: 0 is shown when the file recorded it.
        const bool reservedRecorded = d.reservedSharedPerBlock > 0 || writtenByProbe(s) ||
                                      anyMetricHas(s, "device__attribute_reserved_shared_memory_per_block");
        html += row(QStringLiteral("Per block"), QStringLiteral("%1 threads, %2 registers, %3 shared memory (%4 opt-in, %5 reserved)")
                                                     .arg(count(d.maxThreadsPerBlock), count(d.registersPerBlock), bytes(d.sharedPerBlock),
                                                          bytes(d.sharedPerBlockOptin),
                                                          reservedRecorded ? binary(d.reservedSharedPerBlock) : notRecordedHtml()));
        html += row(QStringLiteral("Driver"), QStringLiteral("%1 (CUDA driver API %2)")
                                                  .arg(d.driverRelease.empty() ? QStringLiteral("release ") + notRecordedHtml() : esc(d.driverRelease),
                                                       version(d.driverVersion)));
        html += row(QStringLiteral("CUDA toolkit"), d.toolkitVersion > 0 ? cudaVersionText(d.toolkitVersion) + QStringLiteral(" (the probe was built with it)")
                                                                         : notRecordedHtml());
        html += row(QStringLiteral("CUPTI"), d.cuptiVersion.empty() ? notRecordedHtml() : esc(d.cuptiVersion));
        html += row(QStringLiteral("Counters allowed"),
                    d.countersAllowed ? QStringLiteral("yes")
                                      : QStringLiteral("<b>no</b>") + (d.countersMessage.empty() ? QString() : QStringLiteral(": ") + esc(d.countersMessage)));
        html += QStringLiteral("</table>");
        if (html.contains(notRecordedHtml()))
            html += QStringLiteral("<p>\u2014 : %1.</p>").arg(QString::fromLatin1(kNotRecordedToolTip).toHtmlEscaped());
        for (std::size_t i = 1; i < s.devices.size(); ++i)
            html += QStringLiteral("<p>Also listed: device %1, %2.</p>").arg(s.devices[i].ordinal).arg(esc(s.devices[i].name));
    }

    html += QStringLiteral("<h3>Measurement</h3><table>");
    const int peakSm = s.devices.empty() ? 0 : s.devices.front().coreClockKHz;
    const int peakDram = s.devices.empty() ? 0 : s.devices.front().memoryClockKHz;
    const QString smClock = clockRange(s, session::metric::kSmClock, peakSm);
    const QString dramClock = clockRange(s, session::metric::kDramClock, peakDram);
    html += row(QStringLiteral("SM clock while measured"), smClock.isEmpty() ? QStringLiteral("not measured") : smClock);
    html += row(QStringLiteral("DRAM clock while measured"), dramClock.isEmpty() ? QStringLiteral("not measured") : dramClock);
    std::vector<std::pair<std::string, std::string>> sizes, caches, computes, timers;
    for (const session::KernelRecord& k : s.kernels) {
        sizes.emplace_back(k.id, k.launchSize);
        caches.emplace_back(k.id, k.cacheControl);
        computes.emplace_back(k.id, k.compute);
    }
    for (const session::ActivityRecord& a : s.activities)
        timers.emplace_back(a.kernel, a.timer == "cupti_activity" ? std::string() : a.timer);
    if (!sizes.empty()) {
        html += row(QStringLiteral("Launch size"), perKernel(sizes, launchSizeText));
        html += row(QStringLiteral("Caches"), perKernel(caches, cacheControlText));
        html += row(QStringLiteral("Compiled for"), perKernel(computes, computeText));
    }
    if (!timers.empty())
        html += row(QStringLiteral("Kernel timer"), perKernel(timers, timerText));
    html += QStringLiteral("</table>");

    html += QStringLiteral("<h3>Ceilings</h3>");
    if (s.ceilings) {
        const session::CeilingsRecord& c = *s.ceilings;
        html += QStringLiteral("<table>");
        html += row(QStringLiteral("DRAM, measured"), formatBytesPerSecond(c.measuredDramGBps * 1e9) + QStringLiteral(" (") + esc(c.measuredDramMethod) + QLatin1Char(')'));
        html += row(QStringLiteral("FP32, measured"), formatFlopsPerSecond(c.measuredFp32Gflops * 1e9) + QStringLiteral(" (") + esc(c.measuredFp32Method) + QLatin1Char(')'));
        html += row(QStringLiteral("DRAM, theoretical"), formatBytesPerSecond(c.theoreticalDramGBps * 1e9));
        html += row(QStringLiteral("FP32, theoretical"), formatFlopsPerSecond(c.theoreticalFp32Gflops * 1e9));
        html += row(QStringLiteral("Theoretical from"), esc(c.theoreticalSource));
        if (session::mentionsSgemmReference(s))
            html += row(QStringLiteral("Matmul reference"), sgemmReferenceText(session::sgemmReference(s)));
        html += QStringLiteral("</table>");
    } else {
        html += QStringLiteral("<p>No ceilings record.</p>");
    }
    if (const session::SgemmReference reference = session::sgemmReference(s); reference.measured)
        html += matmulRungTable(session::matmulRungsAgainstReference(s), reference);

    if (s.hierarchy) {
        html += QStringLiteral("<h3>Memory ladder measured on this GPU</h3>");
        if (s.hierarchy->levels.empty())
            html += QStringLiteral("<p>The hierarchy record has no levels.</p>");
        else
            html += hierarchyTable(*s.hierarchy);
    }

    html += QStringLiteral("<h3>Kernels</h3>");
    if (s.kernels.empty())
        html += QStringLiteral("<p>None.</p>");
    for (const session::KernelRecord& k : s.kernels) {
        html += QStringLiteral("<p><b>%1</b>%2<br>").arg(esc(k.id), k.title.empty() ? QString() : QStringLiteral(" \u2014 ") + esc(k.title));
        html += QStringLiteral("entry %1 in %2").arg(esc(k.entry), esc(k.sourceName));
        if (!k.ladder.empty())
            html += QStringLiteral(", rung %1 of the %2 ladder").arg(k.ladderRung).arg(esc(k.ladder));
        const session::MetricsRecord* metrics = s.metricsFor(k.id);
        const bool dynamicRecorded = k.dynamicSharedBytes > 0 || writtenByProbe(s) ||
                                     (metrics != nullptr && metrics->values.count("launch__shared_mem_per_block_dynamic") > 0);
        html += QStringLiteral("<br>grid %1 \u00d7 block %2, dynamic shared memory %3")
                    .arg(dim(k.grid), dim(k.block),
                         dynamicRecorded ? QString::fromStdString(warpscope::formatBytes(static_cast<std::size_t>(k.dynamicSharedBytes)))
                                         : notRecordedHtml());
        if (!k.args.empty()) {
            QStringList args;
            for (const std::string& a : k.args)
                args << esc(a);
            html += QStringLiteral("<br>arguments: <code>%1</code>").arg(args.join(QStringLiteral("</code> <code>")));
        }
        // Said once under Measurement when every kernel has the same; here only when they differ.
        if (!sameForAll(s, &session::KernelRecord::launchSize))
            html += QStringLiteral("<br>launch size: %1").arg(launchSizeText(k.launchSize));
        if (!sameForAll(s, &session::KernelRecord::cacheControl))
            html += QStringLiteral("<br>caches: %1").arg(cacheControlText(k.cacheControl));
        if (!sameForAll(s, &session::KernelRecord::compute))
            html += QStringLiteral("<br>compiled for: %1").arg(computeText(k.compute));
        html += QStringLiteral("<br>PTX hash %1").arg(k.ptxHash.empty() ? notRecordedHtml() : esc(k.ptxHash));
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
