#include "demo_kernels.h"

#include "demo_embedded.h"
#include "gold_context.h"
#include "ptx/ptx_parser.h"
#include "util/input_error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace warpscope::kernels {

namespace embedded {
extern const EmbeddedTopic* const allTopics[];
}

namespace {

std::vector<std::string> stringList(const nlohmann::json& json, const char* key, const std::string& where)
{
    std::vector<std::string> values;
    if (!json.contains(key))
        return values;
    if (!json.at(key).is_array())
        throw std::logic_error(where + ": '" + key + "' must be an array of strings");
    for (const auto& value : json.at(key))
        values.push_back(value.get<std::string>());
    return values;
}

std::vector<DemoKernel> loadKernels()
{
    std::vector<DemoKernel> kernels;
    for (const embedded::EmbeddedTopic* const* topic = embedded::allTopics; *topic; ++topic) {
        const std::string where = std::string("kernels/") + (*topic)->topic + "/manifest.json";
        nlohmann::json manifest;
        try {
            manifest = nlohmann::json::parse((*topic)->manifest);
            for (const auto& entry : manifest.at("kernels")) {
                DemoKernel kernel;
                kernel.id = entry.at("id").get<std::string>();
                kernel.entry = entry.value("entry", kernel.id);
                kernel.title = entry.at("title").get<std::string>();
                kernel.summary = entry.value("summary", "");
                kernel.topic = (*topic)->topic;
                kernel.topicTitle = manifest.value("title", kernel.topic);
                kernel.ladder = entry.value("ladder", "");
                kernel.teaches = stringList(entry, "teaches", where);
                kernel.args = stringList(entry, "args", where);
                kernel.gpuArgs = stringList(entry, "gpu_args", where);
                kernel.grid = entry.at("grid").get<std::string>();
                kernel.block = entry.at("block").get<std::string>();
                kernel.smem = entry.value("smem", "0");
                if (entry.contains("check"))
                    for (const auto& check : entry.at("check")) {
                        const DemoCheck parsed{check.at("buffer").get<std::string>(), check.value("tolerance", 0.0),
                                               check.value("gpu_tolerance", 0.0)};
                        if (!(parsed.tolerance >= 0 && parsed.tolerance < 1 && parsed.gpuTolerance >= 0 && parsed.gpuTolerance < 1))
                            throw std::logic_error(where + ": " + kernel.id + ": the check of '" + parsed.buffer +
                                                   "' needs tolerance and gpu_tolerance in [0, 1)");
                        kernel.checks.push_back(parsed);
                    }
                kernel.gold = entry.value("gold", "");
                kernel.expectHazards = stringList(entry, "expect_hazards", where);
                kernel.ptx = (*topic)->ptx;
                kernel.cudaSource = (*topic)->cudaSource;
                if (!kernel.gold.empty() && !findGold(kernel.gold))
                    throw std::logic_error("gold '" + kernel.gold + "' is not registered");
                try {
                    demoArgSpecs(kernel, LaunchSize::Gpu); // every gpu arg parses and names a manifest arg
                } catch (const InputError& error) {
                    throw std::logic_error(kernel.id + ": " + error.what());
                }
                kernels.push_back(std::move(kernel));
            }
        } catch (const nlohmann::json::exception& error) {
            throw std::logic_error(where + ": " + error.what());
        } catch (const std::logic_error& error) {
            throw std::logic_error(where + ": " + error.what());
        }
    }
    return kernels;
}

GoldElement goldElement(sim::ElementType type)
{
    switch (type) {
    case sim::ElementType::I8: return GoldElement::I8;
    case sim::ElementType::U8: return GoldElement::U8;
    case sim::ElementType::I16: return GoldElement::I16;
    case sim::ElementType::U16: return GoldElement::U16;
    case sim::ElementType::I32: return GoldElement::I32;
    case sim::ElementType::U32: return GoldElement::U32;
    case sim::ElementType::I64: return GoldElement::I64;
    case sim::ElementType::U64: return GoldElement::U64;
    case sim::ElementType::F32: return GoldElement::F32;
    case sim::ElementType::F64: return GoldElement::F64;
    // The gold references have no half types: their buffers are 16-bit patterns.
    case sim::ElementType::F16: case sim::ElementType::BF16: return GoldElement::U16;
    }
    return GoldElement::U8;
}

double elementValue(sim::ElementType type, const std::uint8_t* bytes)
{
    std::uint64_t bits = 0;
    std::memcpy(&bits, bytes, sim::elementBytes(type));
    switch (type) {
    case sim::ElementType::F16: case sim::ElementType::BF16:
    case sim::ElementType::F32: case sim::ElementType::F64: return sim::floatElementValue(type, bits);
    case sim::ElementType::I8: return static_cast<std::int8_t>(bits);
    case sim::ElementType::I16: return static_cast<std::int16_t>(bits);
    case sim::ElementType::I32: return static_cast<std::int32_t>(bits);
    case sim::ElementType::I64: return static_cast<double>(static_cast<std::int64_t>(bits));
    default: return static_cast<double>(bits);
    }
}

} // namespace

const std::vector<DemoKernel>& demoKernels()
{
    static const std::vector<DemoKernel> kernels = loadKernels();
    return kernels;
}

const DemoKernel* findDemoKernel(std::string_view id)
{
    for (const DemoKernel& kernel : demoKernels())
        if (kernel.id == id)
            return &kernel;
    return nullptr;
}

std::string demoKernelIds()
{
    std::string ids;
    for (const DemoKernel& kernel : demoKernels())
        ids += (ids.empty() ? "" : ", ") + kernel.id;
    return ids;
}

const ptx::Module& demoModule(const DemoKernel& kernel)
{
    static std::mutex mutex;
    static std::map<std::string, std::unique_ptr<ptx::Module>, std::less<>> modules;
    std::lock_guard lock(mutex);
    auto found = modules.find(kernel.topic);
    if (found == modules.end())
        found = modules.emplace(kernel.topic, std::make_unique<ptx::Module>(ptx::parseModule(kernel.ptx))).first;
    return *found->second;
}

std::string_view launchSizeName(LaunchSize size)
{
    return size == LaunchSize::Gpu ? "gpu" : "sim";
}

std::vector<sim::ArgSpec> demoArgSpecs(const DemoKernel& kernel, LaunchSize size)
{
    std::vector<sim::ArgSpec> specs;
    for (const std::string& text : kernel.args)
        specs.push_back(sim::parseArgSpec(text));
    if (size == LaunchSize::Sim)
        return specs;
    std::vector<std::string> replaced;
    for (const std::string& text : kernel.gpuArgs) {
        sim::ArgSpec gpu = sim::parseArgSpec(text);
        auto same = std::find_if(specs.begin(), specs.end(), [&](const sim::ArgSpec& spec) { return spec.name == gpu.name; });
        if (same == specs.end())
            throw std::logic_error(kernel.id + ": gpu_args '" + text + "' names no argument in args");
        if (std::find(replaced.begin(), replaced.end(), gpu.name) != replaced.end())
            throw std::logic_error(kernel.id + ": gpu_args names '" + gpu.name + "' twice");
        replaced.push_back(gpu.name);
        *same = std::move(gpu);
    }
    return specs;
}

launch::Dim3 evaluateDims(std::string_view text, const std::vector<sim::ResolvedArg>& args, std::string_view what)
{
    const auto scalars = sim::integerScalars(args);
    std::vector<std::int64_t> values;
    for (const std::string& part : sim::splitDimensions(text))
        values.push_back(sim::evaluateExpression(part, scalars, what));
    if (values.size() > 3)
        throw InputError(std::string(what) + ": '" + std::string(text) + "' has more than three dimensions");
    for (std::int64_t value : values)
        if (value < 1)
            throw InputError(std::string(what) + ": '" + std::string(text) + "' gives " + std::to_string(value) +
                             " (each dimension must be at least 1)");
    launch::Dim3 dims;
    dims.x = values[0];
    if (values.size() > 1) dims.y = values[1];
    if (values.size() > 2) dims.z = values[2];
    return dims;
}

DemoLaunch resolveDemoLaunch(const DemoKernel& kernel, const LaunchOverrides& overrides, std::uint64_t maxBufferBytes)
{
    const std::vector<sim::ArgSpec> specs = sim::applyOverrides(demoArgSpecs(kernel, overrides.size), overrides.args);
    DemoLaunch launch;
    launch.args = sim::resolveArgs(specs, maxBufferBytes);
    launch.grid = evaluateDims(overrides.grid.value_or(kernel.grid), launch.args, "--grid");
    launch.block = evaluateDims(overrides.block.value_or(kernel.block), launch.args, "--block");
    const std::int64_t smem = sim::evaluateExpression(overrides.smem.value_or(kernel.smem), sim::integerScalars(launch.args), "--smem");
    if (smem < 0)
        throw InputError("--smem: " + std::to_string(smem) + " bytes is negative");
    launch.dynamicSharedBytes = static_cast<std::uint64_t>(smem);
    return launch;
}

sim::LaunchRequest demoLaunchRequest(const DemoKernel& kernel, const DemoLaunch& launch, const gpu::GpuPreset& preset)
{
    sim::LaunchRequest request;
    request.module = &demoModule(kernel);
    request.function = request.module->findFunction(kernel.entry);
    if (!request.function)
        throw std::logic_error(kernel.id + ": the PTX has no entry " + kernel.entry);
    request.grid = launch.grid;
    request.block = launch.block;
    request.dynamicSharedBytes = launch.dynamicSharedBytes;
    request.args = launch.args;
    request.preset = preset;
    return request;
}

GoldExpectation expectGold(const DemoKernel& kernel, DemoLaunch& launch)
{
    GoldExpectation expectation;
    const GoldFunction gold = kernel.gold.empty() ? nullptr : findGold(kernel.gold);
    if (!gold)
        return expectation;
    expectation.available = true;
    std::map<std::string, std::int64_t, std::less<>> integers;
    std::map<std::string, double, std::less<>> reals;
    std::map<std::string, GoldBuffer, std::less<>> buffers;
    // The launch's buffers are lent to the reference (which only reads them) and given back below.
    for (sim::ResolvedArg& arg : launch.args) {
        if (arg.isBuffer) {
            GoldBuffer buffer;
            buffer.element = goldElement(arg.type);
            buffer.bytes = std::move(arg.bytes);
            buffers.emplace(arg.name, std::move(buffer));
        } else if (sim::isFloatElement(arg.type)) {
            reals[arg.name] = arg.realValue;
        } else {
            integers[arg.name] = arg.integerValue;
        }
    }
    GoldLaunch goldLaunch;
    goldLaunch.grid = {static_cast<std::uint32_t>(launch.grid.x), static_cast<std::uint32_t>(launch.grid.y),
                       static_cast<std::uint32_t>(launch.grid.z)};
    goldLaunch.block = {static_cast<std::uint32_t>(launch.block.x), static_cast<std::uint32_t>(launch.block.y),
                        static_cast<std::uint32_t>(launch.block.z)};
    goldLaunch.dynamicSharedBytes = launch.dynamicSharedBytes;
    GoldContext context(goldLaunch, std::move(integers), std::move(reals), std::move(buffers));
    std::string failure;
    try {
        gold(context);
    } catch (const std::exception& error) {
        failure = error.what();
    }
    for (const DemoCheck& check : kernel.checks)
        if (const GoldBuffer* expected = context.expectedBuffer(check.buffer); expected && failure.empty())
            expectation.checked.emplace(check.buffer, *expected);
    std::map<std::string, GoldBuffer, std::less<>> inputs = context.takeInputs();
    for (sim::ResolvedArg& arg : launch.args)
        if (arg.isBuffer)
            arg.bytes = std::move(inputs[arg.name].bytes);
    if (!failure.empty())
        throw InputError(failure);
    return expectation;
}

GoldComparison compareWithExpected(const DemoKernel& kernel, const GoldExpectation& expectation,
                                   const std::vector<sim::ResolvedArg>& finalArgs)
{
    GoldComparison comparison;
    if (!expectation.available)
        return comparison;
    comparison.available = true;
    std::ostringstream detail;
    comparison.matches = true;
    for (const DemoCheck& check : kernel.checks) {
        const sim::ResolvedArg* actual = nullptr;
        for (const sim::ResolvedArg& arg : finalArgs)
            if (arg.name == check.buffer)
                actual = &arg;
        const auto found = expectation.checked.find(check.buffer);
        if (!actual || found == expectation.checked.end())
            throw std::logic_error(kernel.id + ": checked buffer '" + check.buffer + "' is not an argument");
        const GoldBuffer* expected = &found->second;
        const std::uint32_t size = sim::elementBytes(actual->type);
        const std::uint64_t count = actual->bytes.size() / size;
        std::uint64_t mismatches = 0;
        for (std::uint64_t i = 0; i < count; ++i) {
            const std::uint8_t* got = actual->bytes.data() + i * size;
            const auto* want = reinterpret_cast<const std::uint8_t*>(expected->bytes.data()) + i * size;
            bool same = std::memcmp(got, want, size) == 0;
            if (!same && check.tolerance > 0) {
                const double g = elementValue(actual->type, got), w = elementValue(actual->type, want);
                same = std::fabs(g - w) <= check.tolerance * std::max(1.0, std::fabs(w));
            }
            if (!same) {
                if (mismatches == 0) {
                    detail << check.buffer << "[" << i << "] is " << sim::formatElement(*actual, actual->bytes, i)
                           << ", the gold reference has ";
                    const std::vector<std::uint8_t> wantBytes(want, want + size);
                    detail << sim::formatElement(*actual, wantBytes, 0);
                }
                ++mismatches;
            }
        }
        if (mismatches > 0) {
            comparison.matches = false;
            detail << " (" << mismatches << " of " << count << " elements differ)";
            break;
        }
        detail << (detail.tellp() > 0 ? "; " : "") << check.buffer << ": " << count << " elements "
               << (check.tolerance > 0 ? "within " + std::to_string(check.tolerance) : std::string("bit for bit"));
    }
    comparison.detail = detail.str();
    return comparison;
}

GoldComparison compareWithGold(const DemoKernel& kernel, const DemoLaunch& launch,
                               const std::vector<sim::ResolvedArg>& finalArgs)
{
    DemoLaunch copy = launch;
    return compareWithExpected(kernel, expectGold(kernel, copy), finalArgs);
}

} // namespace warpscope::kernels
