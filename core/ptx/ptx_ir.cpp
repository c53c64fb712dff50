#include "ptx/ptx_ir.h"

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
        "bar.warp.sync", "membar", "shfl", "vote", "activemask", "atom", "red",
    };
    static_assert(sizeof(names) / sizeof(names[0]) == static_cast<int>(Op::Red) + 1);
    return names[static_cast<int>(op)];
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

} // namespace warpscope::ptx
