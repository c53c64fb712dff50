// The hierarchical roofline, as Nsight Compute draws it (its "Hierarchical Roofline" sections; Yang,
// Kurth and Williams, "Hierarchical Roofline analysis for GPUs", CCPE 2020): one point per kernel per
// memory level, at FP32 FLOP per byte moved at that level (x) and the kernel's achieved FP32 FLOP/s
// (y), under that level's bandwidth roof and the FP32 compute roof. An L2-resident kernel moves no
// DRAM bytes, so it has no DRAM point but still has L1 and L2 points. Qt-free: the roofline plot,
// `warpscope session show` and the tests share this math.
#pragma once

#include <array>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::session {

struct KernelRecord;
struct PredictionRecord;
struct Session;

enum class MemoryLevel { L1 = 0, L2 = 1, Dram = 2 };
inline constexpr std::array<MemoryLevel, 3> kMemoryLevels{MemoryLevel::L1, MemoryLevel::L2, MemoryLevel::Dram};
std::string_view levelName(MemoryLevel level); // "L1", "L2", "DRAM"
std::string_view levelKey(MemoryLevel level);  // "l1", "l2", "dram" (JSON keys)

// Why a kernel has no point at a level. The first four hold for every level of the kernel.
enum class RooflineGap {
    None,                // on the plot
    NoMetrics,           // no metrics record: counters not permitted, or the run stopped first
    FlopsNotMeasured,    // an FP32 instruction counter (fadd, fmul, ffma) is missing
    ZeroFlops,           // 0 FP32 FLOP: intensity 0, which a log axis cannot show
    DurationNotMeasured, // gpu__time_duration.sum is missing or 0
    BytesNotMeasured,    // this level's byte counter is missing
    ZeroBytes,           // no traffic at this level (served by the level above): intensity unbounded
};
std::string_view gapCode(RooflineGap gap);                      // "zero_flop", ...; "" for None
std::string gapSummary(RooflineGap gap, MemoryLevel level);     // a few words: "0 FP32 FLOP", "no DRAM bytes"
std::string gapExplanation(RooflineGap gap, MemoryLevel level); // one sentence, for tooltips and text output

inline constexpr double kNotMeasured = std::numeric_limits<double>::quiet_NaN();

struct LevelPoint {
    double bytes = kNotMeasured;          // moved at this level during the kernel
    double intensity = kNotMeasured;      // FP32 FLOP per byte; +inf when 0 bytes moved
    double bytesPerSecond = kNotMeasured; // bytes / duration
    RooflineGap gap = RooflineGap::None;
    bool plotted() const { return gap == RooflineGap::None; }
};

struct KernelRoofline {
    std::string kernel;
    std::string ladder;                   // "" when the kernel is not a ladder rung
    int rung = 0;
    double fp32Flops = kNotMeasured;      // fadd + fmul + 2 x ffma (thread instructions)
    double durationSeconds = kNotMeasured; // gpu__time_duration.sum
    double flopsPerSecond = kNotMeasured; // fp32Flops / duration: the y of all three points
    std::array<LevelPoint, 3> levels;     // indexed by MemoryLevel
    double compulsoryBytes = kNotMeasured; // the least DRAM traffic of a cold run (see compulsoryBytes()); NaN: unknown
    const LevelPoint& at(MemoryLevel level) const { return levels[static_cast<int>(level)]; }
    bool plottedAnywhere() const;
    // The DRAM point moved fewer bytes than the compulsory traffic: warm caches served the rest (data an
    // earlier run left in L2, writes still in L2 when the kernel ended), so the point sits right of
    // where a cold run's would, and its intensity overstates the kernel's.
    bool warmCaches() const;
    double coldIntensity() const; // FP32 FLOP per compulsory byte: where a cold run's DRAM point would sit
};

struct BandwidthRoof {
    double bytesPerSecond = 0;            // 0: not available
    std::string source;                   // how it was obtained, for people
};

struct LevelRoofs {
    BandwidthRoof measured;               // measured on this GPU (drawn solid)
    BandwidthRoof peak;                   // the hardware's peak (drawn dashed)
    std::string missing;                  // one line on why there is no roof at all ("" when there is one)
    double reference() const { return measured.bytesPerSecond > 0 ? measured.bytesPerSecond : peak.bytesPerSecond; }
};

struct RooflineRoofs {
    double measuredFlopsPerSecond = 0;    // FP32, measured on this GPU (0: none)
    std::string measuredFlopsSource;
    double peakFlopsPerSecond = 0;        // FP32 peak of the hardware (0: none)
    std::string peakFlopsSource;
    std::array<LevelRoofs, 3> levels;     // indexed by MemoryLevel
    const LevelRoofs& at(MemoryLevel level) const { return levels[static_cast<int>(level)]; }
    double referenceFlopsPerSecond() const { return measuredFlopsPerSecond > 0 ? measuredFlopsPerSecond : peakFlopsPerSecond; }
};

// The bytes a kernel must move between DRAM and the chip at least once when its caches start cold:
// every buffer argument, read or written, once (the argument specs the simulator runs, "a=f32[n]",
// with the lengths evaluated). The prediction has no count of unique bytes, so the sum is capped at
// the bytes of the global sectors the simulator saw it load and store (32 B each): a kernel that
// touches only part of a buffer (a strided copy's input) is not charged for the rest. A buffer both
// read and written counts once, so this errs low, never flagging a cold run as warm. NaN when the
// record has no buffer arguments or a length cannot be evaluated.
double compulsoryBytes(const KernelRecord& kernel, const PredictionRecord* prediction);

// Why a warm-cache point is marked, in one or two sentences (the bytes, the compulsory bytes, where a
// cold run would sit); "" when kernel.warmCaches() is false.
std::string warmCachesExplanation(const KernelRoofline& kernel);

// Every kernel the session names, in stream order, with its three points or why each is missing.
std::vector<KernelRoofline> kernelRooflines(const Session& session);
// The FP32 and per-level roofs of the session's GPU.
RooflineRoofs rooflineRoofs(const Session& session);
// Attainable FLOP/s at `intensity`: min(intensity x bandwidth, compute); a ceiling of 0 is absent.
double roofAt(double intensity, double bytesPerSecond, double flopsPerSecond);
// Achieved over attainable at the kernel's intensity for `level`, against the level's reference roof
// (measured, else peak) and the reference compute roof: bytes/s over bandwidth where the kernel sits
// under the slope (so a 0-FLOP copy still gets its bandwidth share), FLOP/s over compute under the
// flat part. NaN when the level has no roof, moved no bytes, or the inputs were not measured.
double shareOfRoof(const KernelRoofline& kernel, MemoryLevel level, const RooflineRoofs& roofs);

} // namespace warpscope::session
