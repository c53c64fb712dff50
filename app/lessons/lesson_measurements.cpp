#include "lessons/lesson_measurements.h"

#include <QLocale>
#include <QStringList>

#include <cmath>
#include <string_view>
#include <utility>

namespace warpscope::app {
namespace {

QString number(double value, int decimals)
{
    return value > 0 && std::isfinite(value) ? QLocale(QLocale::English).toString(value, 'f', decimals)
                                             : QStringLiteral("–");
}

QString measuredTable(const session::Session& session)
{
    const session::HierarchyRecord& ladder = *session.hierarchy;
    const QString gpu = session.devices.empty() ? QStringLiteral("your GPU")
                                                : QString::fromStdString(session.devices.front().name);
    QStringList lines;
    lines << QStringLiteral("**Measured on your GPU** (%1, by warpscope-probe; SM clock %2 MHz while it measured):")
                 .arg(gpu, number(ladder.smClockMHz, 0))
          << QString()
          << QStringLiteral("| Level | Latency (cycles) | Latency (ns) | Bandwidth (GB/s) |")
          << QStringLiteral("|---|---|---|---|");
    const std::pair<std::string_view, const char*> rows[] = {
        {"shared", "Shared memory"}, {"l1", "L1 hit"}, {"l2", "L2 hit"}, {"dram", "HBM (DRAM)"}, {"tlb_miss", "TLB miss"}};
    for (const auto& [id, name] : rows) {
        const session::HierarchyLevel* level = ladder.find(id);
        if (level == nullptr)
            continue;
        lines << QStringLiteral("| %1 | %2 | %3 | %4 |")
                     .arg(QString::fromUtf8(name), number(level->latencyCycles, 0), number(level->latencyNs, 1),
                          number(level->bandwidthGBps, 0));
    }
    lines << QString()
          << QStringLiteral("Each latency is the median of several single-thread pointer chases through a chain larger "
                            "than the level above, timed with `clock64` (the session page gives each level's method). "
                            "A dash is a value the probe did not measure.");
    return lines.join(QLatin1Char('\n'));
}

} // namespace

bool lessonShowsMeasurements(const QString& markdown)
{
    return markdown.contains(QLatin1String(kMeasuredHierarchyLine));
}

QString expandLessonMeasurements(const QString& markdown, const session::Session* session)
{
    if (!lessonShowsMeasurements(markdown))
        return markdown;
    const bool measured = session != nullptr && session->hierarchy && !session->hierarchy->levels.empty();
    const QString replacement =
        measured ? measuredTable(*session)
                 : QStringLiteral("*Measured on your GPU: no open session has a memory ladder yet. Profile any kernel "
                                  "on an NVIDIA GPU (Profile > Profile Kernel, or `warpscope-probe`), or open a session "
                                  "the probe recorded, and this table fills with your GPU's latencies and "
                                  "bandwidths, level by level.*");
    QStringList lines = markdown.split(QLatin1Char('\n'));
    for (QString& line : lines)
        if (line.trimmed() == QLatin1String(kMeasuredHierarchyLine))
            line = replacement;
    return lines.join(QLatin1Char('\n'));
}

} // namespace warpscope::app
