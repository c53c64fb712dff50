#include "kernel_target.h"

#include "ptx/cuda_compiler.h"
#include "ptx/ptx_error.h"
#include "ptx/ptx_parser.h"
#include "ptx/ptx_target.h"
#include "util/input_error.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <sstream>
#include <vector>

namespace warpscope::kernels {

namespace {

std::string readTextFile(const std::string& path)
{
    std::ifstream file(path, std::ios::binary);
    if (!file || std::filesystem::is_directory(path))
        throw InputError("cannot read '" + path + "'");
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

// C++ kernels without extern "C" have mangled entry names: match the demangled name too.
const ptx::Function* findEntry(const ptx::Module& module, const std::string& name)
{
    if (const ptx::Function* function = module.findFunction(name))
        return function;
    for (const std::string& entry : module.entryNames()) {
        int status = 0;
        std::unique_ptr<char, void (*)(void*)> demangled(abi::__cxa_demangle(entry.c_str(), nullptr, nullptr, &status), std::free);
        if (status != 0 || !demangled)
            continue;
        std::string plain = demangled.get();
        plain = plain.substr(0, plain.find('('));
        if (plain == name || plain.ends_with("::" + name))
            return module.findFunction(entry);
    }
    return nullptr;
}

} // namespace

ResolvedTarget resolveTarget(const TargetRequest& request)
{
    if (request.target.empty())
        throw InputError("name a demo kernel (" + demoKernelIds() + "), a .cu file or a .ptx file");
    std::vector<sim::ArgSpec> argOverrides;
    for (const std::string& text : request.args)
        argOverrides.push_back(sim::parseArgSpec(text));

    ResolvedTarget out;
    if (const DemoKernel* demo = findDemoKernel(request.target)) {
        if (!request.kernel.empty())
            throw InputError("--kernel is for .cu and .ptx files; '" + request.target + "' is a demo kernel");
        out.demo = demo;
        out.module = &demoModule(*demo);
        out.function = out.module->findFunction(demo->entry);
        LaunchOverrides overrides;
        overrides.size = request.size;
        overrides.args = argOverrides;
        if (!request.grid.empty()) overrides.grid = request.grid;
        if (!request.block.empty()) overrides.block = request.block;
        if (!request.smem.empty()) overrides.smem = request.smem;
        out.launch = resolveDemoLaunch(*demo, overrides, request.maxBufferBytes);
        out.kernelName = demo->id;
        out.ptxText = std::string(demo->ptx);
        out.sourceText = std::string(demo->cudaSource);
        out.sourceName = "kernels/" + demo->topic + "/" + demo->topic + ".cu";
        for (const sim::ArgSpec& spec : sim::applyOverrides(demoArgSpecs(*demo, request.size), argOverrides))
            out.argSpecs.push_back(spec.text);
        return out;
    }

    const std::filesystem::path path(request.target);
    const std::string extension = path.extension().string();
    if (extension != ".cu" && extension != ".ptx")
        throw InputError("'" + request.target + "' is neither a demo kernel (" + demoKernelIds() + ") nor a .cu or .ptx file");
    const bool inlineText = !request.inlineText.empty();
    if (extension == ".cu") {
        out.sourceText = inlineText ? request.inlineText : readTextFile(request.target);
        ptx::CompileOptions compileOptions;
        if (!request.compute.empty()) {
            requireComputeOption(request.compute, {request.target});
            compileOptions.arch = request.compute;
        }
        const ptx::CompileResult compiled = inlineText ? ptx::compileCuda(out.sourceText, request.target, compileOptions)
                                                       : ptx::compileCudaFile(path, compileOptions);
        if (!compiled.ok) {
            std::string diagnostics;
            for (const ptx::CompileDiagnostic& diagnostic : compiled.diagnostics)
                diagnostics += ptx::formatDiagnostic(diagnostic) + "\n";
            if (!diagnostics.empty())
                diagnostics.pop_back();
            throw CompileFailed(diagnostics.empty() ? request.target + ": compilation failed" : diagnostics);
        }
        out.ptxText = compiled.ptx;
    } else {
        out.ptxText = inlineText ? request.inlineText : readTextFile(request.target);
    }
    out.sourceName = request.target;
    try {
        out.ownModule = std::make_shared<const ptx::Module>(ptx::parseModule(out.ptxText));
    } catch (const InputError& error) {
        throw InputError(request.target + ": " + error.what());
    }
    out.module = out.ownModule.get();
    const std::vector<std::string> entries = out.module->entryNames();
    if (entries.empty())
        throw InputError(request.target + " has no kernels (.entry functions)");
    std::string entryList;
    for (const std::string& entry : entries)
        entryList += (entryList.empty() ? "" : ", ") + entry;
    if (request.kernel.empty() && entries.size() > 1)
        throw InputError(request.target + " has several kernels; choose one with --kernel (" + entryList + ")");
    out.kernelName = request.kernel.empty() ? entries.front() : request.kernel;
    out.function = findEntry(*out.module, out.kernelName);
    if (!out.function || !out.function->isEntry)
        throw InputError("--kernel '" + out.kernelName + "' is not a kernel in " + request.target + " (" + entryList + ")");
    // Only what this kernel can reach has to be supported; the rest of the module is a note.
    ptx::requireSupported(*out.module, *out.function, request.target + ": ");
    const std::vector<const ptx::Function*> reachable = out.module->reachableFrom(*out.function);
    for (const ptx::UnsupportedConstruct* construct : out.module->allUnsupported()) {
        const bool reached = std::any_of(reachable.begin(), reachable.end(), [&](const ptx::Function* function) {
            return function->name == construct->function;
        });
        if (!reached)
            out.notes.push_back(request.target + ": " + ptx::describeUnsupported(*out.module, *construct) +
                                " (not needed by " + out.function->name + ")");
    }
    if (request.grid.empty() || request.block.empty())
        throw InputError("a kernel from a file needs --grid and --block");
    out.launch.args = sim::resolveArgs(argOverrides, request.maxBufferBytes);
    out.launch.grid = evaluateDims(request.grid, out.launch.args, "--grid");
    out.launch.block = evaluateDims(request.block, out.launch.args, "--block");
    if (!request.smem.empty()) {
        const std::int64_t smem = sim::evaluateExpression(request.smem, sim::integerScalars(out.launch.args), "--smem");
        if (smem < 0)
            throw InputError("--smem: " + std::to_string(smem) + " bytes is negative");
        out.launch.dynamicSharedBytes = static_cast<std::uint64_t>(smem);
    }
    out.argSpecs = request.args;
    return out;
}

int architectureNumber(std::string_view name)
{
    const std::size_t digits = name.find_first_of("0123456789");
    if (digits == std::string_view::npos)
        return 0;
    int value = 0;
    for (std::size_t i = digits; i < name.size() && name[i] >= '0' && name[i] <= '9'; ++i)
        value = value * 10 + (name[i] - '0');
    return value;
}

void requireComputeOption(const std::string& compute, const std::vector<std::string>& targets)
{
    if (compute.empty())
        return;
    if (!ptx::isKnownVirtualArch(compute))
        throw InputError("--compute: unknown virtual architecture '" + compute + "' (allowed: " + ptx::supportedVirtualArchList() + ")");
    for (const std::string& target : targets)
        if (std::filesystem::path(target).extension() != ".cu")
            throw InputError("--compute is for .cu files, which NVRTC compiles; '" + target + "' is not one");
}

void requireTargetFits(const ResolvedTarget& target, const gpu::GpuPreset& preset)
{
    if (target.demo || !target.module)
        return;
    // The PTX ISA's rules, not a comparison of numbers: sm_90a runs only on 9.0, sm_100f on 10.x.
    const std::optional<ptx::PtxTarget> needed = ptx::parseTarget(target.module->target);
    if (!needed)
        throw InputError(target.sourceName + ": the PTX targets '" + target.module->target +
                         "', which is not a PTX ISA target (allowed: " + ptx::knownTargetList() + ")");
    if (ptx::targetRunsOn(*needed, preset.computeMajor, preset.computeMinor))
        return;
    const std::string gpu = std::string(preset.arch) + " (" + std::string(preset.name) + ")";
    const std::string capability = std::to_string(needed->major) + "." + std::to_string(needed->minor);
    const std::string presetCapability = std::to_string(preset.computeMajor) + "." + std::to_string(preset.computeMinor);
    std::string why;
    switch (needed->kind) {
    case ptx::TargetKind::ArchSpecific:
        why = ", which runs only on compute capability " + capability + ", and " + gpu + " is " + presetCapability +
              ": choose a " + capability + " GPU with --arch, or compile for a portable target (sm_" +
              std::to_string(needed->major * 10 + needed->minor) + ")";
        break;
    case ptx::TargetKind::FamilySpecific:
        why = ", which runs only on compute capability " + capability + " and later " + std::to_string(needed->major) +
              ".x GPUs, and " + gpu + " is " + presetCapability + ": choose such a GPU with --arch, or compile for a "
              "portable target (sm_" + std::to_string(needed->major * 10 + needed->minor) + ")";
        break;
    case ptx::TargetKind::Portable:
        why = ", which " + gpu + " cannot run: choose a newer GPU with --arch, or compile for an older one with --compute";
        break;
    }
    throw InputError(target.sourceName + ": the PTX targets " + target.module->target + why);
}

sim::LaunchRequest targetLaunchRequest(const ResolvedTarget& target, const gpu::GpuPreset& preset)
{
    sim::LaunchRequest request;
    request.module = target.module;
    request.function = target.function;
    request.grid = target.launch.grid;
    request.block = target.launch.block;
    request.dynamicSharedBytes = target.launch.dynamicSharedBytes;
    request.args = target.launch.args;
    request.preset = preset;
    return request;
}

} // namespace warpscope::kernels
