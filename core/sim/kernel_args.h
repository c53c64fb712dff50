// Kernel arguments and the argument-spec language shared by `warpscope sim`, the demo kernels'
// manifests and (later) the GPU probe. The language is documented in kernels/README.md:
//   n=i32:1048576   alpha=f32:2.5   m=i32:n/2   c=f32[n]   a=f32[n*2]:random(1)   h=u32[256]:fill(0)
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::sim {

// F16: IEEE binary16 (CUDA's __half); BF16: bfloat16 (__nv_bfloat16). Both are 2-byte floats.
enum class ElementType : std::uint8_t { I8, U8, I16, U16, I32, U32, I64, U64, F32, F64, F16, BF16 };

std::uint32_t elementBytes(ElementType type);
bool isFloatElement(ElementType type); // f16 bf16 f32 f64
bool isSignedElement(ElementType type);
const char* elementName(ElementType type); // "f32"

struct ArgInit {
    enum class Kind : std::uint8_t { Zeros, Iota, Fill, Random, RandomInt, File };
    Kind kind = Kind::Zeros;
    std::string value;      // Fill: the value as typed
    std::int64_t low = 0;   // RandomInt
    std::int64_t high = 0;  // RandomInt
    std::uint64_t seed = 0; // Random, RandomInt
    std::string path;       // File
};

struct ArgSpec {
    std::string name;
    ElementType type = ElementType::I32;
    bool isBuffer = false;
    std::string expression; // scalar: the value (literal or integer expression); buffer: the length
    ArgInit init;           // buffers only
    std::string text;       // as written
};

// Parses one spec; throws InputError naming the spec and what is allowed.
ArgSpec parseArgSpec(std::string_view text);

// For a demo kernel: each override replaces the spec of the same name; an unknown name is an error.
std::vector<ArgSpec> applyOverrides(std::vector<ArgSpec> specs, const std::vector<ArgSpec>& overrides);

struct ResolvedArg {
    std::string name;
    ElementType type = ElementType::I32;
    bool isBuffer = false;
    std::uint64_t scalarBits = 0;  // scalar: the raw bits, little-endian in elementBytes(type)
    std::int64_t integerValue = 0; // integer scalars
    double realValue = 0;          // float scalars
    std::uint64_t count = 0;       // buffers: elements
    std::vector<std::uint8_t> bytes; // buffers: initial contents
};

// Evaluates every scalar and length (in list order; names refer to integer scalars anywhere in the
// list, without cycles) and initialises buffers. `maxBufferBytes` caps each buffer.
std::vector<ResolvedArg> resolveArgs(const std::vector<ArgSpec>& specs, std::uint64_t maxBufferBytes);

// A grid or block written as expressions, split at its top-level commas: "cdiv(n,128),2" ->
// "cdiv(n,128)", "2" (commas inside a call's parentheses do not split).
std::vector<std::string> splitDimensions(std::string_view text);

// Integer expression over the given scalars: + - * / % ( ) cdiv min max. Throws InputError.
std::int64_t evaluateExpression(std::string_view expression, const std::map<std::string, std::int64_t, std::less<>>& scalars,
                                std::string_view what);

// The same form checked without values, as a field is typed: `names` are the integer scalars it may
// name (an unknown one reads "WHAT: 'k' is not an integer scalar argument (allowed: ...)"), and no
// arithmetic is refused (a division by zero needs the values). Throws InputError.
void checkExpressionSyntax(std::string_view expression, const std::vector<std::string>& names, std::string_view what);

// The value of every integer scalar of `specs` (expressions over each other, in any order, without
// cycles), each checked against its type; no buffer is made, so it is cheap enough per keystroke.
// Throws InputError as resolveArgs does.
std::map<std::string, std::int64_t, std::less<>> resolveIntegerScalars(const std::vector<ArgSpec>& specs);
std::vector<std::string> integerScalarNames(const std::vector<ArgSpec>& specs); // in list order

// The integer scalars of a resolved list, for grid/block/smem expressions.
std::map<std::string, std::int64_t, std::less<>> integerScalars(const std::vector<ResolvedArg>& args);

// One value of a buffer as text ("2.5", "-3"), for --dump: f16 and bf16 as the numbers they hold.
std::string formatElement(const ResolvedArg& arg, const std::vector<std::uint8_t>& bytes, std::uint64_t index);

// The value of a floating-point element (f16 bf16 f32 f64) from its little-endian bits.
double floatElementValue(ElementType type, std::uint64_t bits);

} // namespace warpscope::sim
