// Decoding an opcode such as "ld.global.nc.v4.f32" into an Instruction's op and modifiers. Every
// component must be understood: an unknown one makes the whole instruction unsupported, so nothing
// the simulator cannot execute faithfully ever reaches it.
#include "ptx/ptx_opcode.h"

#include "ptx/ptx_error.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace warpscope::ptx {

namespace {

std::vector<std::string_view> splitDots(std::string_view text)
{
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        std::size_t dot = text.find('.', start);
        parts.push_back(text.substr(start, dot == std::string_view::npos ? text.size() - start : dot - start));
        if (dot == std::string_view::npos)
            break;
        start = dot + 1;
    }
    return parts;
}

const std::unordered_map<std::string_view, Op>& baseOps()
{
    static const std::unordered_map<std::string_view, Op> ops = {
        {"mov", Op::Mov},   {"ld", Op::Ld},       {"st", Op::St},       {"cvta", Op::Cvta},
        {"cvt", Op::Cvt},   {"add", Op::Add},     {"sub", Op::Sub},     {"mul", Op::Mul},
        {"mad", Op::Mad},   {"fma", Op::Fma},     {"div", Op::Div},     {"rem", Op::Rem},
        {"min", Op::Min},   {"max", Op::Max},     {"abs", Op::Abs},     {"neg", Op::Neg},
        {"rcp", Op::Rcp},   {"sqrt", Op::Sqrt},   {"sad", Op::Sad},     {"and", Op::And},
        {"or", Op::Or},     {"xor", Op::Xor},     {"not", Op::Not},     {"cnot", Op::Cnot},
        {"shl", Op::Shl},   {"shr", Op::Shr},     {"popc", Op::Popc},   {"clz", Op::Clz},
        {"brev", Op::Brev}, {"bfe", Op::Bfe},     {"bfi", Op::Bfi},     {"prmt", Op::Prmt},
        {"lop3", Op::Lop3}, {"setp", Op::Setp},   {"selp", Op::Selp},   {"slct", Op::Slct},
        {"bra", Op::Bra},   {"ret", Op::Ret},     {"exit", Op::Exit},   {"bar", Op::BarSync},
        {"barrier", Op::BarSync}, {"membar", Op::MemBar}, {"fence", Op::MemBar},
        {"shfl", Op::Shfl}, {"vote", Op::Vote},   {"activemask", Op::Activemask},
        {"atom", Op::Atom}, {"red", Op::Red},     {"call", Op::Call},   {"bfind", Op::Bfind},
        {"shf", Op::Shf},   {"copysign", Op::Copysign}, {"ex2", Op::Ex2}, {"lg2", Op::Lg2},
        {"rsqrt", Op::Rsqrt}, {"sin", Op::Sin},   {"cos", Op::Cos},     {"tanh", Op::Tanh},
        {"match", Op::Match}, {"redux", Op::Redux}, {"nanosleep", Op::Nanosleep}, {"trap", Op::Trap}, {"set", Op::Set},
        // with carry-in (Instruction::carryIn)
        {"addc", Op::Add},  {"subc", Op::Sub},    {"madc", Op::Mad},
    };
    return ops;
}

// Every instruction name of the PTX ISA (9.x, "Instructions"), supported or not: an opcode outside
// this list is not PTX at all (bad input), one inside it is PTX the simulator may not run yet.
bool isPtxInstructionName(std::string_view name)
{
    static const std::unordered_map<std::string_view, bool> names = [] {
        std::unordered_map<std::string_view, bool> table;
        for (std::string_view word : {
                 "abs", "activemask", "add", "addc", "alloca", "and", "applypriority", "atom", "bar", "barrier",
                 "bfe", "bfi", "bfind", "bmsk", "bra", "brev", "brkpt", "brx", "call", "clusterlaunchcontrol",
                 "clz", "cnot", "copysign", "cos", "cp", "createpolicy", "cvt", "cvta", "discard", "div", "dp2a",
                 "dp4a", "elect", "ex2", "exit", "fence", "fma", "fns", "getctarank", "griddepcontrol", "isspacep",
                 "istypep", "ld", "ldmatrix", "ldu", "lg2", "lop3", "mad", "mad24", "madc", "mapa", "match", "max",
                 "mbarrier", "membar", "min", "mma", "mov", "movmatrix", "mul", "mul24", "multimem", "nanosleep",
                 "neg", "not", "or", "pmevent", "popc", "prefetch", "prefetchu", "prmt", "rcp", "red", "redux",
                 "rem", "ret", "rsqrt", "sad", "selp", "set", "setmaxnreg", "setp", "shf", "shfl", "shl", "shr",
                 "sin", "slct", "sqrt", "st", "stackrestore", "stacksave", "stmatrix", "sub", "subc", "suld",
                 "suq", "sured", "sust", "szext", "tanh", "tcgen05", "tensormap", "testp", "tex", "tld4", "trap",
                 "txq", "vabsdiff", "vabsdiff2", "vabsdiff4", "vadd", "vadd2", "vadd4", "vavrg2", "vavrg4", "vmad",
                 "vmax", "vmax2", "vmax4", "vmin", "vmin2", "vmin4", "vote", "vset", "vset2", "vset4", "vshl",
                 "vshr", "vsub", "vsub2", "vsub4", "wgmma", "wmma", "xor"})
            table.emplace(word, true);
        return table;
    }();
    return names.contains(name);
}

std::optional<Type> typeFromName(std::string_view name)
{
    static const std::unordered_map<std::string_view, Type> types = {
        {"pred", Type::Pred}, {"b8", Type::B8},   {"b16", Type::B16}, {"b32", Type::B32},
        {"b64", Type::B64},   {"u8", Type::U8},   {"u16", Type::U16}, {"u32", Type::U32},
        {"u64", Type::U64},   {"s8", Type::S8},   {"s16", Type::S16}, {"s32", Type::S32},
        {"s64", Type::S64},   {"f16", Type::F16}, {"f32", Type::F32}, {"f64", Type::F64},
        {"bf16", Type::BF16}, {"f16x2", Type::F16x2}, {"bf16x2", Type::BF16x2},
    };
    auto found = types.find(name);
    if (found == types.end())
        return std::nullopt;
    return found->second;
}

std::optional<Space> spaceFromName(std::string_view name)
{
    if (name == "global") return Space::Global;
    if (name == "shared" || name == "shared::cta") return Space::Shared;
    if (name == "local") return Space::Local;
    if (name == "param" || name == "param::entry") return Space::Param;
    if (name == "const") return Space::Const;
    return std::nullopt;
}

std::optional<CmpOp> cmpFromName(std::string_view name)
{
    static const std::unordered_map<std::string_view, CmpOp> cmps = {
        {"eq", CmpOp::Eq},   {"ne", CmpOp::Ne},   {"lt", CmpOp::Lt},   {"le", CmpOp::Le},
        {"gt", CmpOp::Gt},   {"ge", CmpOp::Ge},   {"lo", CmpOp::Lo},   {"ls", CmpOp::Ls},
        {"hi", CmpOp::Hi},   {"hs", CmpOp::Hs},   {"equ", CmpOp::Equ}, {"neu", CmpOp::Neu},
        {"ltu", CmpOp::Ltu}, {"leu", CmpOp::Leu}, {"gtu", CmpOp::Gtu}, {"geu", CmpOp::Geu},
        {"num", CmpOp::Num}, {"nan", CmpOp::Nan},
    };
    auto found = cmps.find(name);
    if (found == cmps.end())
        return std::nullopt;
    return found->second;
}

std::optional<Rounding> roundingFromName(std::string_view name)
{
    if (name == "rn") return Rounding::Rn;
    if (name == "rz") return Rounding::Rz;
    if (name == "rm") return Rounding::Rm;
    if (name == "rp") return Rounding::Rp;
    if (name == "rni") return Rounding::Rni;
    if (name == "rzi") return Rounding::Rzi;
    if (name == "rmi") return Rounding::Rmi;
    if (name == "rpi") return Rounding::Rpi;
    if (name == "rna") return Rounding::Rna;
    return std::nullopt;
}

std::optional<AtomOp> atomFromName(std::string_view name)
{
    static const std::unordered_map<std::string_view, AtomOp> ops = {
        {"add", AtomOp::Add}, {"min", AtomOp::Min}, {"max", AtomOp::Max},   {"inc", AtomOp::Inc},
        {"dec", AtomOp::Dec}, {"and", AtomOp::And}, {"or", AtomOp::Or},     {"xor", AtomOp::Xor},
        {"exch", AtomOp::Exch}, {"cas", AtomOp::Cas},
    };
    auto found = ops.find(name);
    if (found == ops.end())
        return std::nullopt;
    return found->second;
}

// Qualifiers that change caching, ordering or scope but not what a single-threaded-per-lane
// interpreter computes: the simulator executes memory operations in a sequentially consistent order.
bool isIgnorableQualifier(std::string_view name)
{
    static const std::unordered_map<std::string_view, bool> names = {
        {"ca", true},  {"cg", true},  {"cs", true},  {"lu", true},      {"cv", true},
        {"nc", true},  {"wb", true},  {"wt", true},  {"relaxed", true}, {"acquire", true},
        {"release", true}, {"acq_rel", true}, {"weak", true}, {"sc", true}, {"cta", true},
        {"gpu", true}, {"sys", true}, {"gl", true},
    };
    return names.contains(name) || name.starts_with("L1::") || name.starts_with("L2::");
}

std::optional<MemoryOrder> memoryOrderFromName(std::string_view name)
{
    if (name == "relaxed") return MemoryOrder::Relaxed;
    if (name == "acquire") return MemoryOrder::Acquire;
    if (name == "release") return MemoryOrder::Release;
    if (name == "acq_rel") return MemoryOrder::AcqRel;
    if (name == "sc") return MemoryOrder::Sc;
    return std::nullopt;
}

// mbarrier.* and cp.async.* (PTX ISA, "Parallel Synchronization and Communication Instructions:
// mbarrier" and "Data Movement: cp.async"): the forms sm_80 kernels use (cuda::barrier,
// cuda::pipeline, memcpy_async), with the acquire/release qualifiers and CTA scope of sm_90. The
// cluster forms, transaction counts (expect_tx, TMA) and cp.async.bulk stay unsupported.
void decodeAsync(const std::vector<std::string_view>& parts, Instruction& instruction, const std::function<void()>& unsupported)
{
    auto isSharedCta = [](std::string_view part) { return part == "shared" || part == "shared::cta"; };
    auto ordering = [](std::string_view part) {
        return part == "release" || part == "acquire" || part == "relaxed" || part == "cta";
    };
    if (parts.front() == "mbarrier") {
        static const std::unordered_map<std::string_view, MbarrierOp> operations = {
            {"init", MbarrierOp::Init}, {"inval", MbarrierOp::Inval}, {"arrive", MbarrierOp::Arrive},
            {"arrive_drop", MbarrierOp::ArriveDrop}, {"test_wait", MbarrierOp::TestWait},
            {"try_wait", MbarrierOp::TryWait}, {"pending_count", MbarrierOp::PendingCount},
        };
        auto operation = parts.size() > 1 ? operations.find(parts[1]) : operations.end();
        if (operation == operations.end())
            unsupported(); // expect_tx, complete_tx (transaction counts) and anything unknown
        instruction.op = Op::Mbarrier;
        instruction.mbarrier = operation->second;
        bool typed = false;
        for (std::size_t i = 2; i < parts.size(); ++i) {
            const std::string_view part = parts[i];
            const MbarrierOp op = instruction.mbarrier;
            if (part == "b64" && !typed) { typed = true; instruction.type = Type::B64; continue; }
            if (isSharedCta(part) && instruction.space == Space::Generic && op != MbarrierOp::PendingCount) {
                instruction.space = Space::Shared;
                continue;
            }
            if (part == "parity" && (op == MbarrierOp::TestWait || op == MbarrierOp::TryWait) && !instruction.parity) {
                instruction.parity = true;
                continue;
            }
            if (part == "noComplete" && (op == MbarrierOp::Arrive || op == MbarrierOp::ArriveDrop)) {
                instruction.noComplete = true;
                continue;
            }
            if (ordering(part) && op != MbarrierOp::Init && op != MbarrierOp::Inval && op != MbarrierOp::PendingCount)
                continue;
            unsupported();
        }
        if (!typed)
            unsupported();
        return;
    }
    // cp.async...
    if (parts.size() < 3 || parts[1] != "async")
        unsupported(); // cp.reduce.async.bulk and other cp forms
    instruction.type = Type::None;
    if (parts[2] == "commit_group" || parts[2] == "wait_group" || parts[2] == "wait_all") {
        if (parts.size() != 3)
            unsupported();
        instruction.op = parts[2] == "commit_group" ? Op::CpAsyncCommit : Op::CpAsyncWait;
        instruction.waitAll = parts[2] == "wait_all";
        return;
    }
    if (parts[2] == "mbarrier") {
        if (parts.size() < 4 || parts[3] != "arrive")
            unsupported();
        instruction.op = Op::CpAsyncMbarrierArrive;
        bool typed = false;
        for (std::size_t i = 4; i < parts.size(); ++i) {
            if (parts[i] == "noinc" && !instruction.noIncrement) { instruction.noIncrement = true; continue; }
            if (isSharedCta(parts[i]) && instruction.space == Space::Generic) { instruction.space = Space::Shared; continue; }
            if (parts[i] == "b64" && !typed) { typed = true; instruction.type = Type::B64; continue; }
            unsupported();
        }
        if (!typed)
            unsupported();
        return;
    }
    if (parts[2] != "ca" && parts[2] != "cg")
        unsupported(); // cp.async.bulk (TMA) and anything unknown
    instruction.op = Op::CpAsync;
    instruction.bypassL1 = parts[2] == "cg";
    bool shared = false, global = false;
    for (std::size_t i = 3; i < parts.size(); ++i) {
        const std::string_view part = parts[i];
        if (isSharedCta(part) && !shared && !global) { shared = true; continue; }
        if (part == "global" && shared && !global) { global = true; continue; }
        if (global && (part == "L2::64B" || part == "L2::128B" || part == "L2::256B"))
            continue; // a prefetch size: how much more L2 fetches, not what is copied
        unsupported(); // .L2::cache_hint (a cache-policy operand) and anything unknown
    }
    if (!shared || !global)
        unsupported();
    instruction.space = Space::Shared;
}

// wmma.load/store/mma, mma.sync, ldmatrix and stmatrix (PTX ISA, "Warp Level Matrix
// Multiply-Accumulate Instructions"): the forms mma.h and hand-written Tensor Core kernels use with
// half-precision, tf32 and 8-bit integer multiplicands (and wmma's f64 m8n8k4, and the m32n8k16 and
// m8n32k16 wmma shapes mma.h offers for 16- and 8-bit multiplicands). Other shapes and
// types (sub-byte and single-bit integers, fp8, f64 mma, sparse mma, block scaling) stay unsupported.
void decodeMatrix(const std::vector<std::string_view>& parts, Instruction& instruction, const std::function<void()>& unsupported)
{
    std::size_t i = 1;
    auto take = [&](std::string_view word) {
        if (i < parts.size() && parts[i] == word) {
            ++i;
            return true;
        }
        return false;
    };
    auto layout = [&](bool& colMajor) {
        if (take("row")) colMajor = false;
        else if (take("col")) colMajor = true;
        else unsupported();
    };
    auto shape = [&] {
        if (i >= parts.size()) unsupported();
        const std::string_view word = parts[i++];
        auto set = [&](int m, int n, int k) {
            instruction.shapeM = static_cast<std::uint8_t>(m);
            instruction.shapeN = static_cast<std::uint8_t>(n);
            instruction.shapeK = static_cast<std::uint8_t>(k);
        };
        if (word == "m16n16k16") set(16, 16, 16);
        else if (word == "m32n8k16") set(32, 8, 16);
        else if (word == "m8n32k16") set(8, 32, 16);
        else if (word == "m16n16k8") set(16, 16, 8);
        else if (word == "m16n8k32") set(16, 8, 32);
        else if (word == "m16n8k16") set(16, 8, 16);
        else if (word == "m16n8k8") set(16, 8, 8);
        else if (word == "m16n8k4") set(16, 8, 4);
        else if (word == "m8n8k4") set(8, 8, 4);
        else unsupported();
    };
    // .tf32 is an alternate format, named only here and as cvt's destination, so it is not in typeFromName.
    auto type = [&]() -> Type {
        if (i >= parts.size()) unsupported();
        const std::string_view word = parts[i++];
        if (word == "tf32") return Type::TF32;
        const std::optional<Type> found = typeFromName(word);
        if (!found) unsupported();
        return *found;
    };
    auto half = [](Type t) { return t == Type::F16 || t == Type::BF16; };
    auto byte = [](Type t) { return t == Type::S8 || t == Type::U8; };
    auto accumulator = [](Type t) { return t == Type::F16 || t == Type::F32; };
    const std::string_view family = parts.front();
    if (family == "ldmatrix" || family == "stmatrix") {
        // {ld,st}matrix.sync.aligned.m8n8.x{1,2,4}{.trans}{.shared{::cta}}.b16, in any order
        const bool store = family == "stmatrix";
        instruction.op = store ? Op::WmmaStore : Op::Ldmatrix;
        if (!take("sync") || !take("aligned")) unsupported();
        bool shape8 = false;
        for (; i < parts.size(); ++i) {
            const std::string_view part = parts[i];
            if (part == "m8n8" && !shape8) shape8 = true;
            else if ((part == "x1" || part == "x2" || part == "x4") && instruction.matrixCount == 0)
                instruction.matrixCount = static_cast<std::uint8_t>(part[1] - '0');
            else if (part == "trans" && !instruction.transpose) instruction.transpose = true;
            else if ((part == "shared" || part == "shared::cta") && instruction.space == Space::Generic) instruction.space = Space::Shared;
            else if (part == "b16" && instruction.type == Type::None) instruction.type = Type::B16;
            else unsupported(); // m16n16, m16n8 (b8 and the sm_100 forms) and anything unknown
        }
        if (!shape8 || instruction.matrixCount == 0 || instruction.type != Type::B16) unsupported();
        instruction.shapeM = instruction.shapeN = 8;
        return;
    }
    if (family == "mma") {
        // mma.sync.aligned.shape.row.col{.satfinite}.dtype.atype.btype.ctype:
        //   m16n8k{8,16} .f16/.bf16 (bf16: .f32 accumulators only), m16n8k{4,8} .f32.tf32.tf32.f32,
        //   m16n8k{16,32} .s32.{s8,u8}.{s8,u8}.s32 (.satfinite only here)
        instruction.op = Op::Mma;
        if (!take("sync") || !take("aligned")) unsupported();
        shape();
        if (instruction.shapeM != 16 || instruction.shapeN != 8) unsupported(); // m8n8k4 (Volta's quad-pair form) and others
        layout(instruction.colMajor);
        layout(instruction.colMajorB);
        if (instruction.colMajor || !instruction.colMajorB) unsupported(); // the ISA allows only .row.col here
        instruction.satfinite = take("satfinite");
        instruction.type = type();
        instruction.multiplicandType = type();
        instruction.multiplicandTypeB = type();
        instruction.type2 = type();
        if (i != parts.size()) unsupported();
        const Type a = instruction.multiplicandType, b = instruction.multiplicandTypeB;
        const int k = instruction.shapeK;
        if (byte(a) && byte(b)) {
            if ((k != 16 && k != 32) || instruction.type != Type::S32 || instruction.type2 != Type::S32) unsupported();
            return;
        }
        if (instruction.satfinite || a != b) unsupported();
        if (a == Type::TF32) {
            if ((k != 4 && k != 8) || instruction.type != Type::F32 || instruction.type2 != Type::F32) unsupported();
            return;
        }
        if ((k != 8 && k != 16) || !half(a) || !accumulator(instruction.type) || !accumulator(instruction.type2)) unsupported();
        if (a == Type::BF16 && (instruction.type != Type::F32 || instruction.type2 != Type::F32)) unsupported();
        return;
    }
    // wmma.{load.a,load.b,load.c,store.d,mma}
    if (i >= parts.size()) unsupported();
    const std::string_view operation = parts[i++];
    // The shapes each element type comes in: m16n16k16, m32n8k16 and m8n32k16 (f16, bf16, s8, u8;
    // f16, f32, s32 accumulators), m16n16k8 (tf32; f32 accumulators), m8n8k4 (f64).
    auto shapeTakes = [&](Type t, bool multiplicand) {
        const int m = instruction.shapeM, n = instruction.shapeN, k = instruction.shapeK;
        if (m == 8 && n == 8 && k == 4) return t == Type::F64;
        if (m * n == 256 && k == 16) return multiplicand ? half(t) || byte(t) : accumulator(t) || t == Type::S32;
        if (m == 16 && n == 16 && k == 8) return multiplicand ? t == Type::TF32 : t == Type::F32;
        return false;
    };
    if (operation == "load" || operation == "store") {
        instruction.op = operation == "load" ? Op::WmmaLoad : Op::WmmaStore;
        if (i >= parts.size()) unsupported();
        const std::string_view matrix = parts[i++];
        if (operation == "load" && matrix == "a") instruction.fragment = MatrixFragment::A;
        else if (operation == "load" && matrix == "b") instruction.fragment = MatrixFragment::B;
        else if (operation == "load" && matrix == "c") instruction.fragment = MatrixFragment::C;
        else if (operation == "store" && matrix == "d") instruction.fragment = MatrixFragment::D;
        else unsupported();
        if (!take("sync") || !take("aligned")) unsupported();
        layout(instruction.colMajor);
        shape();
        if (i < parts.size()) {
            if (auto space = spaceFromName(parts[i]); space && (*space == Space::Global || *space == Space::Shared)) {
                instruction.space = *space;
                ++i;
            }
        }
        instruction.type = type();
        if (i != parts.size()) unsupported();
        const bool multiplicand = instruction.fragment == MatrixFragment::A || instruction.fragment == MatrixFragment::B;
        if (!shapeTakes(instruction.type, multiplicand))
            unsupported();
        if (multiplicand)
            instruction.multiplicandType = instruction.multiplicandTypeB = instruction.type;
        return;
    }
    if (operation != "mma") unsupported();
    // wmma.mma.sync.aligned.alayout.blayout.shape.dtype.ctype{.satfinite} (f16 multiplicands),
    // ...m16n16k16.f32.bf16.bf16.f32, ...m16n16k8.f32.tf32.tf32.f32,
    // ...m16n16k16.s32.{s8,u8}.{s8,u8}.s32{.satfinite} (A and B alike) and ...m8n8k4{.rn}.f64.f64.f64.f64;
    // m32n8k16 and m8n32k16 take what m16n16k16 takes
    instruction.op = Op::WmmaMma;
    if (!take("sync") || !take("aligned")) unsupported();
    layout(instruction.colMajor);
    layout(instruction.colMajorB);
    shape();
    if (instruction.shapeM == 8 && instruction.shapeN == 8) {
        // .rn, the f64 form's default and the only rounding modelled, stands after the shape in the
        // ISA's syntax and after the types in what NVRTC (mma.h) emits; .rz, .rm and .rp stay unsupported.
        take("rn");
        for (int t = 0; t < 4; ++t)
            if (type() != Type::F64) unsupported();
        take("rn");
        instruction.type = instruction.type2 = instruction.multiplicandType = Type::F64;
    } else {
        if (instruction.shapeM * instruction.shapeN != 256) unsupported(); // m16n16, m32n8, m8n32
        instruction.type = type();
        const Type second = type();
        if (second == Type::BF16 || second == Type::TF32 || byte(second)) { // .dtype.atype.btype.ctype
            if (type() != second) unsupported();
            instruction.multiplicandType = second;
            instruction.type2 = type();
            const Type accumulatorType = byte(second) ? Type::S32 : Type::F32;
            if (instruction.type != accumulatorType || instruction.type2 != accumulatorType) unsupported();
        } else { // .dtype.ctype: .f16 multiplicands
            instruction.multiplicandType = Type::F16;
            instruction.type2 = second;
            if (!accumulator(instruction.type) || !accumulator(instruction.type2)) unsupported();
        }
        if (!shapeTakes(instruction.multiplicandType, true)) unsupported();
    }
    instruction.multiplicandTypeB = instruction.multiplicandType;
    // .satfinite: integer wmma (PTX ISA, wmma.mma, "Saturation at the output"), and the .f16-multiplicand
    // forms that PTX ISA 6.0-6.4 allowed it on (removed from PTX ISA 6.5; no longer emitted by mma.h).
    if (take("satfinite")) {
        if (instruction.multiplicandType != Type::F16 && !byte(instruction.multiplicandType)) unsupported();
        instruction.satfinite = true;
    }
    if (i != parts.size()) unsupported();
}

} // namespace

void decodeOpcode(std::string_view opcode, Instruction& instruction)
{
    const std::vector<std::string_view> parts = splitDots(opcode);
    auto unsupported = [&] { throw PtxError::unsupported(std::string(opcode), instruction.ptxLine); };
    if (!isPtxInstructionName(parts.front()))
        throw PtxError("'" + std::string(opcode) + "' is not a PTX instruction", instruction.ptxLine);
    if (parts.front() == "mbarrier" || parts.front() == "cp") {
        decodeAsync(parts, instruction, unsupported);
        return;
    }
    if (parts.front() == "wmma" || parts.front() == "mma" || parts.front() == "ldmatrix" || parts.front() == "stmatrix") {
        decodeMatrix(parts, instruction, unsupported);
        return;
    }
    auto base = baseOps().find(parts.front());
    if (base == baseOps().end())
        unsupported();
    instruction.op = base->second;
    instruction.carryIn = parts.front() == "addc" || parts.front() == "subc" || parts.front() == "madc";
    const Op op = instruction.op;

    std::vector<Type> types;
    bool noFlush = false; // atom/red .noftz
    for (std::size_t i = 1; i < parts.size(); ++i) {
        const std::string_view part = parts[i];
        if (auto type = typeFromName(part)) {
            types.push_back(*type);
            continue;
        }
        if (op == Op::Cvt && part == "tf32") { // an alternate format: only as cvt's destination
            types.push_back(Type::TF32);
            continue;
        }
        if (op == Op::Ld || op == Op::St || op == Op::Atom || op == Op::Red || op == Op::Cvta) {
            if (auto space = spaceFromName(part)) {
                instruction.space = *space;
                continue;
            }
        }
        if (op == Op::Cvta && part == "to") {
            instruction.cvtaToSpace = true;
            continue;
        }
        if ((op == Op::Ld || op == Op::St || op == Op::Atom || op == Op::Red) && (part == "v2" || part == "v4") &&
            instruction.vectorWidth == 1) {
            instruction.vectorWidth = part == "v2" ? 2 : 4;
            continue;
        }
        if ((op == Op::Ld || op == Op::St) && part == "volatile") {
            instruction.isVolatile = true;
            continue;
        }
        if ((op == Op::Setp || op == Op::Set || op == Op::Slct) && instruction.cmp == CmpOp::None) {
            if (op == Op::Setp || op == Op::Set) {
                if (auto cmp = cmpFromName(part)) {
                    instruction.cmp = *cmp;
                    continue;
                }
            }
        }
        if ((op == Op::Setp || op == Op::Set) && instruction.cmp != CmpOp::None && instruction.boolOp == BoolOp::None) {
            if (part == "and") { instruction.boolOp = BoolOp::And; continue; }
            if (part == "or") { instruction.boolOp = BoolOp::Or; continue; }
            if (part == "xor") { instruction.boolOp = BoolOp::Xor; continue; }
        }
        if ((op == Op::Add || op == Op::Sub || op == Op::Mad) && part == "cc" && !instruction.carryOut) {
            instruction.carryOut = true;
            continue;
        }
        if ((op == Op::Mul || op == Op::Mad) && (part == "lo" || part == "hi" || part == "wide")) {
            instruction.mulMode = part == "lo" ? MulMode::Lo : part == "hi" ? MulMode::Hi : MulMode::Wide;
            continue;
        }
        if (auto rounding = roundingFromName(part)) {
            instruction.rounding = *rounding;
            continue;
        }
        if (part == "ftz") { instruction.ftz = true; continue; }
        if (part == "sat") { instruction.saturate = true; continue; }
        if (part == "approx" || part == "full") {
            instruction.approx = true;
            continue;
        }
        if ((op == Op::Bra || op == Op::Call) && part == "uni") { instruction.uniform = true; continue; }
        if ((op == Op::Shfl || op == Op::Vote || op == Op::BarSync || op == Op::Activemask) && part == "sync")
            { instruction.sync = true; continue; }
        if (op == Op::BarSync && (part == "aligned" || part == "cta")) continue;
        if (op == Op::BarSync && part == "arrive" && !instruction.sync) { instruction.bar = BarMode::Arrive; continue; }
        if (op == Op::BarSync && part == "red" && !instruction.sync && i + 1 < parts.size() &&
            (parts[i + 1] == "popc" || parts[i + 1] == "and" || parts[i + 1] == "or")) {
            instruction.bar = parts[i + 1] == "popc" ? BarMode::RedPopc : parts[i + 1] == "and" ? BarMode::RedAnd : BarMode::RedOr;
            ++i;
            continue;
        }
        if (op == Op::BarSync && part == "warp") { instruction.op = Op::BarWarpSync; continue; }
        if (op == Op::Shfl) {
            if (part == "up") { instruction.shfl = ShflMode::Up; continue; }
            if (part == "down") { instruction.shfl = ShflMode::Down; continue; }
            if (part == "bfly") { instruction.shfl = ShflMode::Bfly; continue; }
            if (part == "idx") { instruction.shfl = ShflMode::Idx; continue; }
        }
        if (op == Op::Vote) {
            if (part == "all") { instruction.vote = VoteMode::All; continue; }
            if (part == "any") { instruction.vote = VoteMode::Any; continue; }
            if (part == "uni") { instruction.vote = VoteMode::Uni; continue; }
            if (part == "ballot") { instruction.vote = VoteMode::Ballot; continue; }
        }
        if ((op == Op::Atom || op == Op::Red) && instruction.atomOp == AtomOp::None) {
            if (auto atom = atomFromName(part)) {
                instruction.atomOp = *atom;
                continue;
            }
        }
        if (op == Op::Redux && instruction.atomOp == AtomOp::None &&
            (part == "add" || part == "min" || part == "max" || part == "and" || part == "or" || part == "xor")) {
            instruction.atomOp = *atomFromName(part);
            continue;
        }
        if ((op == Op::Match || op == Op::Redux) && part == "sync") { instruction.sync = true; continue; }
        if (op == Op::Match && instruction.match == MatchMode::None && (part == "any" || part == "all")) {
            instruction.match = part == "any" ? MatchMode::Any : MatchMode::All;
            continue;
        }
        if (op == Op::Bfind && part == "shiftamt") { instruction.shiftAmount = true; continue; }
        if ((op == Op::Fma || op == Op::Cvt) && part == "relu") { instruction.relu = true; continue; }
        if (op == Op::Cvt && part == "satfinite") { instruction.satfinite = true; continue; }
        if ((op == Op::Min || op == Op::Max) && part == "NaN") { instruction.nanResult = true; continue; }
        if ((op == Op::Min || op == Op::Max) && part == "xorsign" && i + 1 < parts.size() && parts[i + 1] == "abs") {
            instruction.xorsignAbs = true; // .xorsign and .abs go together (PTX ISA, half-precision min/max)
            ++i;
            continue;
        }
        if (op == Op::Shf && (part == "l" || part == "r")) { instruction.funnelLeft = part == "l"; continue; }
        if (op == Op::Shf && (part == "clamp" || part == "wrap")) { instruction.clampShift = part == "clamp"; continue; }
        if ((op == Op::Ld || op == Op::St || op == Op::Atom || op == Op::Red || op == Op::MemBar) &&
            instruction.order == MemoryOrder::Weak) {
            if (auto order = memoryOrderFromName(part)) {
                instruction.order = *order; // the race check's release and acquire (core/sim/README.md)
                continue;
            }
        }
        if ((op == Op::Ld || op == Op::St || op == Op::Atom || op == Op::Red || op == Op::MemBar) &&
            isIgnorableQualifier(part))
            continue;
        if ((op == Op::Atom || op == Op::Red) && part == "noftz" && !noFlush) {
            noFlush = true;
            continue;
        }
        if (op == Op::MemBar && (part == "acq_rel" || part == "sc"))
            continue;
        unsupported();
    }

    if ((op == Op::Atom || op == Op::Red) && instruction.order == MemoryOrder::Weak)
        instruction.order = MemoryOrder::Relaxed; // the default .sem of atom and red
    if (op == Op::MemBar && instruction.order == MemoryOrder::Weak)
        instruction.order = parts.front() == "membar" ? MemoryOrder::Sc : MemoryOrder::AcqRel;

    // Types: cvt and set take destination then source; everything else takes at most one.
    if (op == Op::Cvt || op == Op::Set) {
        if (types.size() != 2)
            unsupported();
        instruction.type = types[0];
        instruction.type2 = types[1];
    } else if (types.size() == 1) {
        instruction.type = types[0];
    } else if (types.size() > 1) {
        unsupported();
    }

    // What each op needs before the simulator can run it.
    const bool needsType = !(op == Op::Bra || op == Op::Ret || op == Op::Exit || op == Op::BarSync ||
                             op == Op::BarWarpSync || op == Op::MemBar || op == Op::Call || op == Op::Trap);
    if (needsType && instruction.type == Type::None)
        unsupported();
    if (!needsType && instruction.type != Type::None && op != Op::BarSync) // bar.red's type is checked below
        unsupported();
    if ((op == Op::Setp || op == Op::Set) && instruction.cmp == CmpOp::None)
        unsupported();
    if (op == Op::Set && !(instruction.type == Type::U32 || instruction.type == Type::S32 || instruction.type == Type::F32 ||
                           instruction.type == Type::U16 || instruction.type == Type::S16 || isHalf(instruction.type)))
        unsupported();
    const Type type = instruction.type;
    const bool is32or64 = typeBits(type) == 32 || typeBits(type) == 64;
    switch (op) {
    case Op::Bfind: // .u32 .u64 .s32 .s64
        if (!is32or64 || isFloat(type) || type == Type::B32 || type == Type::B64)
            unsupported();
        break;
    case Op::Shf: // shf.{l,r}.{clamp,wrap}.b32: direction and mode are both required
        if (type != Type::B32 ||
            (opcode.find(".l.") == std::string_view::npos && opcode.find(".r.") == std::string_view::npos) ||
            (opcode.find(".clamp") == std::string_view::npos && opcode.find(".wrap") == std::string_view::npos))
            unsupported();
        break;
    case Op::Copysign:
        if (type != Type::F32 && type != Type::F64)
            unsupported();
        break;
    case Op::Ex2: case Op::Lg2: case Op::Sin: case Op::Cos: case Op::Tanh: case Op::Rsqrt:
        // Only the .approx forms exist (PTX ISA 1.4+); f64 only for rsqrt; tanh has no .ftz;
        // ex2 and tanh also take the half types (ex2 of .bf16 only as ex2.approx.ftz.bf16).
        if (!instruction.approx || opcode.find(".full") != std::string_view::npos ||
            !(type == Type::F32 || (op == Op::Rsqrt && type == Type::F64) ||
              ((op == Op::Ex2 || op == Op::Tanh) && isHalf(type))) ||
            (op == Op::Tanh && instruction.ftz) || instruction.rounding != Rounding::None || instruction.saturate)
            unsupported();
        if (op == Op::Ex2 && (type == Type::F16 || type == Type::F16x2) && instruction.ftz)
            unsupported();
        if (op == Op::Ex2 && (type == Type::BF16 || type == Type::BF16x2) && !instruction.ftz)
            unsupported();
        break;
    case Op::Match: // match.{any,all}.sync.{b32,b64}
        if (!instruction.sync || instruction.match == MatchMode::None || (type != Type::B32 && type != Type::B64))
            unsupported();
        break;
    case Op::Redux: // redux.sync.{add,min,max}.{u32,s32} and redux.sync.{and,or,xor}.b32
        if (!instruction.sync || instruction.atomOp == AtomOp::None)
            unsupported();
        if ((instruction.atomOp == AtomOp::And || instruction.atomOp == AtomOp::Or || instruction.atomOp == AtomOp::Xor)
                ? type != Type::B32 : (type != Type::U32 && type != Type::S32))
            unsupported();
        break;
    case Op::Nanosleep:
        if (type != Type::U32)
            unsupported();
        break;
    default:
        break;
    }
    if (op == Op::Shfl && (instruction.shfl == ShflMode::None || !instruction.sync))
        unsupported(); // the pre-Volta shfl without .sync is not accepted by PTX ISA 6.4+ targets
    if (op == Op::Vote && (instruction.vote == VoteMode::None || !instruction.sync))
        unsupported();
    if ((op == Op::Atom || op == Op::Red) && instruction.atomOp == AtomOp::None)
        unsupported();
    if (op == Op::Activemask && instruction.type != Type::B32)
        unsupported();
    if (op == Op::Cvta && instruction.space == Space::Generic)
        unsupported();
    // bar and barrier take exactly one of .sync, .arrive and .red (bar.sync, barrier.cta.red.or.pred, ...);
    // .red takes .u32 with .popc and .pred with .and/.or; the others no type.
    if (op == Op::BarSync && instruction.sync == (instruction.bar != BarMode::Sync))
        unsupported();
    if (op == Op::BarSync && (instruction.bar == BarMode::RedPopc ? instruction.type != Type::U32
                              : instruction.bar == BarMode::RedAnd || instruction.bar == BarMode::RedOr ? instruction.type != Type::Pred
                                                                                                       : instruction.type != Type::None))
        unsupported();
    if (op == Op::BarWarpSync && !instruction.sync)
        unsupported();
    // atom/red.add.noftz on .f16 .f16x2 .bf16 .bf16x2 (PTX ISA, "atom", "red"): the half types take
    // only .add, which must say .noftz (it keeps subnormals); no other type takes .noftz.
    if ((op == Op::Atom || op == Op::Red) && (isHalf(type) != noFlush || (noFlush && instruction.atomOp != AtomOp::Add)))
        unsupported();
    // Vector atom/red (PTX ISA 8.1+, sm_90: CUDA's atomicAdd on float2 and float4): .add on .global
    // only, .v2/.v4 of .f32, or with .noftz of .f16, .bf16, .f16x2, .bf16x2; each element is its own
    // atomic. (The ISA's .min/.max and .v8 on the 16-bit types are not modelled.)
    if ((op == Op::Atom || op == Op::Red) && instruction.vectorWidth > 1 &&
        (instruction.atomOp != AtomOp::Add || instruction.space != Space::Global || (type != Type::F32 && !isHalf(type))))
        unsupported();
    // Half precision (.f16 .bf16 .f16x2 .bf16x2): arithmetic rounds to nearest even only, and the
    // instructions that take the types are the ISA's "Half Precision" ones plus cvt and setp.
    if (isHalf(type) || isHalf(instruction.type2)) {
        const bool halfOp = op == Op::Add || op == Op::Sub || op == Op::Mul || op == Op::Fma || op == Op::Neg ||
                            op == Op::Abs || op == Op::Min || op == Op::Max || op == Op::Ex2 || op == Op::Tanh ||
                            op == Op::Setp || op == Op::Set || op == Op::Cvt || op == Op::Mov || op == Op::Ld || op == Op::St ||
                            op == Op::Atom || op == Op::Red;
        if (!halfOp)
            unsupported();
        if (op != Op::Cvt && instruction.rounding != Rounding::None && instruction.rounding != Rounding::Rn)
            unsupported();
        if (op == Op::Cvt && (isPackedHalf(instruction.type2) || (isPackedHalf(type) && instruction.type2 != Type::F32)))
            unsupported(); // packed conversions: only two .f32 into .f16x2 / .bf16x2
        if (op == Op::Set && isPackedHalf(type) != isPackedHalf(instruction.type2) &&
            !(isPackedHalf(instruction.type2) && (type == Type::U32 || type == Type::S32)))
            unsupported();
    }
    // f32 -> tf32 (PTX ISA, cvt): cvt.rna{.satfinite}.tf32.f32 (sm_80), cvt.{rn,rz}{.relu}{.satfinite}.tf32.f32
    // (sm_90); .rna belongs to it alone.
    const bool toTf32 = op == Op::Cvt && type == Type::TF32;
    if (toTf32 && (instruction.type2 != Type::F32 || instruction.ftz || instruction.saturate ||
                   !(instruction.rounding == Rounding::Rna || instruction.rounding == Rounding::Rn ||
                     instruction.rounding == Rounding::Rz) ||
                   (instruction.relu && instruction.rounding == Rounding::Rna)))
        unsupported();
    if (op == Op::Cvt && instruction.type2 == Type::TF32)
        unsupported();
    if (instruction.rounding == Rounding::Rna && !toTf32)
        unsupported();
    if (instruction.relu && !((isHalf(type) && (op == Op::Fma || op == Op::Cvt)) || toTf32))
        unsupported();
    if (instruction.satfinite && !(op == Op::Cvt && (isHalf(type) || toTf32)))
        unsupported();
    if ((instruction.nanResult || instruction.xorsignAbs) && !isHalf(type))
        unsupported(); // the f32 forms of min/max .NaN .xorsign.abs are not modelled
    if ((op == Op::Div || op == Op::Rcp || op == Op::Sqrt) && isFloat(instruction.type) &&
        instruction.rounding == Rounding::None && !instruction.approx)
        unsupported();
    // Rounding modifiers: .rn .rz .rm .rp on f32/f64 add, sub, mul, fma, mad, div, rcp, sqrt and
    // on conversions to a float (sim/float_math.h computes them in the host's rounding modes);
    // .rni .rzi .rmi .rpi only where a float is rounded to an integer value (cvt).
    const bool floatRounding = instruction.rounding == Rounding::Rn || instruction.rounding == Rounding::Rz ||
                               instruction.rounding == Rounding::Rm || instruction.rounding == Rounding::Rp;
    const bool integerRounding = instruction.rounding != Rounding::None && instruction.rounding != Rounding::Rna && !floatRounding;
    if (floatRounding && op != Op::Cvt &&
        !(isFloat(type) && (op == Op::Add || op == Op::Sub || op == Op::Mul || op == Op::Fma || op == Op::Mad ||
                            op == Op::Div || op == Op::Rcp || op == Op::Sqrt)))
        unsupported();
    if (floatRounding && op == Op::Cvt && !isFloat(type) && type != Type::TF32)
        unsupported(); // float -> integer takes .rni .rzi .rmi .rpi
    if (integerRounding && op != Op::Cvt)
        unsupported();
    // Extended precision (PTX ISA, "Extended-Precision Integer Arithmetic Instructions"):
    // add.cc, addc{.cc}, sub.cc, subc{.cc} and mad{.hi,.lo}.cc, madc{.hi,.lo}{.cc}, each .u32 .s32
    // .u64 .s64, without .sat.
    if ((instruction.carryIn || instruction.carryOut) &&
        (!(type == Type::U32 || type == Type::S32 || type == Type::U64 || type == Type::S64) || instruction.saturate ||
         instruction.ftz || instruction.approx ||
         (op == Op::Mad && instruction.mulMode != MulMode::Lo && instruction.mulMode != MulMode::Hi)))
        unsupported();
    if ((op == Op::Fma || (op == Op::Mad && isFloat(type))) && instruction.rounding == Rounding::None)
        unsupported(); // fma and float mad name their rounding (PTX ISA: "no default")
}

} // namespace warpscope::ptx
