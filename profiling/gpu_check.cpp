#include "gpu_check.h"

#include "occupancy/occupancy.h"
#include "ptx/sass.h"
#include "sim/simulator.h"
#include "sim/float_math.h"
#include "util/input_error.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::probe {

ApproximationTolerance approximationTolerance(const ptx::Module& module, const ptx::Function& entry)
{
    ApproximationTolerance result;
    const auto baseType = [](ptx::Type type) -> std::string_view {
        switch (type) {
        case ptx::Type::F16: case ptx::Type::F16x2: return "f16";
        case ptx::Type::BF16: case ptx::Type::BF16x2: return "bf16";
        default: return ptx::typeName(type);
        }
    };
    for (const ptx::Function* function : module.reachableFrom(entry))
        for (const ptx::Instruction& instruction : function->instructions) {
            const bool approximate = instruction.approx || instruction.op == ptx::Op::Ex2 || instruction.op == ptx::Op::Lg2 ||
                                     instruction.op == ptx::Op::Rsqrt || instruction.op == ptx::Op::Sin ||
                                     instruction.op == ptx::Op::Cos || instruction.op == ptx::Op::Tanh;
            if (!approximate)
                continue;
            const std::string_view op = ptx::opName(instruction.op), type = baseType(instruction.type);
            for (const sim::ApproximationBound& row : sim::approximationBounds()) {
                const std::string_view name = row.instruction;
                if (name.substr(0, name.find('.')) != op || name.substr(name.rfind('.') + 1) != type)
                    continue;
                // An ulp bound as a fraction of the value: 2^-23 an ulp for f32 (the only type with one).
                const double bound = row.kind == sim::ApproximationBound::Kind::Ulp ? row.bound * std::exp2(-23.0) : row.bound;
                if (4 * bound > result.tolerance) {
                    result.tolerance = 4 * bound;
                    result.instruction = row.instruction;
                    result.bound = bound;
                }
            }
        }
    return result;
}

double floatToleranceFor(const kernels::DemoKernel* demo, const std::string& buffer, double floor)
{
    double tolerance = std::max(kFloatTolerance, floor);
    if (demo)
        for (const kernels::DemoCheck& check : demo->checks)
            if (check.buffer == buffer)
                tolerance = std::max({tolerance, check.tolerance, check.gpuTolerance});
    return tolerance;
}

std::string floatToleranceText(const kernels::DemoKernel* demo, const std::vector<sim::ResolvedArg>& buffers,
                               const ApproximationTolerance& approximations)
{
    auto number = [](double value) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", value);
        return std::string(text);
    };
    std::string wider;
    for (const sim::ResolvedArg& arg : buffers) {
        const double tolerance = floatToleranceFor(demo, arg.name, approximations.tolerance);
        if (arg.isBuffer && sim::isFloatElement(arg.type) && tolerance > approximations.tolerance)
            wider += (wider.empty() ? "" : ", ") + arg.name + ": " + number(tolerance);
    }
    std::string why;
    if (!approximations.instruction.empty())
        why = "4 x " + approximations.instruction + "'s PTX ISA bound, " + number(approximations.bound);
    if (!wider.empty())
        why += (why.empty() ? "" : "; ") + wider;
    return number(approximations.tolerance) + " relative" + (why.empty() ? "" : " (" + why + ")");
}

std::string compareBuffers(const std::vector<sim::ResolvedArg>& gpu, const std::vector<sim::ResolvedArg>& reference,
                           const std::vector<sim::ResolvedArg>* before, std::uint64_t* compared, const kernels::DemoKernel* demo,
                           double floor)
{
    for (std::size_t a = 0; a < gpu.size(); ++a) {
        if (!gpu[a].isBuffer)
            continue;
        const sim::ResolvedArg& arg = gpu[a];
        const std::uint32_t size = sim::elementBytes(arg.type);
        const double tolerance = floatToleranceFor(demo, arg.name, floor);
        for (std::uint64_t i = 0; i < arg.bytes.size() / size; ++i) {
            const std::uint8_t* g = arg.bytes.data() + i * size;
            const std::uint8_t* r = reference[a].bytes.data() + i * size;
            if (before && std::memcmp(r, (*before)[a].bytes.data() + i * size, size) == 0)
                continue;
            if (compared)
                ++*compared;
            bool same = std::memcmp(g, r, size) == 0;
            if (!same && sim::isFloatElement(arg.type)) {
                std::uint64_t gBits = 0, rBits = 0; // little-endian, as the host
                std::memcpy(&gBits, g, size);
                std::memcpy(&rBits, r, size);
                const double gv = sim::floatElementValue(arg.type, gBits), rv = sim::floatElementValue(arg.type, rBits);
                same = std::abs(gv - rv) <= tolerance * std::max(1.0, std::abs(rv));
            }
            if (!same)
                return arg.name + "[" + std::to_string(i) + "]: GPU " + sim::formatElement(arg, arg.bytes, i) +
                       ", simulator " + sim::formatElement(reference[a], reference[a].bytes, i);
        }
    }
    return {};
}

session::PredictionRecord predictionFrom(const std::string& kernel, const sim::SimResult& result,
                                         const ptx::Function& function, const gpu::GpuPreset& preset,
                                         const kernels::DemoLaunch& launch, int registers)
{
    const sim::KernelStats& s = result.stats;
    session::PredictionRecord p;
    p.kernel = kernel;
    p.preset = std::string(preset.arch);
    p.warpInstructions = s.warpInstructions;
    p.threadInstructions = s.threadInstructions;
    p.globalLoadRequests = s.global.loadRequests;
    p.globalLoadSectors = s.global.loadSectors;
    p.globalStoreRequests = s.global.storeRequests;
    p.globalStoreSectors = s.global.storeSectors;
    p.sharedLoadRequests = s.shared.loadRequests;
    p.sharedStoreRequests = s.shared.storeRequests;
    p.sharedLoadWavefronts = s.shared.loadWavefronts;
    p.sharedStoreWavefronts = s.shared.storeWavefronts;
    p.sharedBankConflicts = s.shared.bankConflicts;
    p.branchesUniform = s.branchesUniform;
    p.branchesDivergent = s.branchesDivergent;
    p.simulatedBlocks = s.blocksSimulated;
    p.totalBlocks = s.blocksInGrid;
    for (std::size_t i = 0; i < s.perInstruction.size() && i < function.instructions.size(); ++i) {
        const ptx::Instruction& instruction = function.instructions[i];
        if (instruction.type != ptx::Type::F32)
            continue;
        const std::uint64_t threads = s.perInstruction[i].threadExecutions;
        if (instruction.op == ptx::Op::Add || instruction.op == ptx::Op::Sub) p.fadd += threads;
        else if (instruction.op == ptx::Op::Mul) p.fmul += threads;
        else if (instruction.op == ptx::Op::Fma || instruction.op == ptx::Op::Mad) p.ffma += threads;
    }
    occupancy::OccupancyInput input;
    input.threadsPerBlock = static_cast<int>(launch.block.volume());
    // Occupancy is the real kernel's: its registers as ptxas allocated them, where the caller knows them.
    if (registers <= 0)
        registers = s.timing.available && s.timing.registersPerThread > 0 ? s.timing.registersPerThread
                                                                          : sim::SimOptions{}.registersPerThread;
    input.registersPerThread = registers;
    input.dynamicSharedBytes = launch.dynamicSharedBytes;
    input.staticSharedBytes = function.staticSharedBytes;
    try {
        p.theoreticalOccupancy = occupancy::computeOccupancy(preset, input).occupancy;
    } catch (const InputError&) {
        p.theoreticalOccupancy = 0;
    }
    return p;
}

int ptxasRegisters(std::string_view ptx, const std::string& kernel, const std::string& arch)
{
    try {
        ptx::SassOptions options;
        options.arch = arch;
        for (const ptx::PtxasResources& resources : ptx::ptxasResources(ptx, options))
            if (resources.function == kernel)
                return std::max(0, resources.registers);
    } catch (const std::exception&) {
        // No ptxas, or it rejected the PTX: the caller falls back to what it has.
    }
    return 0;
}

} // namespace warpscope::probe
