// warpscope-probe's work: resolve the targets, open the GPU, measure the ceilings, then for each
// kernel predict (simulator), check (gold or simulator), time (Activity) and count (Range
// Profiler), writing each record to the session stream as soon as it exists.
#include "probe_run.h"

#include "ceilings.h"
#include "activity_collector.h"
#include "cublas_reference.h"
#include "hierarchy.h"
#include "kernel_arguments.h"
#include "cupti_check.h"
#include "device_info.h"
#include "device_preset.h"
#include "driver_api.h"
#include "event_timer.h"
#include "gpu_check.h"
#include "kernel_target.h"
#include "predicted_time.h"
#include "probe_kernel_record.h"
#include "occupancy/occupancy.h"
#include "range_profiler.h"

#include <cupti_activity.h>
#include "session/metric_catalog.h"
#include "session/session_io.h"
#include "sim/simulator.h"
#include "sim/work_estimate.h"
#include "util/input_error.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <exception>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace warpscope::probe {

std::atomic<bool> g_cancelRequested{false};

namespace {

constexpr std::uint64_t kMaxBufferBytes = std::uint64_t{4} << 30; // per argument buffer, GPU-sized launches included

std::string utcNow()
{
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

std::string hostName()
{
    char name[256] = {};
    gethostname(name, sizeof name - 1);
    return name;
}

// The targets with ladder:NAME expanded into the ladder's rungs, in manifest order.
std::vector<std::string> expandTargets(const std::vector<std::string>& targets)
{
    std::vector<std::string> out;
    for (const std::string& target : targets) {
        if (!target.starts_with("ladder:")) {
            out.push_back(target);
            continue;
        }
        const std::string ladder = target.substr(7);
        std::string known;
        for (const kernels::DemoKernel& kernel : kernels::demoKernels()) {
            if (kernel.ladder == ladder)
                out.push_back(kernel.id);
            if (!kernel.ladder.empty() && known.find(kernel.ladder) == std::string::npos)
                known += (known.empty() ? "" : ", ") + kernel.ladder;
        }
        if (out.empty() || std::none_of(kernels::demoKernels().begin(), kernels::demoKernels().end(),
                                        [&](const kernels::DemoKernel& k) { return k.ladder == ladder; }))
            throw InputError("'" + target + "' names no demo ladder (known ladders: " + known + ")");
    }
    return out;
}

template <typename T>
session::Dim3 toDim3(T x, T y, T z)
{
    return {static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), static_cast<std::uint32_t>(z)};
}

struct Target {
    kernels::ResolvedTarget resolved;
    session::KernelRecord record;
};

class ProbeSession {
public:
    ProbeSession(const ProbeOptions& options, std::ostream& out, std::ostream& err)
        : m_options(options), m_writer(out), m_err(err), m_started(std::chrono::steady_clock::now())
    {
    }

    int run();

private:
    int runOnDevice(std::vector<Target>& targets);
    void progress(const std::string& stage, const std::string& kernel, int steps)
    {
        m_done += steps;
        m_writer.write(session::ProgressRecord{stage, kernel, m_done, m_total});
    }
    void log(const std::string& level, const std::string& message)
    {
        m_writer.write(session::LogRecord{level, message});
        m_err << "warpscope-probe: " << message << "\n";
    }
    int finish(const std::string& status, ProbeExit code)
    {
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_started).count();
        m_writer.write(session::EndRecord{status, seconds});
        return static_cast<int>(code);
    }
    int fail(const std::string& code, const std::string& message, const std::string& kernel, ProbeExit exit)
    {
        m_writer.write(session::ErrorRecord{code, message, kernel, true});
        m_err << "warpscope-probe: " << message << "\n";
        return finish("error", exit);
    }
    bool cancelled() const { return g_cancelRequested.load(); }
    // --cache-control all: writes a buffer twice L2's size, so nothing a kernel reads is still in L2.
    void flushL2()
    {
        if (m_flush == 0)
            return;
        WS_CU(m_driver->cuMemsetD8(m_flush, static_cast<unsigned char>(++m_flushValue), m_flushBytes));
        WS_CU(m_driver->cuCtxSynchronize());
    }
    std::function<void()> flusher()
    {
        if (m_flush == 0)
            return {};
        return [this] { flushL2(); };
    }
    void measureSgemmReference(const std::vector<Target>& targets, session::CeilingsRecord& ceilings);
    bool profileKernel(Target& target, const DriverApi& d, const session::DeviceRecord& device, const gpu::GpuPreset& preset);

    const ProbeOptions& m_options;
    session::SessionWriter m_writer;
    std::ostream& m_err;
    std::chrono::steady_clock::time_point m_started;
    std::unique_ptr<RangeProfiler> m_profiler;
    std::vector<std::string> m_metrics;
    int m_done = 0, m_total = 0;
    bool m_anyMismatch = false;
    bool m_activity = true;            // false: another tool holds CUPTI Activity; timed with CUDA events
    const DriverApi* m_driver = nullptr;
    CUdeviceptr m_flush = 0;
    std::size_t m_flushBytes = 0;
    unsigned m_flushValue = 0;
};

int ProbeSession::run()
{
    // Everything the user typed is checked before the GPU is touched. Where no driver loads nothing
    // will be measured: the input is still checked (bad input exits 2 before "no GPU" exits 3), at
    // the simulator's sizes, so a machine without a GPU does not first build a GPU's gigabytes of
    // inputs.
    m_metrics = session::resolveMetricSet(m_options.metrics);
    bool driverLoads = true;
    try {
        loadDriver();
    } catch (const DriverUnavailable&) {
        driverLoads = false;
    }
    std::vector<Target> targets;
    for (const std::string& name : expandTargets(m_options.targets)) {
        kernels::TargetRequest request;
        request.target = name;
        request.kernel = m_options.kernel;
        request.grid = m_options.grid;
        request.block = m_options.block;
        request.smem = m_options.smem;
        request.args = m_options.args;
        request.size = m_options.size == "gpu" && driverLoads ? kernels::LaunchSize::Gpu : kernels::LaunchSize::Sim;
        request.maxBufferBytes = kMaxBufferBytes;
        request.compute = m_options.compute;
        Target target{kernels::resolveTarget(request), {}};
        target.record = probeKernelRecord(target.resolved, m_options);
        for (const Target& other : targets)
            if (other.record.id == target.record.id)
                throw InputError("'" + name + "' is named twice");
        targets.push_back(std::move(target));
    }

    m_writer.write(session::SessionHeader{session::kFormatName, session::kFormatVersion,
                                          std::string("warpscope-probe ") + WARPSCOPE_VERSION, utcNow(), hostName()});
    try {
        return runOnDevice(targets);
    } catch (const std::exception& error) {
        // Anything unexpected still ends the stream properly, so the app keeps what was measured.
        return fail("probe_failed", error.what(), "", ProbeExit::Failure);
    }
}

int ProbeSession::runOnDevice(std::vector<Target>& targets)
{
    const DriverApi* driver = nullptr;
    try {
        driver = &loadDriver();
        const int count = deviceCount(*driver);
        if (count == 0)
            throw DriverUnavailable("no_device", "the NVIDIA driver reports no GPU");
        if (m_options.device >= count)
            return fail("bad_input", "--device " + std::to_string(m_options.device) + " does not exist (this machine has " +
                                         std::to_string(count) + " GPU" + (count == 1 ? "" : "s") + ", 0.." +
                                         std::to_string(count - 1) + ")",
                        "", ProbeExit::BadInput);
    } catch (const DriverUnavailable& error) {
        return fail(error.code, error.what(), "", ProbeExit::NoGpu);
    }
    const DriverApi& d = *driver;
    session::DeviceRecord device = queryDevice(d, m_options.device);
    if (device.computeMajor * 10 + device.computeMinor < 75)
        return fail("unsupported_device",
                    device.name + " has compute capability " + std::to_string(device.computeMajor) + "." +
                        std::to_string(device.computeMinor) + "; CUDA 13 and the Range Profiler need 7.5 or newer",
                    "", ProbeExit::NoGpu);
    if (const std::string tooNew = computeTooNewForDevice(m_options.compute, m_options.device, device.name,
                                                          device.computeMajor, device.computeMinor);
        !tooNew.empty())
        return fail("bad_input", tooNew, "", ProbeExit::BadInput);

    CUdevice cuDevice = 0;
    WS_CU(d.cuDeviceGet(&cuDevice, m_options.device));
    CUcontext context = nullptr;
    WS_CU(d.cuDevicePrimaryCtxRetain(&context, cuDevice));
    WS_CU(d.cuCtxSetCurrent(context));
    m_driver = &d;
    m_activity = startActivity();
    device.cuptiVersion = cuptiVersionText();
    if (m_options.cacheControl == "all") {
        m_flushBytes = std::max<std::size_t>(2 * device.l2Bytes, std::size_t{8} << 20);
        WS_CU(d.cuMemAlloc(&m_flush, m_flushBytes));
    }
    struct FreeFlush {
        ProbeSession& session;
        ~FreeFlush()
        {
            if (session.m_flush)
                session.m_driver->cuMemFree(session.m_flush);
            session.m_flush = 0;
        }
    } freeFlush{*this};

    if (!m_activity) {
        // Under ncu or nsys: that tool owns CUPTI and measures the counters itself.
        log("warning", "another tool holds CUPTI (CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED: running under ncu "
                       "or nsys?): timing with CUDA events instead, and no counters from the probe");
        device.countersAllowed = false;
        device.countersMessage = "another profiler holds CUPTI (ncu or nsys): its own report has the counters";
    } else if (m_options.counters) {
        try {
            m_profiler = std::make_unique<RangeProfiler>(context, m_options.device, m_metrics);
            device.chip = m_profiler->chipName();
        } catch (const CountersNotPermitted& error) {
            device.countersAllowed = false;
            device.countersMessage = counterPermissionHelp();
            m_writer.write(session::ErrorRecord{"counters_not_permitted", error.what(), "", false});
            m_err << "warpscope-probe: " << error.what() << "\n";
        }
    } else {
        device.countersAllowed = false;
        device.countersMessage = "counters not requested (--no-counters)";
    }
    m_writer.write(device);

    const int passes = m_profiler ? static_cast<int>(m_profiler->passes()) : 0;
    m_total = (m_options.ceilings ? 1 : 0) + (m_options.hierarchy ? 1 : 0) +
              static_cast<int>(targets.size()) * (2 + m_options.runs + passes);
    if (m_profiler && !m_profiler->unavailable().empty()) {
        std::string names;
        for (const std::string& name : m_profiler->unavailable())
            names += (names.empty() ? "" : ", ") + name;
        log("warning", "not available on " + device.chip + ": " + names);
    }

    std::optional<session::CeilingsRecord> measuredCeilings;
    if (m_options.ceilings) {
        session::CeilingsRecord ceilings = theoreticalCeilings(device);
        measureCeilings(d, device, ceilings);
        measureSgemmReference(targets, ceilings);
        harvestActivity(); // the ceiling runs are not the user's kernels
        m_writer.write(ceilings);
        progress("ceilings", "", 1);
        measuredCeilings = ceilings;
    }
    if (m_options.hierarchy && !cancelled()) {
        m_writer.write(measureHierarchy(d, device, flusher()));
        harvestActivity();
        progress("hierarchy", "", 1);
    }
    if (cancelled())
        return finish("cancelled", ProbeExit::Cancelled);

    // The preset `session validate-timing` will build from this session (its device record and the
    // copy bandwidth just measured), so predicted and measured times are compared on one GPU model.
    const session::SessionPreset devicePreset = presetFromRecord(device, measuredCeilings ? &*measuredCeilings : nullptr);
    log("info", "the simulator's preset for predictions: " + std::string(devicePreset.preset.source) +
                    "; DRAM bandwidth " + devicePreset.dramSource);
    for (Target& target : targets) {
        if (cancelled())
            return finish("cancelled", ProbeExit::Cancelled);
        try {
            if (!profileKernel(target, d, device, devicePreset.preset))
                return finish("cancelled", ProbeExit::Cancelled);
        } catch (const DriverError& error) {
            // A fault leaves the context unusable (CUDA errors are sticky): stop here, keep what we have.
            return fail("kernel_failed", target.record.id + ": " + error.what(), target.record.id, ProbeExit::Failure);
        } catch (const CuptiError& error) {
            return fail("cupti_failed", target.record.id + ": " + error.what(), target.record.id, ProbeExit::Failure);
        }
    }
    stopActivity();
    m_profiler.reset();
    if (m_flush != 0)
        d.cuMemFree(m_flush);
    m_flush = 0;
    d.cuDevicePrimaryCtxRelease(cuDevice);
    return finish("ok", m_anyMismatch ? ProbeExit::Failure : ProbeExit::Ok);
}

bool ProbeSession::profileKernel(Target& target, const DriverApi& d, const session::DeviceRecord& device,
                                 const gpu::GpuPreset& preset)
{
    const kernels::ResolvedTarget& r = target.resolved;
    const std::string& id = target.record.id;
    m_writer.write(target.record);

    // The driver compiles the PTX first: its register count sets how many blocks share an SM, which
    // the timing model needs (the simulator does not allocate registers). A module that does not
    // load still gets its prediction, with ptxas's count (32 without ptxas), before the error stops the
    // session.
    CUmodule module = nullptr;
    char jitLog[8192] = {};
    CUjit_option jitOptions[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void* jitValues[] = {jitLog, reinterpret_cast<void*>(static_cast<std::uintptr_t>(sizeof jitLog))};
    const CUresult loaded = d.cuModuleLoadDataEx(&module, r.ptxText.c_str(), 2, jitOptions, jitValues);
    struct Unload {
        const DriverApi& d;
        CUmodule module;
        ~Unload()
        {
            if (module != nullptr)
                d.cuModuleUnload(module);
        }
    } unload{d, loaded == CUDA_SUCCESS ? module : nullptr};
    CUfunction function = nullptr;
    int registers = 0, staticShared = 0;
    if (loaded == CUDA_SUCCESS) {
        WS_CU(d.cuModuleGetFunction(&function, module, r.function->name.c_str()));
        if (r.launch.dynamicSharedBytes > 48 * 1024)
            WS_CU(d.cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                       static_cast<int>(r.launch.dynamicSharedBytes)));
        WS_CU(d.cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, function));
        WS_CU(d.cuFuncGetAttribute(&staticShared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, function));
    }

    // A module the driver did not load: ptxas's count for the preset's GPU, where ptxas is installed.
    if (registers == 0)
        registers = ptxasRegisters(r.ptxText, r.function->name, std::string(preset.arch));
    // The simulator's prediction, and its outputs (the reference for files without a gold).
    sim::LaunchRequest request = kernels::targetLaunchRequest(r, preset);
    request.options.timing = true; // the predicted time a session compares with the measured one
    // The GPU schedules a warp's threads independently (every preset is Volta or newer): a kernel whose
    // lanes wait for each other (a spin lock in a warp) completes there, and so must its reference.
    // Race-free kernels give the same results and counters under either model (WarpModel tests).
    request.options.warpModel = sim::WarpModel::IndependentThreads;
    if (registers > 0)
        request.options.registersPerThread = registers;
    request.options.hostThreads = 0;
    request.options.maxBufferBytes = kMaxBufferBytes;
    const std::uint64_t blocks = static_cast<std::uint64_t>(r.launch.grid.volume());
    request.options.sampleBlocks = m_options.sampleBlocks;
    // A cooperative launch is simulated whole: a sample of blocks cannot pass its grid barriers, and the
    // grid is at most what the GPU holds at once (sim/grid_barrier.h, checked with the driver's registers).
    request.options.cooperative = m_options.cooperative;
    if (m_options.sampleBlocks == 0 && blocks > kAutoSampleBlocks && !m_options.cooperative) {
        // Automatic: as many blocks as fit in kAutoSampleSeconds on this machine, from a
        // few-block estimate (a 4096² register-tiled matmul would otherwise take minutes).
        try {
            const sim::WorkEstimate estimate = sim::estimateWork(request);
            request.options.sampleBlocks = autoSampleBlocks(blocks, estimate.finished ? estimate.seconds : 0.0);
        } catch (const InputError&) {
            request.options.sampleBlocks = kAutoSampleBlocks; // the simulation below reports it
        }
    }
    std::optional<sim::SimResult> simulated;
    try {
        simulated = sim::simulate(request);
        if (simulated->status != sim::SimStatus::Completed) {
            log("warning", id + ": no prediction: " + simulated->statusMessage);
            simulated.reset();
        } else {
            session::PredictionRecord prediction = predictionFrom(id, *simulated, *r.function, preset, r.launch, registers);
            fillPredictedTime(prediction, *simulated, preset, registers);
            if (prediction.predictedNs <= 0)
                log("warning", id + ": no predicted time: the timing model did not complete (its records passed "
                               "its memory limit)");
            m_writer.write(prediction);
        }
    } catch (const InputError& error) {
        log("warning", id + ": no prediction: " + error.what());
    }
    progress("prediction", id, 1);

    if (loaded != CUDA_SUCCESS) {
        std::string why = jitLog;
        while (!why.empty() && (why.back() == '\n' || why.back() == '\0'))
            why.pop_back();
        try {
            check(loaded, "cuModuleLoadDataEx");
        } catch (const DriverError& error) {
            throw DriverError(loaded, std::string(error.what()) + (why.empty() ? "" : ": " + why));
        }
    }

    KernelArguments args(d, r.launch.args);
    auto launchAsync = [&] {
        const auto gx = static_cast<unsigned>(r.launch.grid.x), gy = static_cast<unsigned>(r.launch.grid.y),
                   gz = static_cast<unsigned>(r.launch.grid.z);
        const auto bx = static_cast<unsigned>(r.launch.block.x), by = static_cast<unsigned>(r.launch.block.y),
                   bz = static_cast<unsigned>(r.launch.block.z);
        const auto shared = static_cast<unsigned>(r.launch.dynamicSharedBytes);
        // --cooperative: the driver provides the grid workspace grid.sync() reads, and refuses a grid
        // larger than the GPU holds at once (CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE).
        if (m_options.cooperative)
            WS_CU(d.cuLaunchCooperativeKernel(function, gx, gy, gz, bx, by, bz, shared, nullptr, args.params()));
        else
            WS_CU(d.cuLaunchKernel(function, gx, gy, gz, bx, by, bz, shared, nullptr, args.params(), nullptr));
    };
    auto launch = [&] {
        launchAsync();
        WS_CU(d.cuCtxSynchronize());
    };

    // 1. Correctness: the first run's outputs against the gold reference or the simulator.
    launch();
    const std::vector<sim::ResolvedArg> outputs = args.download();
    session::CheckRecord check;
    check.kernel = id;
    // Approximate instructions (tanhf with fast math, __sinf far out, half-precision ex2) widen
    // the float tolerance to what the PTX ISA lets the GPU differ by.
    const ApproximationTolerance approximations = approximationTolerance(*r.module, *r.function);
    if (simulated && simulated->stats.scaledFromSample) {
        // A block sample ran: its blocks' outputs are the reference (the gold reference would need
        // the whole GPU-sized launch on one CPU core).
        check.reference = "simulator";
        std::uint64_t compared = 0;
        check.detail = compareBuffers(outputs, simulated->args, &r.launch.args, &compared, r.demo, approximations.tolerance);
        check.matches = check.detail.empty();
        if (check.matches)
            check.detail = "the " + std::to_string(compared) + " output elements the " +
                           std::to_string(simulated->stats.blocksSimulated) +
                           " sampled blocks wrote equal the simulator's (integers exactly, floats within " +
                           floatToleranceText(r.demo, outputs, approximations) + ")";
    } else if (r.demo && !r.demo->gold.empty()) {
        kernels::DemoKernel widened = *r.demo;
        for (kernels::DemoCheck& c : widened.checks)
            for (const sim::ResolvedArg& arg : r.launch.args)
                if (arg.name == c.buffer && sim::isFloatElement(arg.type))
                    c.tolerance = floatToleranceFor(r.demo, c.buffer, approximations.tolerance);
        check.reference = "gold";
        try {
            const kernels::GoldComparison gold = kernels::compareWithGold(widened, r.launch, outputs);
            check.matches = gold.matches;
            check.detail = gold.detail;
        } catch (const InputError& error) {
            check.detail = std::string("not compared: ") + error.what();
        }
    } else if (simulated) {
        check.reference = "simulator";
        check.detail = compareBuffers(outputs, simulated->args, nullptr, nullptr, r.demo, approximations.tolerance);
        check.matches = check.detail.empty();
        if (check.matches)
            check.detail = "every buffer equals the simulator's (integers exactly, floats within " +
                           floatToleranceText(r.demo, outputs, approximations) + ")";
    } else {
        check.reference = "none";
        check.detail = "no gold reference and no simulator result to compare with";
    }
    m_writer.write(check);
    if (!check.matches && check.reference != "none") {
        m_anyMismatch = true;
        m_writer.write(session::ErrorRecord{"mismatch", id + ": the GPU's outputs differ from the " + check.reference +
                                                            " reference: " + check.detail, id, false});
    }
    const ActivityHarvest first = harvestActivity();
    for (const MemcpyActivity& copy : first.memcpys) {
        const char* direction = copy.kind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD   ? "HtoD"
                                : copy.kind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH ? "DtoH"
                                : copy.kind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOD ? "DtoD"
                                                                                : "other";
        m_writer.write(session::MemcpyRecord{id, direction, copy.bytes, copy.endNs - copy.startNs});
    }
    progress("check", id, 1);
    if (cancelled())
        return false;

    // 2. Timing: each run on freshly uploaded inputs (and, with cache control, L2 flushed after the
    // upload), durations from the Activity records, or from CUDA events when another tool holds CUPTI.
    std::vector<std::uint64_t> eventDurations;
    std::optional<EventTimer> events;
    if (!m_activity)
        events.emplace(d);
    for (int run = 0; run < m_options.runs; ++run) {
        args.upload();
        flushL2();
        if (m_activity) {
            launch();
        } else {
            const float ms = events->milliseconds(launchAsync);
            eventDurations.push_back(static_cast<std::uint64_t>(std::llround(static_cast<double>(ms) * 1e6)));
        }
        progress("timing", id, 1);
        if (cancelled())
            return false;
    }
    const ActivityHarvest timed = harvestActivity();
    session::ActivityRecord activity;
    activity.kernel = id;
    activity.timer = m_activity ? "cupti_activity" : "cuda_events";
    activity.durationsNs = eventDurations;
    if (!m_activity) {
        activity.registersPerThread = registers;
        activity.staticSharedBytes = static_cast<std::uint64_t>(staticShared);
        activity.dynamicSharedBytes = r.launch.dynamicSharedBytes;
        activity.grid = toDim3(r.launch.grid.x, r.launch.grid.y, r.launch.grid.z);
        activity.block = toDim3(r.launch.block.x, r.launch.block.y, r.launch.block.z);
    }
    activity.droppedRecords = timed.dropped + first.dropped;
    for (const KernelActivity& k : timed.kernels) {
        if (k.name != r.function->name)
            continue;
        activity.durationsNs.push_back(k.endNs - k.startNs);
        activity.registersPerThread = k.registersPerThread;
        activity.staticSharedBytes = static_cast<std::uint64_t>(k.staticShared);
        activity.dynamicSharedBytes = static_cast<std::uint64_t>(k.dynamicShared);
        activity.localBytesPerThread = k.localPerThread;
        activity.grid = toDim3(k.grid[0], k.grid[1], k.grid[2]);
        activity.block = toDim3(k.block[0], k.block[1], k.block[2]);
    }
    if (activity.droppedRecords > 0)
        log("warning", id + ": CUPTI dropped " + std::to_string(activity.droppedRecords) + " activity records");
    m_writer.write(activity);

    // 3. Theoretical occupancy with the device's limits and the kernel's real registers.
    occupancy::OccupancyInput input;
    input.threadsPerBlock = static_cast<int>(r.launch.block.volume());
    input.registersPerThread = std::max(1, registers);
    input.staticSharedBytes = static_cast<std::size_t>(staticShared);
    input.dynamicSharedBytes = r.launch.dynamicSharedBytes;
    try {
        const occupancy::OccupancyResult result = occupancy::computeOccupancy(preset, input);
        session::OccupancyRecord o;
        o.kernel = id;
        o.theoretical = result.occupancy;
        o.activeBlocksPerSm = result.activeBlocksPerSm;
        o.registersPerThread = registers;
        o.limiter = result.binding.empty() ? "" : std::string(occupancy::limiterKey(result.binding.front()));
        const double perWave = static_cast<double>(result.activeBlocksPerSm) * device.smCount;
        o.waves = perWave > 0 ? static_cast<double>(r.launch.grid.volume()) / perWave : 0;
        m_writer.write(o);
    } catch (const InputError& error) {
        log("warning", id + ": no theoretical occupancy: " + error.what());
    }

    // 4. Counters: one more launch on fresh inputs, replayed once per pass by CUPTI.
    if (m_profiler) {
        args.upload();
        RangeMeasurement measured;
        try {
            if (m_flush != 0) {
                // Every pass starts as cold as a timed run: the probe replays, restoring the inputs
                // and flushing L2 before each pass. Where user replay is refused, CUPTI replays.
                try {
                    measured = m_profiler->measure(launch, [&] {
                        args.upload();
                        flushL2();
                    });
                } catch (const CuptiError& error) {
                    log("warning", id + ": user replay refused (" + error.what() +
                                       "); counters measured with kernel replay, L2 not flushed between passes");
                    args.upload();
                    flushL2();
                    measured = m_profiler->measure(launch);
                }
            } else {
                measured = m_profiler->measure(launch);
            }
        } catch (const CountersNotPermitted& error) {
            // Refused only at the first measurement: keep the timings, stop asking for counters.
            m_writer.write(session::ErrorRecord{"counters_not_permitted", error.what(), "", false});
            m_err << "warpscope-probe: " << error.what() << "\n";
            m_profiler.reset();
            return true;
        }
        harvestActivity(); // replayed launches are not timing runs
        session::MetricsRecord metrics;
        metrics.kernel = id;
        metrics.passes = static_cast<int>(m_profiler->passes());
        metrics.replay = measured.replay;
        metrics.values = measured.values;
        metrics.units = m_profiler->units();
        metrics.unavailable = m_profiler->unavailable();
        m_writer.write(metrics);
        if (measured.rangesDropped > 0)
            log("warning", id + ": the range profiler dropped " + std::to_string(measured.rangesDropped) + " ranges");
        progress("counters", id, metrics.passes);
    }
    return true;
}

void ProbeSession::measureSgemmReference(const std::vector<Target>& targets, session::CeilingsRecord& ceilings)
{
    const Target* matmul = nullptr;
    for (const Target& target : targets)
        if (target.resolved.demo && target.resolved.demo->ladder == "matmul") {
            matmul = &target;
            break;
        }
    if (!matmul)
        return;
    const std::vector<sim::ResolvedArg>& args = matmul->resolved.launch.args;
    auto find = [&](const std::string& name) -> const sim::ResolvedArg* {
        for (const sim::ResolvedArg& arg : args)
            if (arg.name == name)
                return &arg;
        return nullptr;
    };
    const sim::ResolvedArg *a = find("A"), *b = find("B"), *n = find("n");
    if (!a || !b || !n || a->type != sim::ElementType::F32 || b->type != sim::ElementType::F32) {
        ceilings.referenceSgemmMethod = "not measured: " + matmul->record.id + " has no float A, B and n arguments";
        return;
    }
    const int size = static_cast<int>(n->integerValue);
    std::vector<float> matrixA(a->bytes.size() / sizeof(float)), matrixB(b->bytes.size() / sizeof(float));
    std::memcpy(matrixA.data(), a->bytes.data(), matrixA.size() * sizeof(float));
    std::memcpy(matrixB.data(), b->bytes.data(), matrixB.size() * sizeof(float));
    const SgemmReference reference = measureCublasSgemm(*m_driver, size, matrixA, matrixB, 5, flusher());
    if (!reference.measured) {
        ceilings.referenceSgemmMethod = "not measured: " + reference.why;
        log("warning", "cuBLAS SGEMM reference " + ceilings.referenceSgemmMethod);
        return;
    }
    if (!reference.matches) {
        ceilings.referenceSgemmMethod = "not used: its result failed the check: " + reference.check;
        log("warning", "cuBLAS SGEMM reference " + ceilings.referenceSgemmMethod);
        return;
    }
    ceilings.referenceSgemmGflops = reference.gflops;
    ceilings.referenceSgemmN = size;
    ceilings.referenceSgemmMethod = reference.method + "; checked: " + reference.check;
}

} // namespace

int runProbe(const ProbeOptions& options, std::ostream& err)
{
    std::ofstream file;
    if (!options.out.empty()) {
        file.open(options.out, std::ios::binary | std::ios::trunc);
        if (!file)
            throw InputError("--out: cannot write '" + options.out + "'");
    }
    ProbeSession session(options, options.out.empty() ? std::cout : file, err);
    return session.run();
}

int listDevices(const ProbeOptions& options, std::ostream& out, std::ostream& err)
{
    try {
        const DriverApi& d = loadDriver();
        const int count = deviceCount(d);
        if (count == 0)
            throw DriverUnavailable("no_device", "the NVIDIA driver reports no GPU");
        std::vector<session::DeviceRecord> devices;
        for (int i = 0; i < count; ++i)
            devices.push_back(queryDevice(d, i));
        if (options.json) {
            session::SessionWriter writer(out);
            for (const session::DeviceRecord& device : devices)
                writer.write(device);
        } else {
            for (const session::DeviceRecord& device : devices) {
                const session::CeilingsRecord c = theoreticalCeilings(device);
                out << device.ordinal << ": " << device.name << ", compute capability " << device.computeMajor << "."
                    << device.computeMinor << ", " << device.smCount << " SMs, " << device.coreClockKHz / 1000 << " MHz, "
                    << device.totalMemoryBytes / (1024 * 1024) << " MiB, " << static_cast<int>(c.theoreticalDramGBps)
                    << " GB/s DRAM (from attributes), driver " << device.driverVersion / 1000 << "."
                    << device.driverVersion % 1000 / 10 << (device.driverRelease.empty() ? "" : " (" + device.driverRelease + ")")
                    << "\n";
            }
        }
        return static_cast<int>(ProbeExit::Ok);
    } catch (const DriverUnavailable& error) {
        err << "warpscope-probe: " << error.what() << "\n";
        return static_cast<int>(ProbeExit::NoGpu);
    }
}

} // namespace warpscope::probe
