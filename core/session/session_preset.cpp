#include "session/session_preset.h"

#include "session/session.h"

#include <cstdio>
#include <mutex>
#include <set>
#include <string_view>

namespace warpscope::session {
namespace {

// GpuPreset names its GPU with string_views; a device's own names are kept here for good (a handful
// per program run).
std::string_view keep(const std::string& text)
{
    static std::mutex mutex;
    static std::set<std::string> kept;
    std::lock_guard lock(mutex);
    return *kept.insert(text).first;
}

std::string lower(std::string_view text)
{
    std::string out;
    for (char c : text)
        if (c != ' ')
            out += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return out;
}

gpu::GpuPreset basePreset(const DeviceRecord& device)
{
    const std::string name = lower(device.name);
    for (const gpu::GpuPreset& variant : gpu::variantPresets()) {
        const std::string model = lower(variant.name.substr(0, variant.name.find(' '))); // "H200 SXM" -> "h200"
        if (variant.computeMajor == device.computeMajor && name.find(model) != std::string::npos)
            return variant;
    }
    const gpu::GpuPreset* base = nullptr;
    for (const gpu::GpuPreset& preset : gpu::allPresets())
        if (preset.computeMajor * 10 + preset.computeMinor <= device.computeMajor * 10 + device.computeMinor)
            base = &preset;
    return base != nullptr ? *base : *gpu::findPreset("sm_90");
}

std::string number(double value, int decimals)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

} // namespace

SessionPreset sessionPreset(const Session& session)
{
    SessionPreset out;
    out.preset = *gpu::findPreset("sm_90");
    out.dramSource = "the H100 SXM preset's datasheet figure";
    if (session.devices.empty() || session.devices.front().computeMajor == 0)
        return out;
    const DeviceRecord& d = session.devices.front();
    gpu::GpuPreset p = basePreset(d);
    const std::string baseName(p.name);
    auto positive = [](auto value, auto fallback) { return value > 0 ? value : fallback; };
    p.name = keep(d.name.empty() ? baseName : d.name);
    p.computeMajor = d.computeMajor;
    p.computeMinor = d.computeMinor;
    p.arch = keep("sm_" + std::to_string(d.computeMajor) + std::to_string(d.computeMinor));
    p.smCount = positive(d.smCount, p.smCount);
    p.maxThreadsPerSm = positive(d.maxThreadsPerSm, p.maxThreadsPerSm);
    p.maxBlocksPerSm = positive(d.maxBlocksPerSm, p.maxBlocksPerSm);
    p.maxThreadsPerBlock = positive(d.maxThreadsPerBlock, p.maxThreadsPerBlock);
    p.registersPerSm = positive(d.registersPerSm, p.registersPerSm);
    p.registersPerBlock = positive(d.registersPerBlock, p.registersPerBlock);
    p.sharedPerSm = positive(static_cast<std::size_t>(d.sharedPerSm), p.sharedPerSm);
    p.sharedPerBlock = positive(static_cast<std::size_t>(d.sharedPerBlock), p.sharedPerBlock);
    p.sharedPerBlockOptin = positive(static_cast<std::size_t>(d.sharedPerBlockOptin), p.sharedPerBlockOptin);
    if (d.reservedSharedPerBlock > 0)
        p.reservedSharedPerBlock = static_cast<std::size_t>(d.reservedSharedPerBlock);
    p.timing.coreClockMHz = positive(d.coreClockKHz / 1000.0, p.timing.coreClockMHz);
    p.timing.l2Bytes = positive(static_cast<std::size_t>(d.l2Bytes), p.timing.l2Bytes);
    const double attributeGBps = 2.0 * d.memoryClockKHz * 1e3 * (d.memoryBusWidthBits / 8.0) / 1e9;
    if (session.ceilings && session.ceilings->measuredDramGBps > 0) {
        p.timing.dramBandwidthGBps = session.ceilings->measuredDramGBps;
        out.dramSource = "measured on this GPU: " + session.ceilings->measuredDramMethod + " (" +
                         number(session.ceilings->measuredDramGBps, 0) + " GB/s)";
    } else if (attributeGBps > 0) {
        p.timing.dramBandwidthGBps = attributeGBps;
        out.dramSource = "2 x memory clock x bus width from the device record (" + number(attributeGBps, 0) + " GB/s)";
    } else {
        out.dramSource = "the " + baseName + " preset's datasheet figure";
    }
    // The probe's contended-atomic microbenchmark, where the session has it: cycles per update of one
    // address at the session's clock replace the preset's assumed rate.
    if (session.ceilings && session.ceilings->measuredAtomicUpdatesPerSecond > 0 && p.timing.coreClockMHz > 0) {
        p.timing.l2AtomicCyclesPerUpdate = p.timing.coreClockMHz * 1e6 / session.ceilings->measuredAtomicUpdatesPerSecond;
        out.atomicSource = "measured on this GPU: " + session.ceilings->measuredAtomicMethod + " (" +
                           number(session.ceilings->measuredAtomicUpdatesPerSecond / 1e6, 1) + " M updates/s, " +
                           number(p.timing.l2AtomicCyclesPerUpdate, 2) + " cycles each)";
    }
    p.source = keep("the session's device record (" + d.name + "); limits not recorded from the " + baseName + " preset");
    p.timing.source = keep(std::string(p.timing.source) + "; for this session: SMs, clock and L2 from its device record, "
                                                          "DRAM bandwidth " + out.dramSource +
                           (out.atomicSource.empty() ? std::string() : ", same-address atomics " + out.atomicSource));
    out.preset = p;
    out.fromDevice = true;
    return out;
}

} // namespace warpscope::session
