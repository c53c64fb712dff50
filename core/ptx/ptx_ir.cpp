#include "ptx/ptx_ir.h"

#include "ptx/ptx_error.h"

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <set>
#include <utility>

namespace warpscope::ptx {

const char* typeName(Type type)
{
    switch (type) {
    case Type::None: return "none";
    case Type::Pred: return "pred";
    case Type::B8: return "b8";
    case Type::B16: return "b16";
    case Type::B32: return "b32";
    case Type::B64: return "b64";
    case Type::U8: return "u8";
    case Type::U16: return "u16";
    case Type::U32: return "u32";
    case Type::U64: return "u64";
    case Type::S8: return "s8";
    case Type::S16: return "s16";
    case Type::S32: return "s32";
    case Type::S64: return "s64";
    case Type::F16: return "f16";
    case Type::F32: return "f32";
    case Type::F64: return "f64";
    case Type::BF16: return "bf16";
    case Type::F16x2: return "f16x2";
    case Type::BF16x2: return "bf16x2";
    case Type::TF32: return "tf32";
    }
    return "?";
}

const char* spaceName(Space space)
{
    switch (space) {
    case Space::Generic: return "generic";
    case Space::Global: return "global";
    case Space::Shared: return "shared";
    case Space::Local: return "local";
    case Space::Param: return "param";
    case Space::Const: return "const";
    }
    return "?";
}

const char* opName(Op op)
{
    static constexpr const char* names[] = {
        "mov", "ld", "st", "cvta", "cvt", "add", "sub", "mul", "mad", "fma", "div", "rem", "min", "max",
        "abs", "neg", "rcp", "sqrt", "sad", "and", "or", "xor", "not", "cnot", "shl", "shr", "popc", "clz",
        "brev", "bfe", "bfi", "prmt", "lop3", "setp", "selp", "slct", "bra", "ret", "exit", "bar.sync",
        "bar.warp.sync", "membar", "shfl", "vote", "activemask", "atom", "red", "call",
        "bfind", "shf", "copysign", "ex2", "lg2", "rsqrt", "sin", "cos", "tanh", "match", "redux", "nanosleep", "set",
        "mbarrier", "cp.async", "cp.async.commit_group", "cp.async.wait_group", "cp.async.mbarrier.arrive",
        "wmma.load", "wmma.store", "wmma.mma", "mma", "ldmatrix", "trap",
    };
    static_assert(sizeof(names) / sizeof(names[0]) == static_cast<int>(Op::Trap) + 1);
    return names[static_cast<int>(op)];
}

bool firstOperandIsRead(const Instruction& instruction)
{
    switch (instruction.op) {
    case Op::BarSync: // bar.red's first operand is its destination
        return instruction.bar == BarMode::Sync || instruction.bar == BarMode::Arrive;
    case Op::St: case Op::Red: case Op::Bra: case Op::BarWarpSync: case Op::Nanosleep:
    case Op::CpAsync: case Op::CpAsyncCommit: case Op::CpAsyncWait: case Op::CpAsyncMbarrierArrive:
    case Op::WmmaStore:
        return true;
    case Op::Mbarrier:
        return instruction.mbarrier == MbarrierOp::Init || instruction.mbarrier == MbarrierOp::Inval;
    default:
        return false;
    }
}

const Function* Module::findFunction(std::string_view name) const
{
    for (const Function& function : functions)
        if (function.name == name)
            return &function;
    return nullptr;
}

std::vector<std::string> Module::entryNames() const
{
    std::vector<std::string> names;
    for (const Function& function : functions)
        if (function.isEntry)
            names.push_back(function.name);
    return names;
}

std::vector<const Function*> Module::reachableFrom(const Function& entry) const
{
    std::vector<const Function*> reached{&entry};
    std::set<const Function*> seen{&entry};
    for (std::size_t i = 0; i < reached.size(); ++i)
        for (const std::string& name : reached[i]->callees)
            if (const Function* callee = findFunction(name); callee && seen.insert(callee).second)
                reached.push_back(callee);
    return reached;
}

namespace {

void sortByLine(std::vector<const UnsupportedConstruct*>& constructs)
{
    std::stable_sort(constructs.begin(), constructs.end(),
                     [](const UnsupportedConstruct* a, const UnsupportedConstruct* b) { return a->ptxLine < b->ptxLine; });
}

} // namespace

std::vector<const UnsupportedConstruct*> Module::unsupportedFor(const Function& entry) const
{
    std::vector<const UnsupportedConstruct*> found;
    for (const Function* function : reachableFrom(entry))
        for (const UnsupportedConstruct& construct : function->unsupported)
            found.push_back(&construct);
    sortByLine(found);
    return found;
}

std::vector<const UnsupportedConstruct*> Module::allUnsupported() const
{
    std::vector<const UnsupportedConstruct*> found;
    for (const UnsupportedConstruct& construct : unsupported)
        found.push_back(&construct);
    for (const Function& function : functions)
        for (const UnsupportedConstruct& construct : function.unsupported)
            found.push_back(&construct);
    sortByLine(found);
    return found;
}

namespace {

// "PTX line 212 (reduce.cu:17)", with " in device function f" when `function` is not `context`.
std::string locationText(const Module& module, int ptxLine, const SourceLocation& source, const std::string& function,
                         std::string_view context)
{
    std::string text = "PTX line " + std::to_string(ptxLine);
    if (auto file = module.files.find(source.file); file != module.files.end() && source.line > 0)
        text += " (" + std::filesystem::path(file->second).filename().string() + ":" + std::to_string(source.line) + ")";
    const Function* found = function.empty() ? nullptr : module.findFunction(function);
    if (!function.empty() && function != context)
        text += std::string(" in ") + (found && found->isEntry ? "kernel " : "device function ") + function;
    return text;
}

} // namespace

GridWorkspaceRead findGridWorkspaceRead(const Module& module, const Function& entry)
{
    for (const Function* function : module.reachableFrom(entry))
        for (const Instruction& instruction : function->instructions)
            for (const Operand& operand : instruction.operands)
                if (operand.kind == Operand::Kind::Special &&
                    (operand.special == SpecialReg::EnvReg1 || operand.special == SpecialReg::EnvReg2))
                    return {function, &instruction};
    return {};
}

std::string describeCooperativeNeed(const Module& module, const Function& entry, const GridWorkspaceRead& read)
{
    const Operand* workspace = nullptr;
    for (const Operand& operand : read.instruction->operands)
        if (operand.kind == Operand::Kind::Special && !workspace)
            workspace = &operand;
    const char* name = workspace && workspace->special == SpecialReg::EnvReg2 ? "%envreg2" : "%envreg1";
    return locationText(module, read.instruction->ptxLine, read.instruction->source, read.function->name, entry.name) +
           ": kernel " + entry.name +
           " synchronises the whole grid (cooperative groups' grid.sync() or grid.is_valid(), which read the grid "
           "workspace in '" + name + "'), so it needs a cooperative launch (cudaLaunchCooperativeKernel): every block "
           "of the grid must be resident on the GPU at once";
}

std::string describeUnsupported(const Module& module, const UnsupportedConstruct& construct, std::string_view context)
{
    std::string text = locationText(module, construct.ptxLine, construct.source, construct.function, context) + ": '" +
                       construct.construct + "'";
    if (construct.kind != "instruction")
        text += " (" + construct.kind + ")";
    return text + " is not supported by the simulator yet";
}

void requireSupported(const Module& module, const Function& entry, const std::string& prefix)
{
    const std::vector<const UnsupportedConstruct*> blocking = module.unsupportedFor(entry);
    if (blocking.empty())
        return;
    std::string message = prefix + describeUnsupported(module, *blocking.front(), entry.name);
    if (blocking.size() > 1)
        message += " (and " + std::to_string(blocking.size() - 1) + " more: 'warpscope compile --check' lists them)";
    std::vector<UnsupportedConstruct> copies;
    for (const UnsupportedConstruct* construct : blocking)
        copies.push_back(*construct);
    throw UnsupportedPtx(message, std::move(copies));
}

} // namespace warpscope::ptx
