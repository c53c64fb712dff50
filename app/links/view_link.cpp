#include "links/view_link.h"

#include "demo_kernels.h"
#include "gpu/gpu_preset.h"
#include "numerics/amp_trainer.h"
#include "numerics/distributions.h"
#include "numerics/number_format.h"
#include "numerics/quant_config.h"
#include "training/collectives.h"
#include "training/memory_budget.h"
#include "util/input_error.h"
#include "util/parse.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::app {
namespace {

constexpr std::string_view kScheme = "warpscope:";

struct ViewSpec {
    std::string_view name;
    LinkView view;
    std::vector<std::string_view> keys;
};

const std::vector<ViewSpec>& viewSpecs()
{
    static const std::vector<ViewSpec> specs = {
        {"lesson", LinkView::Lesson, {"id"}},
        {"hierarchy", LinkView::Hierarchy, {"grid", "block"}},
        {"placement", LinkView::Placement, {"arch", "grid", "block", "regs", "static_smem", "dynamic_smem"}},
        {"occupancy", LinkView::Occupancy,
         {"arch", "block", "regs", "static_smem", "dynamic_smem", "carveout", "barriers"}},
        {"formats", LinkView::Formats, {"format", "value", "bits", "saturate"}},
        {"amp", LinkView::Amp, {"modes", "steps", "growth", "seed", "scale"}},
        {"quant", LinkView::Quant, {"dist", "format", "scheme", "granularity", "calib", "n", "seed", "rows", "layer"}},
        {"sparsity", LinkView::Sparsity, {"layer"}},
        {"step", LinkView::Step, {"kernel", "block", "warp", "at", "warp_model"}},
        {"memory", LinkView::Memory, {"kernel", "block", "warp", "at", "warp_model"}},
        {"streams", LinkView::Streams,
         {"h2d", "kernel", "d2h", "chunks", "engines", "chain", "kernel_us", "launch_us", "gap_us", "graph_us", "node_us"}},
        {"pipeline", LinkView::Pipeline, {"stages", "microbatches"}},
        {"memory-budget", LinkView::MemoryBudget,
         {"params", "precision", "optimizer", "zero", "gpus", "layers", "hidden", "heads", "seq", "batch", "recompute",
          "kv_heads"}},
        {"allreduce", LinkView::AllReduce, {"gpus", "bytes", "link", "step"}},
        {"profile", LinkView::Profile, {"session", "tab"}},
    };
    return specs;
}

std::string joined(const std::vector<std::string_view>& items)
{
    std::string text;
    for (std::string_view item : items)
        text += (text.empty() ? "" : ", ") + std::string(item);
    return text;
}

// Lesson links are typed by hand: decode %XX escapes so a link copied from a browser works too.
std::string percentDecoded(std::string_view text, const std::string& where)
{
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '%') {
            out += text[i];
            continue;
        }
        if (i + 2 >= text.size() || !std::isxdigit(static_cast<unsigned char>(text[i + 1])) ||
            !std::isxdigit(static_cast<unsigned char>(text[i + 2])))
            throw InputError(where + ": malformed %-escape (use %XX with two hex digits)");
        out += static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16));
        i += 2;
    }
    return out;
}

// A bit pattern in hex ("0x3C00" or "3C00") that fits the format (TF32: its FP32 word, low 13 bits 0).
std::uint32_t parsePattern(const std::string& text, numerics::Format format, const std::string& field)
{
    const numerics::FormatInfo& info = numerics::formatInfo(format);
    const int width = info.storageShift > 0 ? 32 : info.bits;
    const std::string digits = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X') ? text.substr(2) : text;
    const std::uint64_t limit = (std::uint64_t{1} << width) - 1;
    const std::uint64_t ignored = (std::uint64_t{1} << info.storageShift) - 1;
    const std::string allowed = " (allowed for " + std::string(info.key) + ": 0x0.." +
                                numerics::hexBits(format, static_cast<std::uint32_t>(limit & ~ignored)) + ")";
    bool hex = !digits.empty() && digits.size() <= 8;
    for (char c : digits)
        hex = hex && std::isxdigit(static_cast<unsigned char>(c));
    if (!hex)
        throw InputError(field + ": '" + text + "' is not a bit pattern in hex" + allowed);
    const std::uint64_t pattern = std::stoull(digits, nullptr, 16);
    if (pattern > limit)
        throw InputError(field + ": " + text + " is wider than " + std::to_string(width) + " bits" + allowed);
    if ((pattern & ignored) != 0)
        throw InputError(field + ": " + text + " sets some of the low " + std::to_string(info.storageShift) + " bits, which " +
                         std::string(info.key) + " does not have (it keeps the top " + std::to_string(info.bits) +
                         " bits of an FP32 word)");
    return static_cast<std::uint32_t>(pattern);
}

// --- the precision lab's views (amp, quant, sparsity)

bool isPrecisionLabView(LinkView view) { return view == LinkView::Amp || view == LinkView::Quant || view == LinkView::Sparsity; }

std::vector<std::string> parseAmpModes(const std::string& text, const std::string& field)
{
    const std::string allowed = " (allowed: " + numerics::ampModeKeys() + ", separated by commas)";
    std::vector<std::string> modes;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = text.find(',', start);
        const std::string mode = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        start = comma == std::string::npos ? text.size() + 1 : comma + 1;
        if (mode.empty())
            throw InputError(field + ": an empty mode in '" + text + "'" + allowed);
        if (mode.starts_with("fp16-static:"))
            throw InputError(field + ": '" + mode + "': write the static scale as scale=" + mode.substr(12) + " and the mode as fp16-static");
        if (!numerics::parseAmpMode(mode))
            throw InputError(field + ": unknown mode '" + mode + "'" + allowed);
        for (const std::string& earlier : modes)
            if (earlier == mode)
                throw InputError(field + ": mode '" + mode + "' is given twice");
        modes.push_back(mode);
    }
    return modes;
}

void parsePrecisionLabKey(ViewLink& link, const std::string& key, const std::string& value, const std::string& field)
{
    if (key == "modes") {
        link.ampModes = parseAmpModes(value, field);
    } else if (key == "steps") {
        link.steps = static_cast<int>(parseInteger(value, field, 1, kLinkMaxAmpSteps));
    } else if (key == "growth") {
        link.growthInterval = static_cast<int>(parseInteger(value, field, 1, 1000000));
    } else if (key == "scale") {
        const double scale = parseReal(value, field);
        if (!(scale >= 1.0 && scale <= 3.0e38))
            throw InputError(field + ": " + value + " is out of range (allowed: 1 to 3e38, e.g. 65536)");
        link.staticScale = scale;
    } else if (key == "seed") {
        link.seed = static_cast<std::uint64_t>(parseInteger(value, field, 0, 2147483647));
    } else if (key == "dist") {
        if (!numerics::parseDistribution(value) && value != "mlp-weights" && value != "mlp-activations")
            throw InputError(field + ": unknown data '" + value + "' (allowed: " + numerics::distributionKeys() +
                             ", mlp-weights, mlp-activations)");
        link.quantSource = value;
    } else if (key == "format") {
        numerics::parseQuantFormat(value, field);
        link.quantFormat = value;
    } else if (key == "scheme") {
        numerics::parseQuantScheme(value, field);
        link.quantScheme = value;
    } else if (key == "granularity") {
        numerics::QuantConfig scratch;
        numerics::parseGranularity(value, scratch, field);
        link.quantGranularity = value;
    } else if (key == "calib") {
        numerics::QuantConfig scratch;
        numerics::parseCalibrator(value, scratch, field);
        link.quantCalibrator = value;
    } else if (key == "n") {
        link.count = static_cast<std::size_t>(parseInteger(value, field, kLinkMinQuantValues, kLinkMaxQuantValues));
    } else if (key == "rows") {
        link.rows = static_cast<std::size_t>(parseInteger(value, field, 1, 1000000));
    } else if (key == "layer" && link.view == LinkView::Quant) {
        link.layer = static_cast<int>(parseInteger(value, field, 0, 2));
    } else if (key == "layer") {
        const auto layer = parseInteger(value, field, 0, 2);
        if (layer == 0)
            throw InputError(field + ": layer 0 has 2 inputs, too few for a group of 4, and stays dense (allowed: 1..2)");
        link.layer = static_cast<int>(layer);
    }
}

void parseStepKey(ViewLink& link, const std::string& key, const std::string& value, const std::string& field)
{
    if (key == "kernel") {
        if (!kernels::findDemoKernel(value))
            throw InputError(field + ": unknown kernel '" + value + "' (allowed: " + kernels::demoKernelIds() + ")");
        link.kernel = value;
    } else if (key == "block") { // blockIdx, not blockDim: components from 0, missing ones 0
        link.blockIndex = launch::parseIndex(value, field,
                                             {launch::LaunchLimits::maxGridX, launch::LaunchLimits::maxGridYZ,
                                              launch::LaunchLimits::maxGridYZ});
    } else if (key == "warp") {
        link.warp = static_cast<int>(parseInteger(value, field, 0, 31));
    } else if (key == "at") {
        link.at = static_cast<std::uint64_t>(parseInteger(value, field, 0, INT64_MAX));
    } else if (key == "warp_model") { // as `warpscope step --warp-model`
        if (value == "stack")
            link.warpModel = sim::WarpModel::ReconvergenceStack;
        else if (value == "its")
            link.warpModel = sim::WarpModel::IndependentThreads;
        else
            throw InputError(field + ": unknown warp model '" + value +
                             "' (allowed: stack, the pre-Volta reconvergence stack; its, Volta's independent thread scheduling)");
    }
}

// Checks between keys of one link (those that depend on the figure's current state are the window's).
void checkPrecisionLabLink(const ViewLink& link, const std::string& where)
{
    if (link.view == LinkView::Quant && link.quantFormat && link.quantScheme) {
        numerics::QuantConfig config;
        config.format = numerics::parseQuantFormat(*link.quantFormat);
        config.scheme = numerics::parseQuantScheme(*link.quantScheme);
        try {
            numerics::validateQuantConfig(config);
        } catch (const InputError& error) {
            throw InputError(where + ": " + error.what());
        }
    }
    if (link.view == LinkView::Quant && link.count && link.rows && *link.count % *link.rows != 0)
        throw InputError(where + ": rows " + std::to_string(*link.rows) + " does not divide n " + std::to_string(*link.count) +
                         " (the values are laid out as rows x (n / rows))");
}


// --- the Performance Models dock (streams, pipeline, memory-budget, allreduce) and profile links

bool isModelView(LinkView view)
{
    return view == LinkView::Streams || view == LinkView::Pipeline || view == LinkView::MemoryBudget ||
           view == LinkView::AllReduce || view == LinkView::Profile;
}

// A time in milliseconds: a finite decimal in 0..1e6.
double parseMilliseconds(const std::string& text, const std::string& field)
{
    const double ms = parseReal(text, field);
    if (!(ms >= 0 && ms <= kLinkMaxStreamMs))
        throw InputError(field + ": " + text + " is out of range (allowed: 0 to 1e6 ms, a decimal such as 2.5)");
    return ms;
}

// A time of the CUDA-graph model, in microseconds: 0 to 1e6 (GraphLaunchPanel's range).
double parseMicroseconds(const std::string& text, const std::string& field)
{
    const double us = parseReal(text, field);
    if (!(us >= 0 && us <= kLinkMaxChainUs))
        throw InputError(field + ": " + text + " is out of range (allowed: 0 to 1e6 us, a decimal such as 2.7)");
    return us;
}

// A buffer size: an integer number of bytes, or with a K, M or G suffix (KiB, MiB, GiB), 1 byte..1 TiB.
double parseBufferBytes(const std::string& text, const std::string& field)
{
    const std::string allowed = " (allowed: 1 to 1024G bytes, an integer with an optional K, M or G suffix: 64M, 1G)";
    std::string digits = text;
    double unit = 1;
    if (!digits.empty()) {
        const char suffix = static_cast<char>(std::toupper(static_cast<unsigned char>(digits.back())));
        if (suffix == 'K' || suffix == 'M' || suffix == 'G') {
            unit = suffix == 'K' ? 1024.0 : suffix == 'M' ? 1024.0 * 1024 : 1024.0 * 1024 * 1024;
            digits.pop_back();
        }
    }
    bool integer = !digits.empty() && digits.size() <= 15;
    for (char c : digits)
        integer = integer && std::isdigit(static_cast<unsigned char>(c));
    if (!integer)
        throw InputError(field + ": '" + text + "' is not a byte count" + allowed);
    const double bytes = static_cast<double>(std::stoll(digits)) * unit;
    if (bytes < 1 || bytes > kLinkMaxAllReduceBytes)
        throw InputError(field + ": " + text + " is out of range" + allowed);
    return bytes;
}

template <typename Enum, std::size_t N>
Enum parseKeyword(const std::string& text, const std::string& field, const Enum (&values)[N], std::string_view (*key)(Enum))
{
    std::vector<std::string_view> keys;
    for (Enum value : values) {
        if (key(value) == text)
            return value;
        keys.push_back(key(value));
    }
    throw InputError(field + ": unknown value '" + text + "' (allowed: " + joined(keys) + ")");
}

void parseModelKey(ViewLink& link, const std::string& key, const std::string& value, const std::string& field)
{
    auto integer = [&](std::int64_t low, std::int64_t high) { return static_cast<int>(parseInteger(value, field, low, high)); };
    switch (link.view) {
    case LinkView::Streams:
        if (key == "h2d")
            link.hostToDeviceMs = parseMilliseconds(value, field);
        else if (key == "kernel")
            link.kernelMs = parseMilliseconds(value, field);
        else if (key == "d2h")
            link.deviceToHostMs = parseMilliseconds(value, field);
        else if (key == "chunks")
            link.chunks = integer(1, kLinkMaxStreamChunks);
        else if (key == "engines")
            link.copyEngines = integer(1, 2);
        else if (key == "chain")
            link.chainKernels = integer(1, kLinkMaxChainKernels);
        else if (key == "kernel_us")
            link.chainKernelUs = parseMicroseconds(value, field);
        else if (key == "launch_us")
            link.launchUs = parseMicroseconds(value, field);
        else if (key == "gap_us")
            link.gapUs = parseMicroseconds(value, field);
        else if (key == "graph_us")
            link.graphUs = parseMicroseconds(value, field);
        else if (key == "node_us")
            link.nodeUs = parseMicroseconds(value, field);
        return;
    case LinkView::Pipeline:
        if (key == "stages")
            link.stages = integer(1, kLinkMaxPipelineStages);
        else if (key == "microbatches")
            link.microbatches = integer(1, kLinkMaxMicrobatches);
        return;
    case LinkView::MemoryBudget:
        if (key == "params") {
            const double parameters = parseReal(value, field);
            if (!(parameters > 0 && parameters <= kLinkMaxParameters))
                throw InputError(field + ": " + value + " is out of range (allowed: more than 0, at most 1e13, e.g. 7e9)");
            link.parameters = parameters;
        } else if (key == "precision") {
            static constexpr training::Precision kPrecisions[] = {training::Precision::Fp32, training::Precision::Mixed16,
                                                                  training::Precision::Inference16,
                                                                  training::Precision::InferenceInt8};
            link.precision = parseKeyword(value, field, kPrecisions, &training::precisionKey);
        } else if (key == "optimizer") {
            static constexpr training::Optimizer kOptimizers[] = {training::Optimizer::Adam, training::Optimizer::SgdMomentum,
                                                                  training::Optimizer::Sgd};
            link.optimizer = parseKeyword(value, field, kOptimizers, &training::optimizerKey);
        } else if (key == "zero") {
            link.zeroStage = integer(0, 3);
        } else if (key == "gpus") {
            link.gpus = integer(1, kLinkMaxDataParallel);
        } else if (key == "layers") {
            link.layers = integer(0, 1000);
        } else if (key == "hidden") {
            link.hidden = integer(1, 1000000);
        } else if (key == "heads") {
            link.heads = integer(1, 1024);
        } else if (key == "kv_heads") {
            link.kvHeads = integer(0, 1024);
        } else if (key == "seq") {
            link.sequence = integer(1, 10000000);
        } else if (key == "batch") {
            link.microBatch = integer(1, 65536);
        } else if (key == "recompute") {
            link.recompute = integer(0, 1) == 1;
        }
        return;
    case LinkView::AllReduce:
        if (key == "gpus") {
            link.gpus = integer(kLinkMinRingGpus, kLinkMaxRingGpus);
        } else if (key == "bytes") {
            link.bufferBytes = parseBufferBytes(value, field);
        } else if (key == "link") {
            if (!training::findLink(value)) {
                std::vector<std::string_view> keys;
                for (const training::LinkFigure& figure : training::linkFigures())
                    keys.push_back(figure.key);
                throw InputError(field + ": unknown link '" + value + "' (allowed: " + joined(keys) + ")");
            }
            link.interconnect = value;
        } else if (key == "step") {
            // The largest ring's last step here; the ring's own (2 (N-1)) once N is known.
            link.ringStep = integer(0, 2 * (kLinkMaxRingGpus - 1));
        }
        return;
    case LinkView::Profile:
        if (key == "session") {
            link.session = value;
        } else if (key == "tab") {
            bool known = false;
            for (std::string_view tab : kLinkProfileTabs)
                known = known || tab == value;
            if (!known)
                throw InputError(field + ": unknown tab '" + value + "' (allowed: " +
                                 joined(std::vector<std::string_view>(std::begin(kLinkProfileTabs), std::end(kLinkProfileTabs))) + ")");
            link.profileTab = value;
        }
        return;
    default: return;
    }
}

// Checks between keys of one model link.
void checkModelLink(const ViewLink& link, const std::string& where)
{
    if (link.view == LinkView::Streams && link.hostToDeviceMs && link.kernelMs && link.deviceToHostMs &&
        *link.hostToDeviceMs + *link.kernelMs + *link.deviceToHostMs <= 0)
        throw InputError(where + ": h2d, kernel and d2h are all 0 (allowed: at least one above 0 ms)");
    if (link.view == LinkView::MemoryBudget && link.heads && link.kvHeads && *link.kvHeads > 0 && *link.heads % *link.kvHeads != 0)
        throw InputError(where + ": kv_heads " + std::to_string(*link.kvHeads) + " does not divide heads " +
                         std::to_string(*link.heads) + " (allowed: 0 for one per head, or a divisor of heads)");
    if (link.view == LinkView::MemoryBudget && link.hidden && link.heads && *link.hidden % *link.heads != 0)
        throw InputError(where + ": heads " + std::to_string(*link.heads) + " does not divide hidden " +
                         std::to_string(*link.hidden) + " (each head is hidden / heads wide)");
    if (link.view == LinkView::AllReduce && link.gpus && link.ringStep && *link.ringStep > 2 * (*link.gpus - 1))
        throw InputError(where + ": step " + std::to_string(*link.ringStep) + " is past the end: a ring of " +
                         std::to_string(*link.gpus) + " GPUs takes " + std::to_string(2 * (*link.gpus - 1)) +
                         " steps (allowed: 0.." + std::to_string(2 * (*link.gpus - 1)) + ")");
}

} // namespace

ViewLink parseViewLink(std::string_view url)
{
    const std::string where = "link '" + std::string(url) + "'";
    if (url.substr(0, kScheme.size()) != kScheme)
        throw InputError(where + ": not a warpscope: link");
    std::string_view rest = url.substr(kScheme.size());
    const std::size_t question = rest.find('?');
    const std::string_view viewName = rest.substr(0, question);
    const std::string_view query = question == std::string_view::npos ? std::string_view{} : rest.substr(question + 1);

    const ViewSpec* spec = nullptr;
    std::vector<std::string_view> names;
    for (const ViewSpec& candidate : viewSpecs()) {
        names.push_back(candidate.name);
        if (candidate.name == viewName)
            spec = &candidate;
    }
    if (!spec)
        throw InputError(where + ": unknown view '" + std::string(viewName) + "' (allowed: " + joined(names) + ")");

    ViewLink link;
    link.view = spec->view;
    std::set<std::string> seen;
    std::string bitsText; // read once the format is known, wherever it stands in the link
    std::size_t start = 0;
    while (!query.empty() && start <= query.size()) {
        const std::size_t amp = query.find('&', start);
        const std::string_view pair = query.substr(start, amp == std::string_view::npos ? amp : amp - start);
        start = amp == std::string_view::npos ? query.size() + 1 : amp + 1;
        if (pair.empty())
            continue;
        const std::size_t equals = pair.find('=');
        const std::string key(pair.substr(0, equals));
        if (equals == std::string_view::npos || equals + 1 == pair.size())
            throw InputError(where + ": '" + key + "' has no value (write " + key + "=VALUE)");
        bool known = false;
        for (std::string_view allowed : spec->keys)
            known = known || allowed == key;
        if (!known)
            throw InputError(where + ": unknown key '" + key + "' for " + std::string(spec->name) +
                             " (allowed: " + joined(spec->keys) + ")");
        if (!seen.insert(key).second)
            throw InputError(where + ": '" + key + "' is given twice");
        const std::string value = percentDecoded(pair.substr(equals + 1), where);
        const std::string field = where + ": " + key;

        if (isPrecisionLabView(link.view)) {
            parsePrecisionLabKey(link, key, value, field);
        } else if (isModelView(link.view)) {
            parseModelKey(link, key, value, field);
        } else if (link.view == LinkView::Step || link.view == LinkView::Memory) {
            parseStepKey(link, key, value, field);
        } else if (key == "id") {
            link.lessonId = value;
        } else if (key == "arch") {
            const auto preset = gpu::findPreset(value);
            if (!preset)
                throw InputError(field + ": unknown architecture '" + value + "' (allowed: " + gpu::knownArchList() + ")");
            link.arch = std::string(preset->arch);
        } else if (key == "grid") {
            link.grid = launch::parseGridDim(value, field);
        } else if (key == "block") {
            link.block = launch::parseBlockDim(value, field);
        } else if (key == "regs") {
            link.registers = static_cast<int>(parseInteger(value, field, 1, 255));
        } else if (key == "static_smem") {
            link.staticShared = parseByteSize(value, field, 48 * 1024);
        } else if (key == "dynamic_smem") {
            link.dynamicShared = parseByteSize(value, field, 227 * 1024);
        } else if (key == "carveout") {
            link.carveout = static_cast<int>(parseInteger(value, field, -1, 100));
        } else if (key == "barriers") {
            link.barriers = static_cast<int>(parseInteger(value, field, 0, 16));
        } else if (key == "format") {
            const auto format = numerics::parseFormat(value);
            if (!format)
                throw InputError(field + ": unknown format '" + value + "' (allowed: " + numerics::formatKeys() + ")");
            link.numberFormat = value;
        } else if (key == "value") {
            link.value = parseReal(value, field);
            link.valueText = value;
        } else if (key == "bits") {
            bitsText = value;
        } else if (key == "saturate") {
            link.saturate = parseInteger(value, field, 0, 1) == 1;
        }
    }
    if (!bitsText.empty()) {
        if (!link.numberFormat)
            throw InputError(where + ": bits: needs format= too (a pattern means nothing without its format)");
        link.bits = parsePattern(bitsText, *numerics::parseFormat(*link.numberFormat), where + ": bits");
    }
    if (link.view == LinkView::Lesson && link.lessonId.empty())
        throw InputError(where + ": a lesson link needs id=LESSON");
    if ((link.view == LinkView::Step || link.view == LinkView::Memory) && link.kernel.empty())
        throw InputError(where + ": a " + (link.view == LinkView::Step ? "step" : "memory") +
                         " link needs kernel=ID (allowed: " + kernels::demoKernelIds() + ")");
    checkPrecisionLabLink(link, where);
    checkModelLink(link, where);
    return link;
}

} // namespace warpscope::app
