// The timing model's timeline as a Chrome trace (core/sim/perfetto_trace.h): valid JSON whose
// slices are the simulator's instructions, one track per warp, nothing overlapping on a track.
#include "sim/perfetto_trace.h"

#include "demo_kernels.h"
#include "gpu/gpu_preset.h"
#include "sim/simulator.h"
#include "util/input_error.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

using namespace warpscope;

TEST(PerfettoTrace, EveryIssuedInstructionIsASliceOnItsWarpsTrackAtItsCycle)
{
    // vector_add on 1,024 elements: 4 blocks of 256 threads, all traced.
    const kernels::DemoKernel& demo = *kernels::findDemoKernel("vector_add");
    kernels::LaunchOverrides overrides;
    overrides.args = {sim::parseArgSpec("n=i32:1024")};
    const kernels::DemoLaunch launch = kernels::resolveDemoLaunch(demo, overrides, 1ull << 30);
    const gpu::GpuPreset preset = *gpu::findPreset("sm_90");
    sim::LaunchRequest request = kernels::demoLaunchRequest(demo, launch, preset);
    ASSERT_EQ(request.grid.volume(), 4);
    request.options.trace.blocks = {0, 1, 2, 3};
    const sim::SimResult result = sim::simulate(std::move(request));
    ASSERT_EQ(result.status, sim::SimStatus::Completed) << result.statusMessage;
    ASSERT_TRUE(result.stats.timing.available);

    std::ostringstream out;
    const ptx::Function& function = *kernels::demoModule(demo).findFunction(demo.entry);
    const double clockMHz = preset.timing.coreClockMHz;
    sim::PerfettoTraceInfo info;
    info.kernelName = "vector_add";
    info.presetName = std::string(preset.name);
    info.clockMHz = clockMHz;
    info.grid = launch.grid;
    const sim::PerfettoTraceCounts counts = sim::writePerfettoTrace(out, result.trace, function, info);
    const nlohmann::json doc = nlohmann::json::parse(out.str());

    // Every warp-instruction of the launch, once: 4 blocks x 8 warps.
    EXPECT_EQ(counts.instructionSlices, result.stats.warpInstructions);
    EXPECT_EQ(counts.warps, 32u);
    std::uint64_t instructions = 0, named = 0;
    std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> slices; // per track: [start, end)
    std::map<std::pair<int, int>, std::pair<double, double>> lives;
    for (const nlohmann::json& e : doc["traceEvents"]) {
        if (e["ph"] == "M") {
            named += e["name"] == "thread_name";
            continue;
        }
        ASSERT_EQ(e["ph"], "X");
        const std::pair<int, int> track{e["pid"].get<int>(), e["tid"].get<int>()};
        const double start = e["ts"].get<double>(), end = start + e["dur"].get<double>();
        if (e["cat"] == "warp") {
            lives[track] = {start, end};
            continue;
        }
        slices[track].push_back({start, end});
        if (e["cat"] == "instruction") {
            ++instructions;
            // At its issue cycle, shown in microseconds at the boost clock.
            const double cycle = e["args"]["cycle"].get<double>();
            EXPECT_NEAR(start, cycle / clockMHz, 1e-9);
            EXPECT_NEAR(e["dur"].get<double>(), 1.0 / clockMHz, 1e-12);
            EXPECT_FALSE(e["args"]["ptx"].get<std::string>().empty());
        }
    }
    EXPECT_EQ(instructions, result.stats.warpInstructions);
    EXPECT_EQ(named, 32u);
    ASSERT_EQ(lives.size(), 32u);
    for (auto& [track, list] : slices) {
        std::sort(list.begin(), list.end());
        for (std::size_t i = 1; i < list.size(); ++i)
            EXPECT_LE(list[i - 1].second, list[i].first + 1e-9) << "overlap on track " << track.second;
        ASSERT_TRUE(lives.count(track));
        EXPECT_GE(list.front().first, lives[track].first - 1e-9);
        EXPECT_LE(list.back().second, lives[track].second + 1e-9);
    }
    EXPECT_EQ(doc["metadata"]["kernel"], "vector_add");
    EXPECT_EQ(doc["metadata"]["truncated"], false);
}

TEST(PerfettoTrace, NeedsAClockToTurnCyclesIntoTime)
{
    std::ostringstream out;
    const ptx::Function function;
    sim::PerfettoTraceInfo info;
    info.kernelName = "k";
    info.clockMHz = 0;
    EXPECT_THROW(sim::writePerfettoTrace(out, sim::Trace{}, function, info), InputError);
}
