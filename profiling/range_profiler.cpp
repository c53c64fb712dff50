#include "range_profiler.h"

#include "cupti_check.h"

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

namespace warpscope::probe {

namespace {

std::vector<const char*> cStrings(const std::vector<std::string>& names)
{
    std::vector<const char*> out;
    for (const std::string& name : names)
        out.push_back(name.c_str());
    return out;
}

// Calls that meet the counter permission check rethrow it as CountersNotPermitted.
void checkCounters(CUptiResult result, const char* call)
{
    if (result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
        throw CountersNotPermitted(std::string(call) + ": CUPTI_ERROR_INSUFFICIENT_PRIVILEGES. " + counterPermissionHelp());
    checkCupti(result, call);
}

} // namespace

#define WS_COUNTERS(call) checkCounters(call, #call)

std::string counterPermissionHelp()
{
    return "GPU performance counters are restricted to administrators on this machine (ERR_NVGPUCTRPERM). "
           "To allow them for all users, load the NVIDIA kernel module with NVreg_RestrictProfilingToAdminUsers=0 "
           "(e.g. 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' in /etc/modprobe.d/nvidia-profiling.conf, "
           "then rebuild the initramfs and reboot), or run the probe as root. Kernel timings from the Activity API "
           "need no counters and are still measured.";
}

RangeProfiler::RangeProfiler(CUcontext context, int deviceOrdinal, const std::vector<std::string>& metrics)
    : m_context(context)
{
    CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    WS_COUNTERS(cuptiProfilerInitialize(&init));

    CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    chip.deviceIndex = static_cast<std::size_t>(deviceOrdinal);
    WS_COUNTERS(cuptiDeviceGetChipName(&chip));
    m_chip = chip.pChipName ? chip.pChipName : "";

    CUpti_Profiler_GetCounterAvailability_Params availability{CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
    availability.ctx = m_context;
    WS_COUNTERS(cuptiProfilerGetCounterAvailability(&availability));
    m_availability.resize(availability.counterAvailabilityImageSize);
    availability.pCounterAvailabilityImage = m_availability.data();
    WS_COUNTERS(cuptiProfilerGetCounterAvailability(&availability));

    initializeHost();
    if (!tryAddMetrics(metrics)) {
        // Find the names this chip does not know, one at a time, then configure the rest afresh.
        std::vector<std::string> known;
        for (const std::string& name : metrics) {
            deinitializeHost();
            initializeHost();
            if (tryAddMetrics({name}))
                known.push_back(name);
            else
                m_unavailable.push_back(name);
        }
        deinitializeHost();
        initializeHost();
        if (known.empty() || !tryAddMetrics(known))
            throw CuptiError(CUPTI_ERROR_INVALID_METRIC_NAME, "none of the requested metrics is available on " + m_chip);
        m_metrics = known;
    } else {
        m_metrics = metrics;
    }

    CUpti_Profiler_Host_GetConfigImageSize_Params size{CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    size.pHostObject = m_host;
    WS_CUPTI(cuptiProfilerHostGetConfigImageSize(&size));
    m_config.resize(size.configImageSize);
    CUpti_Profiler_Host_GetConfigImage_Params image{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    image.pHostObject = m_host;
    image.configImageSize = m_config.size();
    image.pConfigImage = m_config.data();
    WS_CUPTI(cuptiProfilerHostGetConfigImage(&image));

    CUpti_Profiler_Host_GetNumOfPasses_Params passes{CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    passes.configImageSize = m_config.size();
    passes.pConfigImage = m_config.data();
    WS_CUPTI(cuptiProfilerHostGetNumOfPasses(&passes));
    m_passes = passes.numOfPasses;

    // Units once, not per kernel: they depend only on the chip and the metric names.
    for (const std::string& name : m_metrics) {
        CUpti_Profiler_Host_GetMetricProperties_Params properties{CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
        properties.pHostObject = m_host;
        properties.pMetricName = name.c_str();
        if (cuptiProfilerHostGetMetricProperties(&properties) == CUPTI_SUCCESS && properties.pDimUnit)
            m_units[name] = properties.pDimUnit;
    }
}

RangeProfiler::~RangeProfiler()
{
    deinitializeHost();
    CUpti_Profiler_DeInitialize_Params deinit{CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
    cuptiProfilerDeInitialize(&deinit);
}

void RangeProfiler::initializeHost()
{
    CUpti_Profiler_Host_Initialize_Params host{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    host.pChipName = m_chip.c_str();
    host.pCounterAvailabilityImage = m_availability.data();
    WS_CUPTI(cuptiProfilerHostInitialize(&host));
    m_host = host.pHostObject;
}

void RangeProfiler::deinitializeHost()
{
    if (m_host == nullptr)
        return;
    CUpti_Profiler_Host_Deinitialize_Params done{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    done.pHostObject = m_host;
    cuptiProfilerHostDeinitialize(&done);
    m_host = nullptr;
}

bool RangeProfiler::tryAddMetrics(const std::vector<std::string>& metrics)
{
    std::vector<const char*> names = cStrings(metrics);
    CUpti_Profiler_Host_ConfigAddMetrics_Params add{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    add.pHostObject = m_host;
    add.ppMetricNames = names.data();
    add.numMetrics = names.size();
    return cuptiProfilerHostConfigAddMetrics(&add) == CUPTI_SUCCESS;
}

RangeMeasurement RangeProfiler::measure(const std::function<void()>& launch, const std::function<void()>& beforePass)
{
    const bool userReplay = static_cast<bool>(beforePass);
    CUpti_RangeProfiler_Enable_Params enable{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    enable.ctx = m_context;
    WS_COUNTERS(cuptiRangeProfilerEnable(&enable));
    CUpti_RangeProfiler_Object* object = enable.pRangeProfilerObject;
    struct Disable {
        CUpti_RangeProfiler_Object* object;
        ~Disable()
        {
            CUpti_RangeProfiler_Disable_Params disable{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
            disable.pRangeProfilerObject = object;
            cuptiRangeProfilerDisable(&disable);
        }
    } disableOnExit{object};

    std::vector<const char*> names = cStrings(m_metrics);
    constexpr std::size_t kMaxRanges = 1; // auto range: one range per kernel launch, one launch
    CUpti_RangeProfiler_GetCounterDataSize_Params size{CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    size.pRangeProfilerObject = object;
    size.pMetricNames = names.data();
    size.numMetrics = names.size();
    size.maxNumOfRanges = kMaxRanges;
    size.maxNumRangeTreeNodes = kMaxRanges;
    WS_CUPTI(cuptiRangeProfilerGetCounterDataSize(&size));
    std::vector<std::uint8_t> counterData(size.counterDataSize);
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params image{CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    image.pRangeProfilerObject = object;
    image.counterDataSize = counterData.size();
    image.pCounterData = counterData.data();
    WS_CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&image));

    CUpti_RangeProfiler_SetConfig_Params config{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    config.pRangeProfilerObject = object;
    config.configSize = m_config.size();
    config.pConfig = m_config.data();
    config.counterDataImageSize = counterData.size();
    config.pCounterDataImage = counterData.data();
    config.range = CUPTI_AutoRange;
    config.replayMode = userReplay ? CUPTI_UserReplay : CUPTI_KernelReplay;
    config.maxRangesPerPass = kMaxRanges;
    config.numNestingLevels = 1;
    config.minNestingLevel = 1;
    config.passIndex = 0;
    config.targetNestingLevel = 1;
    WS_COUNTERS(cuptiRangeProfilerSetConfig(&config));

    // Kernel replay runs every pass inside the one launch, and the loop only guards the API
    // contract; user replay takes one round per pass.
    bool allSubmitted = false;
    for (int round = 0; !allSubmitted && round < 64; ++round) {
        if (userReplay)
            beforePass();
        CUpti_RangeProfiler_Start_Params start{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
        start.pRangeProfilerObject = object;
        WS_COUNTERS(cuptiRangeProfilerStart(&start));
        launch();
        CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
        stop.pRangeProfilerObject = object;
        WS_CUPTI(cuptiRangeProfilerStop(&stop));
        allSubmitted = stop.isAllPassSubmitted != 0;
    }
    if (!allSubmitted)
        throw CuptiError(CUPTI_ERROR_UNKNOWN, "the range profiler did not finish its passes after 64 rounds");

    CUpti_RangeProfiler_DecodeData_Params decode{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    decode.pRangeProfilerObject = object;
    WS_CUPTI(cuptiRangeProfilerDecodeData(&decode));

    CUpti_RangeProfiler_GetCounterDataInfo_Params info{CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    info.pCounterDataImage = counterData.data();
    info.counterDataImageSize = counterData.size();
    WS_CUPTI(cuptiRangeProfilerGetCounterDataInfo(&info));
    if (info.numTotalRanges < 1)
        throw CuptiError(CUPTI_ERROR_UNKNOWN, "the range profiler recorded no range for the launch (" +
                                                  std::to_string(decode.numOfRangeDropped) + " dropped)");

    std::vector<double> values(names.size());
    CUpti_Profiler_Host_EvaluateToGpuValues_Params evaluate{CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
    evaluate.pHostObject = m_host;
    evaluate.pCounterDataImage = counterData.data();
    evaluate.counterDataImageSize = counterData.size();
    evaluate.rangeIndex = 0;
    evaluate.ppMetricNames = names.data();
    evaluate.numMetrics = names.size();
    evaluate.pMetricValues = values.data();
    WS_CUPTI(cuptiProfilerHostEvaluateToGpuValues(&evaluate));

    RangeMeasurement out;
    out.replay = userReplay ? "user" : "kernel";
    out.rangesDropped = decode.numOfRangeDropped;
    for (std::size_t i = 0; i < names.size(); ++i)
        out.values[m_metrics[i]] = values[i];
    return out;
}

} // namespace warpscope::probe
