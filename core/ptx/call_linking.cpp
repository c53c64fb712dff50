#include "ptx/call_linking.h"

#include "ptx/cfg.h"

#include <algorithm>
#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace warpscope::ptx {

namespace {

std::uint64_t alignFrame(std::uint64_t bytes) { return (bytes + 15) / 16 * 16; }

// A function's code must not fall into the next region: end it with a ret where it could.
void endWithReturn(Function& function, std::int32_t first, const std::string& name)
{
    if (static_cast<std::int32_t>(function.instructions.size()) > first) {
        const Instruction& last = function.instructions.back();
        if (last.guard < 0 && (last.op == Op::Ret || last.op == Op::Exit || last.op == Op::Bra))
            return;
    }
    Instruction implicitReturn;
    implicitReturn.op = Op::Ret;
    implicitReturn.ptxLine = function.instructions.empty() ? function.ptxLine : function.instructions.back().ptxLine;
    implicitReturn.source = function.instructions.empty() ? SourceLocation{} : function.instructions.back().source;
    implicitReturn.text = "ret (implicit: the end of " + name + ")";
    function.instructions.push_back(std::move(implicitReturn));
}

// Branch targets back to instruction indices (buildControlFlow made them block indices).
void targetsToInstructions(Instruction& instruction, const Function& owner, std::int32_t offset)
{
    for (int i = 0; i < instruction.operandCount; ++i) {
        Operand& operand = instruction.operands[static_cast<std::size_t>(i)];
        if (operand.kind == Operand::Kind::Label && operand.target >= 0)
            operand.target = owner.blocks[static_cast<std::size_t>(operand.target)].first + offset;
    }
}

void shift(Operand& operand, std::int32_t registers, std::int32_t symbols)
{
    if (operand.reg >= 0) operand.reg += registers;
    if (operand.pairReg >= 0) operand.pairReg += registers;
    for (int v = 0; v < operand.vectorCount; ++v)
        if (operand.vector[static_cast<std::size_t>(v)] >= 0)
            operand.vector[static_cast<std::size_t>(v)] += registers;
    if (operand.symbol >= 0) operand.symbol += symbols;
}

void link(const Module& module, Function& entry)
{
    const std::vector<const Function*> reached = module.reachableFrom(entry);
    Function linked = entry;
    for (Instruction& instruction : linked.instructions)
        targetsToInstructions(instruction, entry, 0);
    endWithReturn(linked, 0, entry.name);
    std::vector<FunctionRegion> regions(1);
    regions[0].name = entry.name;
    regions[0].end = static_cast<std::int32_t>(linked.instructions.size());
    regions[0].registerCount = static_cast<std::int32_t>(entry.registers.size());
    regions[0].frameBytes = alignFrame(entry.localBytes);
    std::map<std::string, std::int32_t> regionOf{{entry.name, 0}};

    for (std::size_t r = 1; r < reached.size(); ++r) {
        const Function& callee = *reached[r];
        const auto registers = static_cast<std::int32_t>(linked.registers.size());
        const auto symbols = static_cast<std::int32_t>(linked.symbols.size());
        const auto first = static_cast<std::int32_t>(linked.instructions.size());
        const auto calls = static_cast<std::int32_t>(linked.calls.size());
        for (const RegisterInfo& info : callee.registers)
            linked.registers.push_back({callee.name + "::" + info.name, info.type});
        for (const Symbol& symbol : callee.symbols)
            linked.symbols.push_back(symbol);
        for (Instruction instruction : callee.instructions) {
            targetsToInstructions(instruction, callee, first);
            for (int i = 0; i < instruction.operandCount; ++i)
                shift(instruction.operands[static_cast<std::size_t>(i)], registers, symbols);
            if (instruction.guard >= 0) instruction.guard += registers;
            if (instruction.call >= 0) instruction.call += calls;
            if (instruction.contractedMul >= 0) instruction.contractedMul += first;
            linked.instructions.push_back(std::move(instruction));
        }
        for (CallSite call : callee.calls) {
            for (Operand& operand : call.results) shift(operand, registers, symbols);
            for (Operand& operand : call.arguments) shift(operand, registers, symbols);
            linked.calls.push_back(std::move(call));
        }
        for (const auto& [label, index] : callee.labels)
            linked.labels[callee.name + "::" + label] = index + first;
        endWithReturn(linked, first, callee.name);
        FunctionRegion region;
        region.name = callee.name;
        region.first = first;
        region.end = static_cast<std::int32_t>(linked.instructions.size());
        region.firstRegister = registers;
        region.registerCount = static_cast<std::int32_t>(callee.registers.size());
        region.frameBytes = alignFrame(callee.localBytes);
        for (std::int32_t param : callee.params) region.params.push_back(param + symbols);
        for (std::int32_t param : callee.returnParams) region.returnParams.push_back(param + symbols);
        regionOf[callee.name] = static_cast<std::int32_t>(regions.size());
        regions.push_back(std::move(region));
    }
    for (CallSite& call : linked.calls)
        if (auto found = regionOf.find(call.callee); found != regionOf.end())
            call.region = found->second;

    // The stack: the deepest chain of frames; with recursion, the kernel's frame plus CUDA's default.
    std::vector<std::vector<std::int32_t>> callees(regions.size());
    for (std::size_t r = 0; r < regions.size(); ++r)
        for (std::int32_t i = regions[r].first; i < regions[r].end; ++i) {
            const Instruction& instruction = linked.instructions[static_cast<std::size_t>(i)];
            if (instruction.op == Op::Call && instruction.call >= 0) {
                const std::int32_t region = linked.calls[static_cast<std::size_t>(instruction.call)].region;
                if (region >= 0) callees[r].push_back(region);
            }
        }
    std::vector<int> state(regions.size(), 0); // 0 unvisited, 1 on the chain, 2 done
    std::vector<std::uint64_t> deepest(regions.size(), 0);
    bool recursive = false;
    std::function<std::uint64_t(std::int32_t)> depth = [&](std::int32_t r) -> std::uint64_t {
        if (state[static_cast<std::size_t>(r)] == 1) {
            recursive = true;
            return 0;
        }
        if (state[static_cast<std::size_t>(r)] == 2)
            return deepest[static_cast<std::size_t>(r)];
        state[static_cast<std::size_t>(r)] = 1;
        std::uint64_t below = 0;
        for (std::int32_t callee : callees[static_cast<std::size_t>(r)])
            below = std::max(below, depth(callee));
        state[static_cast<std::size_t>(r)] = 2;
        return deepest[static_cast<std::size_t>(r)] = regions[static_cast<std::size_t>(r)].frameBytes + below;
    };
    const std::uint64_t chain = depth(0);
    linked.recursive = recursive;
    linked.localBytes = recursive ? std::max(chain, regions[0].frameBytes + kDeviceStackBytes) : chain;
    linked.regions = std::move(regions);
    buildControlFlow(linked);
    entry = std::move(linked);
}

} // namespace

Builtin builtinNamed(std::string_view name)
{
    if (name == "vprintf") return Builtin::Vprintf;
    if (name == "__assertfail") return Builtin::AssertFail;
    return Builtin::None;
}

void linkCalls(Module& module)
{
    for (Function& function : module.functions) {
        for (std::size_t c = 0; c < function.calls.size(); ++c) {
            CallSite& call = function.calls[c];
            call.builtin = builtinNamed(call.callee);
            if (call.builtin != Builtin::None || module.findFunction(call.callee))
                continue;
            // Where the call is, for the message.
            const auto at = std::find_if(function.instructions.begin(), function.instructions.end(),
                                         [&](const Instruction& instruction) { return instruction.call == static_cast<std::int32_t>(c); });
            UnsupportedConstruct construct;
            construct.construct = "call " + call.callee;
            construct.kind = "a function with no body in the module";
            construct.function = function.name;
            if (at != function.instructions.end()) {
                construct.ptxLine = at->ptxLine;
                construct.source = at->source;
            }
            function.unsupported.push_back(std::move(construct));
        }
    }
    for (Function& function : module.functions)
        if (function.isEntry && !function.calls.empty() && module.unsupportedFor(function).empty())
            link(module, function);
}

} // namespace warpscope::ptx
