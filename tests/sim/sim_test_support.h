// Shared by the simulator tests: compile a small CUDA kernel with NVRTC, run it on the simulator.
#pragma once

#include "gpu/gpu_preset.h"
#include "ptx/cuda_compiler.h"
#include "ptx/ptx_parser.h"
#include "sim/simulator.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace warpscope::testing_support {

struct CompiledKernel {
    std::unique_ptr<ptx::Module> module;
    const ptx::Function* function = nullptr;
};

inline CompiledKernel compileKernel(const std::string& source, const std::string& entry, const std::string& arch = "compute_75")
{
    ptx::CompileOptions options;
    options.arch = arch;
    const ptx::CompileResult compiled = ptx::compileCuda(source, "test.cu", options);
    if (!compiled.ok)
        throw std::runtime_error("test kernel does not compile: " + compiled.log);
    CompiledKernel kernel;
    kernel.module = std::make_unique<ptx::Module>(ptx::parseModule(compiled.ptx));
    kernel.function = kernel.module->findFunction(entry);
    if (!kernel.function)
        throw std::runtime_error("test kernel has no entry " + entry);
    return kernel;
}

// A kernel from PTX text (hand-written snippets of the instructions under test).
inline CompiledKernel parsePtxKernel(const std::string& ptx, const std::string& entry)
{
    CompiledKernel kernel;
    kernel.module = std::make_unique<ptx::Module>(ptx::parseModule(ptx));
    kernel.function = kernel.module->findFunction(entry);
    if (!kernel.function)
        throw std::runtime_error("PTX has no entry " + entry);
    return kernel;
}

// A buffer argument holding exactly `values` (the spec language has no literal lists).
template <class T> sim::ResolvedArg bufferArg(const std::string& name, sim::ElementType type, const std::vector<T>& values)
{
    sim::ResolvedArg arg;
    arg.name = name;
    arg.type = type;
    arg.isBuffer = true;
    arg.count = values.size() * sizeof(T) / sim::elementBytes(type);
    arg.bytes.resize(values.size() * sizeof(T));
    std::memcpy(arg.bytes.data(), values.data(), arg.bytes.size());
    return arg;
}

inline sim::SimResult simulateWithArgs(const CompiledKernel& kernel, launch::Dim3 grid, launch::Dim3 block,
                                       std::vector<sim::ResolvedArg> args, sim::SimOptions options = {})
{
    sim::LaunchRequest request;
    request.module = kernel.module.get();
    request.function = kernel.function;
    request.grid = grid;
    request.block = block;
    request.args = std::move(args);
    request.preset = *gpu::findPreset("sm_90");
    request.options = options;
    return sim::simulate(request);
}

inline sim::SimResult simulateKernel(const CompiledKernel& kernel, launch::Dim3 grid, launch::Dim3 block,
                                     const std::vector<std::string>& argSpecs, std::uint64_t dynamicShared = 0,
                                     sim::SimOptions options = {})
{
    std::vector<sim::ArgSpec> specs;
    for (const std::string& text : argSpecs)
        specs.push_back(sim::parseArgSpec(text));
    sim::LaunchRequest request;
    request.module = kernel.module.get();
    request.function = kernel.function;
    request.grid = grid;
    request.block = block;
    request.dynamicSharedBytes = dynamicShared;
    request.args = sim::resolveArgs(specs, 1ull << 30);
    request.preset = *gpu::findPreset("sm_90");
    request.options = options;
    return sim::simulate(request);
}

// The instruction counters summed over instructions matching `op` (and, for memory, `space`).
inline sim::InstructionCounters countersOf(const sim::SimResult& result, const ptx::Function& function, ptx::Op op,
                                           ptx::Space space = ptx::Space::Generic)
{
    sim::InstructionCounters total;
    for (std::size_t i = 0; i < function.instructions.size(); ++i) {
        const ptx::Instruction& instruction = function.instructions[i];
        if (instruction.op == op && (space == ptx::Space::Generic || instruction.space == space))
            total.add(result.stats.perInstruction[i]);
    }
    return total;
}

template <class T> std::vector<T> bufferValues(const sim::SimResult& result, const std::string& name)
{
    for (const sim::ResolvedArg& arg : result.args)
        if (arg.name == name) {
            std::vector<T> values(arg.bytes.size() / sizeof(T));
            std::memcpy(values.data(), arg.bytes.data(), arg.bytes.size());
            return values;
        }
    throw std::runtime_error("no buffer " + name);
}

} // namespace warpscope::testing_support
