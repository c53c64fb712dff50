// libFuzzer target: PTX through the simulator (core/ptx, core/sim). Each kernel the text defines is
// launched small (2 blocks of its required size, or 64 threads) with every pointer parameter given a
// 1 KiB buffer and every integer parameter 16 (a 16 x 16 float matrix fills a buffer), under step
// budgets in which every demo kernel finishes at that size, recording block 0 and replaying it as
// the stepper does. A kernel that never ends must stop at its budget with a status,
// never exhaust memory (the run's -rss_limit_mb and -malloc_limit_mb catch that), and bad PTX must be
// refused with an InputError (or UnsupportedPtx for valid PTX the simulator cannot run yet).
#include "gpu/gpu_preset.h"
#include "ptx/ptx_error.h"
#include "ptx/ptx_parser.h"
#include "sim/block_recording.h"
#include "sim/simulator.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

using namespace warpscope;

namespace {

constexpr std::uint64_t kBufferBytes = 1024;
constexpr std::int64_t kIntegerValue = 16;

// Arguments for every parameter, by its size; nullopt when a parameter is neither a pointer nor an
// integer (a struct passed by value).
std::optional<std::vector<sim::ResolvedArg>> argumentsFor(const ptx::Function& function)
{
    std::vector<sim::ResolvedArg> args;
    for (std::int32_t index : function.params) {
        const ptx::Symbol& param = function.symbols.at(static_cast<std::size_t>(index));
        sim::ResolvedArg arg;
        arg.name = param.name;
        switch (param.size) {
        case 8: {
            arg.type = sim::ElementType::U32;
            arg.isBuffer = true;
            arg.count = kBufferBytes / 4;
            arg.bytes.resize(kBufferBytes);
            for (std::size_t i = 0; i < arg.bytes.size(); ++i)
                arg.bytes[i] = static_cast<std::uint8_t>(i % 4 == 0 ? i / 4 : 0); // element i holds i
            break;
        }
        case 4: arg.type = sim::ElementType::U32; break;
        case 2: arg.type = sim::ElementType::U16; break;
        case 1: arg.type = sim::ElementType::U8; break;
        default: return std::nullopt;
        }
        if (!arg.isBuffer) {
            arg.integerValue = kIntegerValue;
            arg.scalarBits = static_cast<std::uint64_t>(kIntegerValue);
        }
        args.push_back(std::move(arg));
    }
    return args;
}

launch::Dim3 blockFor(const ptx::Function& function)
{
    if (function.reqntid[0] > 0)
        return {function.reqntid[0], std::max<std::uint32_t>(function.reqntid[1], 1), std::max<std::uint32_t>(function.reqntid[2], 1)};
    if (function.maxntid[0] > 0 && function.maxntid[0] < 64)
        return {function.maxntid[0], 1, 1};
    return {64, 1, 1};
}

void replay(const sim::SimResult& result, const ptx::Function& function)
{
    if (!result.recording)
        return;
    sim::BlockReplay replay(result.recording, function.registers.size());
    const std::size_t size = replay.size();
    for (std::size_t position : {size, size / 2, std::size_t{0}}) {
        replay.seek(position);
        for (std::int32_t warp = 0; warp < result.recording->warpCount; ++warp) {
            (void)replay.warp(warp);
            for (std::size_t reg = 0; reg < function.registers.size(); ++reg)
                (void)replay.registers(warp, static_cast<std::int32_t>(reg));
        }
    }
    for (sim::StepUnit unit : {sim::StepUnit::Instruction, sim::StepUnit::SourceLine, sim::StepUnit::Barrier,
                               sim::StepUnit::Memory, sim::StepUnit::Divergence, sim::StepUnit::Hazard, sim::StepUnit::End}) {
        (void)sim::findStep(*result.recording, function, 0, unit, true, -1);
        (void)sim::findStep(*result.recording, function, size, unit, false, 0);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    ptx::Module module;
    try {
        module = ptx::parseModule(text);
    } catch (const InputError&) {
        return 0;
    }
    int launched = 0;
    for (const ptx::Function& function : module.functions) {
        if (!function.isEntry || ++launched > 2)
            continue;
        std::optional<std::vector<sim::ResolvedArg>> args = argumentsFor(function);
        if (!args)
            continue;
        sim::LaunchRequest request;
        request.module = &module;
        request.function = &function;
        request.grid = {2, 1, 1};
        request.block = blockFor(function);
        request.dynamicSharedBytes = 1024;
        request.args = std::move(*args);
        request.preset = *gpu::findPreset("sm_90");
        // Budgets far below the defaults keep each input short; the stops are what is tested.
        request.options.stepBudget = 1 << 14;
        request.options.blockStepBudget = 1 << 13;
        request.options.hostThreads = 1;
        request.options.maxBufferBytes = 1 << 20;
        request.options.maxTimingBytesPerSm = 8 << 20;
        request.options.recordBlock = 0;
        request.options.recordLimits.maxBytes = 8 << 20;
        request.options.trace.blocks = {1};
        request.options.trace.maxEvents = 1 << 14;
        request.options.printfBytes = 4096;
        try {
            sim::validateLaunchRequest(request);
            const sim::SimResult result = sim::simulate(std::move(request));
            if (result.status != sim::SimStatus::Completed && result.statusMessage.empty())
                __builtin_trap(); // a stopped launch always says why
            replay(result, function);
        } catch (const InputError&) {
        } catch (const ptx::UnsupportedPtx&) {
        }
    }
    return 0;
}
