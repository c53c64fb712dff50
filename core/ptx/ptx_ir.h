// The PTX intermediate representation: a module of functions, each a list of decoded instructions
// grouped into basic blocks, with registers numbered densely and every memory symbol resolved to an
// address space and offset. The simulator executes this directly; the viz shows it line by line.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string_view>
#include <string>
#include <vector>

namespace warpscope::ptx {

// Scalar types as PTX spells them. Values live in 64-bit lane slots; a type says how many low bits
// an instruction reads and writes, and how to interpret them.
enum class Type : std::uint8_t {
    None, Pred,
    B8, B16, B32, B64,
    U8, U16, U32, U64,
    S8, S16, S32, S64,
    F16, F32, F64,
    BF16, F16x2, BF16x2, // half precision: .f16x2 and .bf16x2 pack two values in 32 bits (low half first)
    TF32, // .tf32: only as the multiplicands of wmma and mma, one per 32-bit register (sim/README.md)
};

// Bits of a type (Pred = 1); inline because the simulator asks once per lane.
constexpr int typeBits(Type type)
{
    switch (type) {
    case Type::None: return 0;
    case Type::Pred: return 1;
    case Type::B8: case Type::U8: case Type::S8: return 8;
    case Type::B16: case Type::U16: case Type::S16: case Type::F16: case Type::BF16: return 16;
    case Type::B32: case Type::U32: case Type::S32: case Type::F32: case Type::F16x2: case Type::BF16x2:
    case Type::TF32: return 32;
    case Type::B64: case Type::U64: case Type::S64: case Type::F64: return 64;
    }
    return 0;
}
// .f16 .bf16 .f16x2 .bf16x2: executed by exec_half.cpp.
constexpr bool isHalf(Type type)
{
    return type == Type::F16 || type == Type::BF16 || type == Type::F16x2 || type == Type::BF16x2;
}
constexpr bool isPackedHalf(Type type) { return type == Type::F16x2 || type == Type::BF16x2; }
constexpr bool isFloat(Type type) { return type == Type::F32 || type == Type::F64 || isHalf(type); }
constexpr bool isSigned(Type type) // S8..S64
{
    return type == Type::S8 || type == Type::S16 || type == Type::S32 || type == Type::S64;
}
const char* typeName(Type type); // "s32"

enum class Space : std::uint8_t { Generic, Global, Shared, Local, Param, Const };
const char* spaceName(Space space);

// Special registers (%tid.x ...), with the component folded in.
enum class SpecialReg : std::uint8_t {
    TidX, TidY, TidZ, NtidX, NtidY, NtidZ,
    CtaidX, CtaidY, CtaidZ, NctaidX, NctaidY, NctaidZ,
    LaneId, WarpId, NWarpId, SmId, NSmId, GridId,
    LanemaskEq, LanemaskLt, LanemaskLe, LanemaskGt, LanemaskGe,
    Clock, Clock64, GlobalTimer,
    // The driver's grid workspace address, high and low 32 bits (cooperative launches only):
    // cooperative_groups/details/driver_abi.h reads it for grid.sync() and grid.is_valid().
    EnvReg1, EnvReg2,
};

enum class Op : std::uint8_t {
    // data movement
    Mov, Ld, St, Cvta, Cvt,
    // integer and floating-point arithmetic
    Add, Sub, Mul, Mad, Fma, Div, Rem, Min, Max, Abs, Neg, Rcp, Sqrt, Sad,
    // bits
    And, Or, Xor, Not, Cnot, Shl, Shr, Popc, Clz, Brev, Bfe, Bfi, Prmt, Lop3,
    // comparison and selection
    Setp, Selp, Slct,
    // control
    Bra, Ret, Exit,
    // synchronisation and warp collectives
    BarSync, BarWarpSync, MemBar, Shfl, Vote, Activemask,
    // atomics
    Atom, Red,
    // calls (Function::calls holds the call's parameters)
    Call,
    // added for real-world kernels (issue 15): bit search, funnel shift, sign copy, the approximate
    // transcendentals (core/sim/README.md gives their error bounds), warp match and reduction, sleep
    Bfind, Shf, Copysign, Ex2, Lg2, Rsqrt, Sin, Cos, Tanh, Match, Redux, Nanosleep,
    Set, // set.cmp.dtype.stype: a comparison written as a number (type: dtype, type2: stype)
    // sm_80 asynchronous copies and barrier objects (core/sim/README.md, "Asynchronous copies"):
    // mbarrier.* (Instruction::mbarrier says which), cp.async into shared memory, its groups and waits
    Mbarrier, CpAsync, CpAsyncCommit, CpAsyncWait, CpAsyncMbarrierArrive,
    // Tensor Cores (core/sim/README.md, "Tensor Cores"): wmma.load/store/mma on opaque fragments,
    // mma.sync on the fragments the PTX ISA lays out, ldmatrix loading them from shared memory
    WmmaLoad, WmmaStore, WmmaMma, Mma, Ldmatrix,
    // trap (__trap()): the executing threads abort the launch
    Trap,
};
const char* opName(Op op);

enum class CmpOp : std::uint8_t {
    None, Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan,
};
enum class BoolOp : std::uint8_t { None, And, Or, Xor };
// Rna: to nearest, ties away from zero (cvt.rna.tf32.f32 only).
enum class Rounding : std::uint8_t { None, Rn, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi, Rna };
enum class MulMode : std::uint8_t { None, Lo, Hi, Wide };
enum class ShflMode : std::uint8_t { None, Up, Down, Bfly, Idx };
enum class VoteMode : std::uint8_t { None, All, Any, Uni, Ballot };
enum class AtomOp : std::uint8_t { None, Add, Min, Max, Inc, Dec, And, Or, Xor, Exch, Cas }; // also redux.sync's
enum class MatchMode : std::uint8_t { None, Any, All };
// mbarrier.<operation>: a barrier object in shared memory with an expected count and a phase.
enum class MbarrierOp : std::uint8_t { None, Init, Inval, Arrive, ArriveDrop, TestWait, TryWait, PendingCount };
// bar / barrier: .sync waits; .arrive only counts the warp in; .red waits and reduces a predicate
// over the participating threads (.popc.u32 counts the true ones, .and/.or.pred combine them).
enum class BarMode : std::uint8_t { Sync, Arrive, RedPopc, RedAnd, RedOr };

// The memory-ordering qualifier (PTX ISA, "Memory Consistency Model"): Weak for a plain ld or st;
// atom and red without one are Relaxed; fence is AcqRel and membar Sc unless they say otherwise.
enum class MemoryOrder : std::uint8_t { Weak, Relaxed, Acquire, Release, AcqRel, Sc };

// The matrix a wmma.load or wmma.store moves: A (M x K), B (K x N), C or D (M x N).
enum class MatrixFragment : std::uint8_t { None, A, B, C, D };

// Vector operand elements that are not registers.
inline constexpr std::int32_t kSink = -1;            // _ : a discarded element
inline constexpr std::int32_t kVectorImmediate = -2; // a number, in Operand::vectorImm

struct Operand {
    enum class Kind : std::uint8_t {
        None,
        Reg,       // reg
        Imm,       // imm (raw bits; floats as their IEEE bits)
        Special,   // special
        Address,   // [reg + offset] or [symbol + offset] (symbol resolved into space + offset)
        Symbol,    // a variable's address as a value (mov %r, sym)
        Label,     // a branch target (block index after CFG construction; instruction index before)
        Vector,    // {%r1, %r2, ...}: up to eight registers (or _, or an immediate among the first four)
        Sink,      // _ (a discarded destination)
    };
    Kind kind = Kind::None;
    bool negate = false;          // !%p as a predicate source
    std::uint8_t vectorCount = 0; // Vector: number of registers
    Space symbolSpace = Space::Generic; // Address/Symbol with a symbol: its space
    SpecialReg special = SpecialReg::TidX;
    std::int32_t reg = -1;        // Reg, or the base register of an Address (-1 for a symbol base)
    // Registers; kSink for _, kVectorImmediate for a number. Eight for the fragments of wmma and mma.
    std::array<std::int32_t, 8> vector{-1, -1, -1, -1, -1, -1, -1, -1};
    std::array<std::uint64_t, 4> vectorImm{};           // the numbers of kVectorImmediate elements
    std::int64_t offset = 0;      // Address: displacement (plus the symbol's offset)
    std::uint64_t imm = 0;        // Imm
    std::int32_t symbol = -1;     // Address/Symbol: index into Function::symbols, -1 for none
    std::int32_t target = -1;     // Label
    std::int32_t pairReg = -1;    // Reg: the predicate of a "%r|%p" destination (shfl, setp)
};

struct SourceLocation {
    std::int32_t file = -1; // index into Module::files, -1 when the PTX has no line information
    std::int32_t line = 0;
    std::int32_t column = 0;
};

struct Instruction {
    Op op = Op::Mov;
    Type type = Type::None;   // the instruction type (cvt: destination)
    Type type2 = Type::None;  // cvt: source type; setp/selp: unused
    Space space = Space::Generic;
    CmpOp cmp = CmpOp::None;
    BoolOp boolOp = BoolOp::None;
    Rounding rounding = Rounding::None;
    MulMode mulMode = MulMode::None;
    ShflMode shfl = ShflMode::None;
    VoteMode vote = VoteMode::None;
    AtomOp atomOp = AtomOp::None;     // atom, red, redux
    MatchMode match = MatchMode::None;
    MbarrierOp mbarrier = MbarrierOp::None;
    BarMode bar = BarMode::Sync;      // Op::BarSync
    std::uint8_t vectorWidth = 1; // ld/st .v2 .v4
    bool ftz = false;
    bool saturate = false;
    bool approx = false;      // .approx or .full: the GPU computes an approximation (see executor)
    bool cvtaToSpace = false; // cvta.to.<space>: generic -> space (else space -> generic)
    bool sync = false;        // .sync on shfl/vote/bar
    bool uniform = false;     // bra.uni: the compiler promises no divergence
    bool isVolatile = false;
    MemoryOrder order = MemoryOrder::Weak; // ld, st, atom, red, fence/membar
    bool shiftAmount = false; // bfind.shiftamt: the left shift that brings the found bit to the top
    bool funnelLeft = false;  // shf.l (else shf.r)
    bool clampShift = false;  // shf .clamp (else .wrap)
    bool relu = false;        // .relu: negative results become +0 (fma and cvt to half precision)
    bool satfinite = false;   // cvt, wmma.mma, mma .satfinite: overflow gives the largest finite value (or s32 bound)
    bool nanResult = false;   // min/max .NaN: a NaN input gives NaN
    bool xorsignAbs = false;  // min/max .xorsign.abs
    bool parity = false;      // mbarrier.test_wait/try_wait .parity: the operand is a phase parity, not a state
    bool noComplete = false;  // mbarrier.arrive .noComplete: the arrival must not complete the phase
    bool noIncrement = false; // cp.async.mbarrier.arrive .noinc: the pending count is not raised first
    bool waitAll = false;     // cp.async.wait_all (else wait_group N)
    bool bypassL1 = false;    // cp.async.cg (cached in L2 only; else .ca)
    // Extended-precision integers (core/sim/README.md, "Carry"): .cc on add, sub, mad writes the
    // carry (sub: borrow) out to the thread's CC.CF; addc, subc, madc read it as carry-in.
    bool carryOut = false;
    bool carryIn = false;
    // wmma, mma, ldmatrix and stmatrix: type is the D (or loaded, stored) element type, type2 C's.
    // stmatrix is an Op::WmmaStore with matrixCount set: a store of fragment registers, operand 0
    // its address, counted and timed as the other matrix stores.
    MatrixFragment fragment = MatrixFragment::None; // wmma.load: A, B or C; wmma.store: D
    std::uint8_t shapeM = 0, shapeN = 0, shapeK = 0; // .m16n16k16, .m16n8k16, ...; ldmatrix: 8, 8, 0
    bool colMajor = false;    // wmma.load/store: the matrix is column-major in memory; wmma.mma, mma: A's layout
    bool colMajorB = false;   // wmma.mma, mma: B's layout
    Type multiplicandType = Type::None; // the elements of A (and of B unless multiplicandTypeB says)
    Type multiplicandTypeB = Type::None; // integer mma: B's elements when A's and B's differ (.s8.u8)
    std::uint8_t matrixCount = 0;       // ldmatrix, stmatrix .x1 .x2 .x4
    bool transpose = false;             // ldmatrix, stmatrix .trans
    // A mul (no rounding modifier) that ptxas fuses into this add or sub (core/sim/README.md,
    // "Contraction"): its index, and which of this instruction's operands (1 or 2) is its product.
    std::int32_t contractedMul = -1;
    std::uint8_t contractedOperand = 0;
    std::int32_t guard = -1;  // predicate register, -1 when unguarded
    bool guardNegated = false;
    std::int32_t call = -1;   // Op::Call: index into Function::calls
    std::uint8_t operandCount = 0;
    std::array<Operand, 5> operands{};
    std::int32_t ptxLine = 0;  // line in the PTX text
    SourceLocation source;     // from .loc: the innermost place of its inlined_at chain in a learner's own file
                               // (not a toolkit header; ptx/source_files.h), the line the learner wrote
    std::string text;          // the instruction as written, for display

    bool isMemory() const { return op == Op::Ld || op == Op::St || op == Op::Atom || op == Op::Red; }
};

// Operand 0 is read, not written: st, red, bra, bar, nanosleep, and the instructions that take an
// address first (cp.async, mbarrier.init/inval, cp.async.mbarrier.arrive) or a count (wait_group).
bool firstOperandIsRead(const Instruction& instruction);

// Functions the simulator provides itself instead of a body in the module.
enum class Builtin : std::uint8_t { None, Vprintf, AssertFail };

// call{.uni} (results), callee, (arguments): the .param variables (or values) passed each way.
struct CallSite {
    std::string callee;
    std::vector<Operand> results;   // Symbol operands: the caller's .param variables receiving return values
    std::vector<Operand> arguments; // Symbol operands (.param variables), registers or immediates
    std::int32_t region = -1;       // in a kernel: the callee's FunctionRegion (-1 for a builtin)
    Builtin builtin = Builtin::None; // vprintf (printf), __assertfail (assert)
};

// A kernel that calls device functions carries a copy of each function it can reach after its own
// instructions (each once, not inlined per call): region 0 is the kernel's own code. Registers,
// variables and labels of a copy are the kernel's (names prefixed "function::"); each call runs in
// a new frame of the thread's local memory (the simulator's call stack, core/sim/README.md).
struct FunctionRegion {
    std::string name;
    std::int32_t first = 0, end = 0;         // its instructions: [first, end)
    std::int32_t firstRegister = 0, registerCount = 0;
    std::uint64_t frameBytes = 0;            // per thread: its .local variables and frame .params
    std::vector<std::int32_t> params, returnParams; // indices into the kernel's symbols
};

struct RegisterInfo {
    std::string name;  // "%r12"
    Type type = Type::B32;
};

// A variable with storage: a kernel parameter, a .shared / .local / .global / .const array.
struct Symbol {
    std::string name;
    Space space = Space::Param;
    Type type = Type::B8;
    std::uint64_t size = 0;      // bytes (0 for extern .shared: the dynamic allocation)
    std::uint32_t alignment = 1;
    std::uint64_t offset = 0;    // within its space (params, shared, local); globals: in Module
    bool externShared = false;   // extern .shared: starts at the end of the static shared data
    std::int32_t moduleIndex = -1; // .global/.const: index into Module::globals
    std::vector<std::uint8_t> initializer; // .global/.const initial bytes (may be shorter than size)
    // A .param that lives in the thread's local frame, not in the kernel's parameter buffer: a device
    // function's parameters and return values, and the .param variables of a call sequence.
    bool frameParam = false;
};

// Valid PTX the simulator cannot execute yet: an instruction, a modifier, a special register, a
// directive. The module still loads; only kernels that can reach it are refused (Module::unsupportedFor).
struct UnsupportedConstruct {
    std::string construct;    // as written: "bfind.shiftamt.u32", "%envreg3", ".texref"
    std::string kind;         // what it is, for messages: "instruction", "special register", ...
    std::int32_t ptxLine = 0;
    SourceLocation source;    // the .loc in effect (file -1 when none)
    std::string function;     // the function whose body holds it; empty at module scope
};

struct BasicBlock {
    std::int32_t first = 0;        // first instruction index
    std::int32_t last = 0;         // one past the last
    std::vector<std::int32_t> successors;
    std::vector<std::int32_t> predecessors;
    std::int32_t immediatePostDominator = -1; // block index; -1 = the virtual exit
    std::int32_t reconvergence = -1;          // where a warp diverging here rejoins (see cfg.h)
    bool onlyLeaves = false;       // nothing but unguarded jumps to ret/exit from here: an early return
    std::string label;             // the label that starts it, if any
};

struct Function {
    std::string name;
    bool isEntry = false;
    std::vector<std::int32_t> params;   // indices into symbols, in order
    std::uint64_t paramBytes = 0;
    std::uint64_t staticSharedBytes = 0;
    std::uint64_t localBytes = 0;       // per thread
    std::uint32_t dynamicSharedAlignment = 16;
    std::array<std::uint32_t, 3> reqntid{0, 0, 0};
    std::array<std::uint32_t, 3> maxntid{0, 0, 0};
    std::vector<RegisterInfo> registers;
    std::vector<Symbol> symbols;        // params, function-scope shared/local, and module globals used
    std::vector<Instruction> instructions;
    std::vector<BasicBlock> blocks;
    std::vector<std::int32_t> blockOfInstruction;
    std::map<std::string, std::int32_t> labels; // label -> instruction index
    std::int32_t ptxLine = 0;
    std::vector<std::int32_t> returnParams; // .func return values (indices into symbols), in order
    std::vector<CallSite> calls;            // Instruction::call indexes this
    std::vector<FunctionRegion> regions;    // a kernel that calls functions: itself, then each callee
    bool recursive = false;                 // a call chain reaches a function already on it
    std::vector<std::string> callees;       // functions its call instructions name, each once
    std::vector<UnsupportedConstruct> unsupported; // in this body, in PTX order
};

struct Module {
    std::string version;         // ".version 9.0"
    std::string target;          // "sm_75"
    int addressSize = 64;
    std::map<int, std::string> files; // .file index -> path
    std::vector<Symbol> globals;      // module-scope .global/.const/.shared variables
    std::vector<Function> functions;  // every function with a body (.extern declarations are not here)
    std::vector<std::string> declarations; // functions declared without a body (.extern .func vprintf)
    std::vector<UnsupportedConstruct> unsupported; // at module scope, in PTX order

    const Function* findFunction(std::string_view name) const;
    std::vector<std::string> entryNames() const;
    // The functions `entry` can run: itself and every function its calls reach, in discovery order.
    std::vector<const Function*> reachableFrom(const Function& entry) const;
    // What stops `entry` from running: the unsupported constructs of every reachable function, in
    // PTX order. Empty when the simulator can run it.
    std::vector<const UnsupportedConstruct*> unsupportedFor(const Function& entry) const;
    // Every unsupported construct in the module (functions and module scope), in PTX order.
    std::vector<const UnsupportedConstruct*> allUnsupported() const;
};

// Where `entry`, or a function it calls, first reads %envreg1 or %envreg2: the address of the grid
// workspace that only a cooperative launch (cudaLaunchCooperativeKernel) provides. Cooperative
// groups' grid.sync() and grid.is_valid() read it (cooperative_groups/details/driver_abi.h).
struct GridWorkspaceRead {
    const Function* function = nullptr; // null: the kernel never reads it
    const Instruction* instruction = nullptr;
    explicit operator bool() const { return instruction != nullptr; }
};
GridWorkspaceRead findGridWorkspaceRead(const Module& module, const Function& entry);

// Why `entry` needs a cooperative launch, one sentence from the read's PTX and source line:
// "PTX line 57 (sum.cu:9): kernel gridSum synchronises the whole grid (...), so it needs a
// cooperative launch (cudaLaunchCooperativeKernel): every block of the grid must be resident ...".
std::string describeCooperativeNeed(const Module& module, const Function& entry, const GridWorkspaceRead& read);

// "PTX line 212 (reduce.cu:17): 'bfind.shiftamt.u32' is not supported by the simulator yet", with
// " in device function f" when `context` names a function other than the construct's own.
std::string describeUnsupported(const Module& module, const UnsupportedConstruct& construct,
                                std::string_view context = {});

} // namespace warpscope::ptx
