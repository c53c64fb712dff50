#include "sim/kernel_args.h"

#include "sim/float_math.h"
#include "util/input_error.h"
#include "util/input_wording.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <set>
#include <sstream>
#include <system_error>
#include <utility>

namespace warpscope::sim {

namespace {

struct ElementInfo {
    std::string_view name;
    ElementType type;
};
constexpr ElementInfo kElements[] = {
    {"i8", ElementType::I8},   {"u8", ElementType::U8},   {"i16", ElementType::I16}, {"u16", ElementType::U16},
    {"i32", ElementType::I32}, {"u32", ElementType::U32}, {"i64", ElementType::I64}, {"u64", ElementType::U64},
    {"f32", ElementType::F32}, {"f64", ElementType::F64}, {"f16", ElementType::F16}, {"bf16", ElementType::BF16},
};
constexpr const char* kTypeList = "i8 u8 i16 u16 i32 u32 i64 u64 f16 bf16 f32 f64";

[[noreturn]] void badSpec(std::string_view spec, const std::string& why)
{
    throw InputError("argument '" + std::string(spec) + "': " + why);
}

std::string_view trim(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
    return text;
}

bool isIdentifier(std::string_view text)
{
    if (text.empty() || !(std::isalpha(static_cast<unsigned char>(text[0])) || text[0] == '_'))
        return false;
    for (char c : text)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
            return false;
    return true;
}

// Recursive-descent evaluation with overflow checks. Names resolve through `lookup`. With
// `syntaxOnly`, only the form is checked (the values are stand-ins, so no arithmetic is refused).
class ExpressionEvaluator {
public:
    template <class Lookup>
    ExpressionEvaluator(std::string_view text, std::string_view what, Lookup lookup, bool syntaxOnly = false)
        : m_text(text), m_what(what), m_lookup(std::move(lookup)), m_syntaxOnly(syntaxOnly)
    {
    }

    std::int64_t evaluate()
    {
        skipSpace();
        if (m_pos == m_text.size())
            fail("is empty");
        const std::int64_t value = parseSum();
        skipSpace();
        if (m_pos != m_text.size())
            fail("has unexpected '" + std::string(m_text.substr(m_pos, 1)) + "' at position " + std::to_string(m_pos + 1));
        return value;
    }

private:
    [[noreturn]] void fail(const std::string& why) const
    {
        throw InputError(m_what + ": expression '" + std::string(m_text) + "' " + why +
                         " (allowed: integers, integer scalar names, + - * / %, parentheses, cdiv(a,b), min(a,b), max(a,b))");
    }
    void skipSpace()
    {
        while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])))
            ++m_pos;
    }
    bool accept(char c)
    {
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == c) {
            ++m_pos;
            return true;
        }
        return false;
    }
    void expect(char c)
    {
        if (!accept(c))
            fail(std::string("needs '") + c + "' at position " + std::to_string(m_pos + 1));
    }
    template <class Op> std::int64_t checked(Op op, std::int64_t a, std::int64_t b) const
    {
        std::int64_t result = 0;
        if (op(a, b, &result) && !m_syntaxOnly)
            fail("overflows 64-bit integers");
        return result;
    }
    static bool add(std::int64_t a, std::int64_t b, std::int64_t* r) { return __builtin_add_overflow(a, b, r); }
    static bool sub(std::int64_t a, std::int64_t b, std::int64_t* r) { return __builtin_sub_overflow(a, b, r); }
    static bool mul(std::int64_t a, std::int64_t b, std::int64_t* r) { return __builtin_mul_overflow(a, b, r); }
    std::int64_t parseSum()
    {
        std::int64_t value = parseProduct();
        while (true) {
            if (accept('+')) {
                const std::int64_t right = parseProduct();
                value = checked(add, value, right);
            } else if (accept('-')) {
                const std::int64_t right = parseProduct();
                value = checked(sub, value, right);
            } else {
                return value;
            }
        }
    }
    std::int64_t parseProduct()
    {
        std::int64_t value = parseUnary();
        while (true) {
            if (accept('*')) {
                const std::int64_t right = parseUnary();
                value = checked(mul, value, right);
            } else if (accept('/') || accept('%')) {
                const bool remainder = m_text[m_pos - 1] == '%';
                std::int64_t divisor = parseUnary();
                if (m_syntaxOnly && (divisor == 0 || divisor == -1))
                    divisor = 1;
                if (divisor == 0)
                    fail("divides by zero");
                if (value == std::numeric_limits<std::int64_t>::min() && divisor == -1)
                    fail("overflows 64-bit integers");
                value = remainder ? value % divisor : value / divisor;
            } else {
                return value;
            }
        }
    }
    std::int64_t parseUnary()
    {
        if (++m_unary > 4096)
            fail("is too long");
        if (accept('-')) {
            const std::int64_t value = parseUnary();
            if (value == std::numeric_limits<std::int64_t>::min())
            {
                if (m_syntaxOnly)
                    return 1;
                fail("overflows 64-bit integers");
            }
            return -value;
        }
        if (accept('+'))
            return parseUnary();
        return parsePrimary();
    }
    std::int64_t parsePrimary()
    {
        skipSpace();
        if (accept('(')) {
            if (++m_depth > 64)
                fail("nests parentheses more than 64 deep");
            const std::int64_t value = parseSum();
            expect(')');
            --m_depth;
            return value;
        }
        if (m_pos < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos]))) {
            std::size_t end = m_pos;
            while (end < m_text.size() && std::isalnum(static_cast<unsigned char>(m_text[end])))
                ++end;
            std::string_view digits = m_text.substr(m_pos, end - m_pos);
            int base = 10;
            if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
                base = 16;
                digits.remove_prefix(2);
            }
            std::int64_t value = 0;
            auto [ptr, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
            if (error != std::errc() || ptr != digits.data() + digits.size())
                fail("has a bad number '" + std::string(m_text.substr(m_pos, end - m_pos)) + "'");
            m_pos = end;
            return value;
        }
        std::size_t end = m_pos;
        while (end < m_text.size() && (std::isalnum(static_cast<unsigned char>(m_text[end])) || m_text[end] == '_'))
            ++end;
        if (end == m_pos)
            fail(m_pos < m_text.size() ? "has unexpected '" + std::string(m_text.substr(m_pos, 1)) + "' at position " +
                                             std::to_string(m_pos + 1)
                                       : "ends too early");
        const std::string_view name = m_text.substr(m_pos, end - m_pos);
        m_pos = end;
        if (name == "cdiv" || name == "min" || name == "max") {
            expect('(');
            if (++m_depth > 64)
                fail("nests calls more than 64 deep");
            const std::int64_t a = parseSum();
            expect(',');
            const std::int64_t b = parseSum();
            expect(')');
            --m_depth;
            if (name == "min") return std::min(a, b);
            if (name == "max") return std::max(a, b);
            if (m_syntaxOnly)
                return 1;
            if (b <= 0)
                fail("calls cdiv with a divisor that is not positive");
            if (a < 0)
                fail("calls cdiv with a negative dividend");
            return a / b + (a % b != 0 ? 1 : 0);
        }
        return m_lookup(name);
    }

    std::string_view m_text;
    std::string m_what; // owned: callers pass a temporary ("argument 'n'")
    std::function<std::int64_t(std::string_view)> m_lookup;
    std::size_t m_pos = 0;
    bool m_syntaxOnly = false;
    int m_depth = 0;  // parentheses and function calls: bounded so a hostile expression cannot exhaust the stack
    int m_unary = 0;
};

constexpr const char* kExpressionForms = "+ - * / % ( ) cdiv(a,b) min(a,b) max(a,b)";

// What an expression may name: "integers, the integer arguments n, k; + - * ...".
std::string allowedInExpression(const std::vector<std::string>& names)
{
    std::string allowed = "integers";
    for (std::size_t i = 0; i < names.size(); ++i)
        allowed += (i == 0 ? (names.size() == 1 ? " and the integer argument " : " and the integer arguments ") : ", ") + names[i];
    return allowed + "; " + kExpressionForms;
}

[[noreturn]] void unknownName(std::string_view what, std::string_view name, const std::vector<std::string>& names)
{
    throw InputError(notAValueMessage(what, name, "an integer scalar argument", allowedInExpression(names)));
}



// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014).
struct SplitMix64 {
    std::uint64_t state;
    std::uint64_t next()
    {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
};

std::uint64_t parseUnsigned(std::string_view text, std::string_view spec, std::string_view what)
{
    text = trim(text);
    std::uint64_t value = 0;
    auto [ptr, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || ptr != text.data() + text.size())
        badSpec(spec, std::string(what) + " '" + std::string(text) + "' is not a non-negative integer");
    return value;
}

std::int64_t parseSigned(std::string_view text, std::string_view spec, std::string_view what)
{
    text = trim(text);
    std::int64_t value = 0;
    auto [ptr, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || ptr != text.data() + text.size())
        badSpec(spec, std::string(what) + " '" + std::string(text) + "' is not an integer");
    return value;
}

// The raw little-endian bits of `value` as `type`, checking the range. Reals must be finite.
std::uint64_t encodeInteger(std::int64_t value, ElementType type, std::string_view spec)
{
    std::int64_t low = 0;
    std::uint64_t high = 0;
    switch (type) {
    case ElementType::I8: low = INT8_MIN; high = INT8_MAX; break;
    case ElementType::U8: high = UINT8_MAX; break;
    case ElementType::I16: low = INT16_MIN; high = INT16_MAX; break;
    case ElementType::U16: high = UINT16_MAX; break;
    case ElementType::I32: low = INT32_MIN; high = INT32_MAX; break;
    case ElementType::U32: high = UINT32_MAX; break;
    case ElementType::I64: low = INT64_MIN; high = INT64_MAX; break;
    case ElementType::U64: high = UINT64_MAX; break;
    default: break;
    }
    if (value < low || (value >= 0 && static_cast<std::uint64_t>(value) > high))
        badSpec(spec, std::to_string(value) + " does not fit in " + elementName(type) + " (" + std::to_string(low) +
                          " to " + std::to_string(high) + ")");
    const std::uint32_t bits = elementBytes(type) * 8;
    return bits == 64 ? static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value) & ((std::uint64_t{1} << bits) - 1);
}

// f16, bf16 and f32 round to nearest even; a value that rounds to infinity is refused, naming the
// largest finite value of the type. f64 values are finite already (parseReal refuses the rest).
std::uint64_t encodeReal(double value, ElementType type, std::string_view spec)
{
    std::uint64_t bits = 0;
    double rounded = value;
    double largest = 0;
    if (type == ElementType::F16 || type == ElementType::BF16) {
        const HalfFormat format = type == ElementType::F16 ? HalfFormat::F16 : HalfFormat::BF16;
        const std::uint16_t half = halfFromDouble(value, format, RoundingDirection::NearestEven);
        bits = half;
        rounded = halfToDouble(half, format);
        largest = halfToDouble(static_cast<std::uint16_t>(format == HalfFormat::F16 ? 0x7bffu : 0x7f7fu), format);
    } else if (type == ElementType::F32) {
        const float single = static_cast<float>(value);
        bits = std::bit_cast<std::uint32_t>(single);
        rounded = single;
        largest = std::numeric_limits<float>::max();
    } else {
        return std::bit_cast<std::uint64_t>(value);
    }
    if (std::isinf(rounded)) {
        std::ostringstream largestText;
        largestText.precision(8);
        largestText << largest;
        char given[32]; // the shortest text that reads back as the value given
        const std::string givenText(given, std::to_chars(given, given + sizeof given, value).ptr);
        badSpec(spec, givenText + " is out of range for " + elementName(type) + " (it rounds to infinity; the largest " +
                          elementName(type) + " is " + largestText.str() + ")");
    }
    return bits;
}

double parseReal(std::string_view text, std::string_view spec)
{
    text = trim(text);
    double value = 0;
    auto [ptr, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || ptr != text.data() + text.size() || !std::isfinite(value))
        badSpec(spec, "'" + std::string(text) + "' is not a finite number");
    return value;
}

void storeBits(std::vector<std::uint8_t>& bytes, std::uint64_t index, std::uint32_t size, std::uint64_t bits)
{
    for (std::uint32_t b = 0; b < size; ++b)
        bytes[index * size + b] = static_cast<std::uint8_t>(bits >> (8 * b));
}

// Integer scalars, resolved on demand so their order in the list does not matter; cycles are errors.
class ScalarResolver {
public:
    explicit ScalarResolver(const std::vector<ArgSpec>& specs) : m_specs(specs), m_names(integerScalarNames(specs)) {}

    // The value of `name`, met in an expression of `what` ("argument 'x=f32[n]' length").
    std::int64_t valueOf(std::string_view name, std::string_view what)
    {
        if (auto found = m_values.find(name); found != m_values.end())
            return found->second;
        const ArgSpec* spec = nullptr;
        for (const ArgSpec& candidate : m_specs)
            if (candidate.name == name)
                spec = &candidate;
        if (!spec || spec->isBuffer || isFloatElement(spec->type))
            unknownName(what, name, m_names);
        if (!m_resolving.insert(std::string(name)).second)
            throw InputError("argument '" + spec->text + "': its value depends on itself");
        const std::string specWhat = "argument '" + spec->text + "'";
        ExpressionEvaluator evaluator(spec->expression, specWhat, lookupFor(specWhat));
        const std::int64_t value = evaluator.evaluate();
        encodeInteger(value, spec->type, spec->text);
        m_resolving.erase(std::string(name));
        m_values.emplace(std::string(name), value);
        return value;
    }
    std::function<std::int64_t(std::string_view)> lookupFor(std::string what)
    {
        return [this, what = std::move(what)](std::string_view name) { return valueOf(name, what); };
    }
    const std::vector<std::string>& names() const { return m_names; }
    const std::map<std::string, std::int64_t, std::less<>>& values() const { return m_values; }

private:
    const std::vector<ArgSpec>& m_specs;
    std::vector<std::string> m_names;
    std::map<std::string, std::int64_t, std::less<>> m_values;
    std::set<std::string, std::less<>> m_resolving;
};

void requireUniqueNames(const std::vector<ArgSpec>& specs)
{
    std::set<std::string, std::less<>> names;
    for (const ArgSpec& spec : specs)
        if (!names.insert(spec.name).second)
            throw InputError("argument '" + spec.text + "': the name '" + spec.name + "' is used twice");
}

} // namespace

std::uint32_t elementBytes(ElementType type)
{
    switch (type) {
    case ElementType::I8: case ElementType::U8: return 1;
    case ElementType::I16: case ElementType::U16: case ElementType::F16: case ElementType::BF16: return 2;
    case ElementType::I32: case ElementType::U32: case ElementType::F32: return 4;
    case ElementType::I64: case ElementType::U64: case ElementType::F64: return 8;
    }
    return 1;
}

bool isFloatElement(ElementType type)
{
    return type == ElementType::F32 || type == ElementType::F64 || type == ElementType::F16 || type == ElementType::BF16;
}

bool isSignedElement(ElementType type)
{
    return type == ElementType::I8 || type == ElementType::I16 || type == ElementType::I32 || type == ElementType::I64;
}

const char* elementName(ElementType type)
{
    for (const ElementInfo& info : kElements)
        if (info.type == type)
            return info.name.data();
    return "?";
}

ArgSpec parseArgSpec(std::string_view text)
{
    ArgSpec spec;
    spec.text = std::string(trim(text));
    const std::string_view whole = spec.text;
    const std::size_t equals = whole.find('=');
    if (equals == std::string_view::npos)
        badSpec(whole, "expected NAME=TYPE:VALUE or NAME=TYPE[LENGTH][:INIT]");
    const std::string_view name = trim(whole.substr(0, equals));
    if (!isIdentifier(name))
        badSpec(whole, "the name '" + std::string(name) + "' must be letters, digits and _ (not starting with a digit)");
    spec.name = std::string(name);
    std::string_view rest = trim(whole.substr(equals + 1));
    std::size_t typeEnd = 0;
    while (typeEnd < rest.size() && std::isalnum(static_cast<unsigned char>(rest[typeEnd])))
        ++typeEnd;
    const std::string_view typeName = rest.substr(0, typeEnd);
    bool knownType = false;
    for (const ElementInfo& info : kElements)
        if (info.name == typeName) {
            spec.type = info.type;
            knownType = true;
        }
    if (!knownType)
        badSpec(whole, "unknown type '" + std::string(typeName) + "' (allowed: " + kTypeList + ")");
    rest = rest.substr(typeEnd);
    if (rest.starts_with('[')) {
        spec.isBuffer = true;
        const std::size_t close = rest.rfind(']');
        if (close == std::string_view::npos)
            badSpec(whole, "the buffer length needs a closing ']'");
        spec.expression = std::string(trim(rest.substr(1, close - 1)));
        if (spec.expression.empty())
            badSpec(whole, "the buffer length is empty");
        rest = trim(rest.substr(close + 1));
        if (rest.empty())
            return spec; // zeros
        if (!rest.starts_with(':'))
            badSpec(whole, "expected ':INIT' after the buffer length");
        const std::string_view init = trim(rest.substr(1));
        const std::size_t open = init.find('(');
        const std::string_view kind = trim(init.substr(0, open));
        std::string_view argsText;
        if (open != std::string_view::npos) {
            if (!init.ends_with(')'))
                badSpec(whole, "'" + std::string(init) + "' needs a closing ')'");
            argsText = init.substr(open + 1, init.size() - open - 2);
        }
        std::vector<std::string_view> args;
        if (open != std::string_view::npos && kind != "file") {
            std::size_t start = 0;
            while (true) {
                const std::size_t comma = argsText.find(',', start);
                args.push_back(trim(argsText.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
                if (comma == std::string_view::npos)
                    break;
                start = comma + 1;
            }
        }
        auto needArgs = [&](std::size_t count, const char* form) {
            if ((count == 0 && open != std::string_view::npos) || (count > 0 && args.size() != count))
                badSpec(whole, std::string("expected ") + form);
        };
        if (kind == "zeros") {
            needArgs(0, "zeros");
            spec.init.kind = ArgInit::Kind::Zeros;
        } else if (kind == "iota") {
            needArgs(0, "iota");
            spec.init.kind = ArgInit::Kind::Iota;
        } else if (kind == "fill") {
            needArgs(1, "fill(VALUE)");
            spec.init.kind = ArgInit::Kind::Fill;
            spec.init.value = std::string(args[0]);
            if (isFloatElement(spec.type))
                encodeReal(parseReal(args[0], whole), spec.type, whole);
            else
                encodeInteger(parseSigned(args[0], whole, "the fill value"), spec.type, whole);
        } else if (kind == "random") {
            needArgs(1, "random(SEED)");
            if (!isFloatElement(spec.type))
                badSpec(whole, "random(SEED) makes floating-point values; for integers use random_int(LO,HI,SEED)");
            spec.init.kind = ArgInit::Kind::Random;
            spec.init.seed = parseUnsigned(args[0], whole, "the seed");
        } else if (kind == "random_int") {
            needArgs(3, "random_int(LO,HI,SEED)");
            if (isFloatElement(spec.type))
                badSpec(whole, "random_int(LO,HI,SEED) is for integer types; for floats use random(SEED)");
            spec.init.kind = ArgInit::Kind::RandomInt;
            spec.init.low = parseSigned(args[0], whole, "LO");
            spec.init.high = parseSigned(args[1], whole, "HI");
            spec.init.seed = parseUnsigned(args[2], whole, "the seed");
            if (spec.init.low > spec.init.high)
                badSpec(whole, "LO must not be greater than HI");
            encodeInteger(spec.init.low, spec.type, whole);
            encodeInteger(spec.init.high, spec.type, whole);
        } else if (kind == "file") {
            if (open == std::string_view::npos || trim(argsText).empty())
                badSpec(whole, "expected file(PATH)");
            spec.init.kind = ArgInit::Kind::File;
            spec.init.path = std::string(trim(argsText));
        } else {
            badSpec(whole, "unknown initialiser '" + std::string(init) +
                               "' (allowed: zeros, iota, fill(V), random(SEED), random_int(LO,HI,SEED), file(PATH))");
        }
        return spec;
    }
    if (!rest.starts_with(':'))
        badSpec(whole, "expected ':VALUE' for a scalar or '[LENGTH]' for a buffer after the type");
    spec.expression = std::string(trim(rest.substr(1)));
    if (spec.expression.empty())
        badSpec(whole, "the value is empty");
    if (isFloatElement(spec.type))
        encodeReal(parseReal(spec.expression, whole), spec.type, whole);
    return spec;
}

std::vector<ArgSpec> applyOverrides(std::vector<ArgSpec> specs, const std::vector<ArgSpec>& overrides)
{
    for (const ArgSpec& override : overrides) {
        bool found = false;
        for (ArgSpec& spec : specs)
            if (spec.name == override.name) {
                spec = override;
                found = true;
            }
        if (!found) {
            std::string names;
            for (const ArgSpec& spec : specs)
                names += (names.empty() ? "" : ", ") + spec.name;
            throw InputError("argument '" + override.text + "': this kernel has no argument named '" + override.name +
                             "' (its arguments: " + names + ")");
        }
    }
    return specs;
}

std::int64_t evaluateExpression(std::string_view expression, const std::map<std::string, std::int64_t, std::less<>>& scalars,
                                std::string_view what)
{
    ExpressionEvaluator evaluator(expression, what, [&](std::string_view name) -> std::int64_t {
        auto found = scalars.find(name);
        if (found == scalars.end()) {
            std::vector<std::string> names;
            for (const auto& [known, value] : scalars)
                names.push_back(known);
            unknownName(what, name, names);
        }
        return found->second;
    });
    return evaluator.evaluate();
}

void checkExpressionSyntax(std::string_view expression, const std::vector<std::string>& names, std::string_view what)
{
    ExpressionEvaluator evaluator(
        expression, what,
        [&](std::string_view name) -> std::int64_t {
            if (std::find(names.begin(), names.end(), name) == names.end())
                unknownName(what, name, names);
            return 1;
        },
        true);
    evaluator.evaluate();
}

std::map<std::string, std::int64_t, std::less<>> resolveIntegerScalars(const std::vector<ArgSpec>& specs)
{
    requireUniqueNames(specs);
    ScalarResolver resolver(specs);
    for (const std::string& name : resolver.names())
        resolver.valueOf(name, "argument expression");
    return resolver.values();
}

std::vector<std::string> integerScalarNames(const std::vector<ArgSpec>& specs)
{
    std::vector<std::string> names;
    for (const ArgSpec& spec : specs)
        if (!spec.isBuffer && !isFloatElement(spec.type))
            names.push_back(spec.name);
    return names;
}

std::map<std::string, std::int64_t, std::less<>> integerScalars(const std::vector<ResolvedArg>& args)
{
    std::map<std::string, std::int64_t, std::less<>> scalars;
    for (const ResolvedArg& arg : args)
        if (!arg.isBuffer && !isFloatElement(arg.type))
            scalars[arg.name] = arg.integerValue;
    return scalars;
}

std::vector<ResolvedArg> resolveArgs(const std::vector<ArgSpec>& specs, std::uint64_t maxBufferBytes)
{
    requireUniqueNames(specs);
    ScalarResolver scalars(specs);

    std::vector<ResolvedArg> resolved;
    for (const ArgSpec& spec : specs) {
        ResolvedArg arg;
        arg.name = spec.name;
        arg.type = spec.type;
        arg.isBuffer = spec.isBuffer;
        const std::uint32_t size = elementBytes(spec.type);
        if (!spec.isBuffer) {
            if (isFloatElement(spec.type)) {
                arg.realValue = parseReal(spec.expression, spec.text);
                arg.scalarBits = encodeReal(arg.realValue, spec.type, spec.text);
            } else {
                arg.integerValue = scalars.valueOf(spec.name, "argument expression");
                arg.scalarBits = encodeInteger(arg.integerValue, spec.type, spec.text);
            }
            resolved.push_back(std::move(arg));
            continue;
        }
        const std::string lengthWhat = "argument '" + spec.text + "' length";
        ExpressionEvaluator evaluator(spec.expression, lengthWhat, scalars.lookupFor(lengthWhat));
        const std::int64_t count = evaluator.evaluate();
        if (count < 0)
            badSpec(spec.text, "the length " + std::to_string(count) + " is negative");
        if (static_cast<std::uint64_t>(count) > maxBufferBytes / size)
            badSpec(spec.text, "the buffer would be " + std::to_string(static_cast<std::uint64_t>(count) * size) +
                                   " bytes; the simulator allows at most " + std::to_string(maxBufferBytes) + " per buffer");
        arg.count = static_cast<std::uint64_t>(count);
        arg.bytes.assign(arg.count * size, 0);
        switch (spec.init.kind) {
        case ArgInit::Kind::Zeros:
            break;
        case ArgInit::Kind::Iota:
            // Integers wrap modulo the width; floats round to nearest (f16 past 2048, bf16 past 256),
            // and a float buffer whose last index would round to infinity is refused.
            for (std::uint64_t i = 0; i < arg.count; ++i)
                storeBits(arg.bytes, i, size,
                          isFloatElement(spec.type) ? encodeReal(static_cast<double>(i), spec.type, spec.text)
                                                    : static_cast<std::uint64_t>(i));
            break;
        case ArgInit::Kind::Fill: {
            const std::uint64_t bits = isFloatElement(spec.type)
                ? encodeReal(parseReal(spec.init.value, spec.text), spec.type, spec.text)
                : encodeInteger(parseSigned(spec.init.value, spec.text, "the fill value"), spec.type, spec.text);
            for (std::uint64_t i = 0; i < arg.count; ++i)
                storeBits(arg.bytes, i, size, bits);
            break;
        }
        case ArgInit::Kind::Random: {
            SplitMix64 random{spec.init.seed};
            for (std::uint64_t i = 0; i < arg.count; ++i) {
                const double unit = static_cast<double>(random.next() >> 11) * 0x1.0p-53; // [0, 1)
                storeBits(arg.bytes, i, size, encodeReal(unit * 2.0 - 1.0, spec.type, spec.text));
            }
            break;
        }
        case ArgInit::Kind::RandomInt: {
            SplitMix64 random{spec.init.seed};
            const std::uint64_t span = static_cast<std::uint64_t>(spec.init.high) - static_cast<std::uint64_t>(spec.init.low) + 1;
            for (std::uint64_t i = 0; i < arg.count; ++i) {
                const std::uint64_t draw = span == 0 ? random.next() : random.next() % span;
                storeBits(arg.bytes, i, size, static_cast<std::uint64_t>(spec.init.low) + draw);
            }
            break;
        }
        case ArgInit::Kind::File: {
            std::ifstream file(spec.init.path, std::ios::binary);
            if (!file || std::filesystem::is_directory(spec.init.path))
                badSpec(spec.text, "cannot open '" + spec.init.path + "'");
            // Read at most one byte more than needed: a huge or endless file (/dev/zero) is refused,
            // not read whole.
            std::vector<std::uint8_t> contents(arg.bytes.size() + 1);
            file.read(reinterpret_cast<char*>(contents.data()), static_cast<std::streamsize>(contents.size()));
            contents.resize(static_cast<std::size_t>(file.gcount()));
            if (contents.size() != arg.bytes.size())
                badSpec(spec.text, "'" + spec.init.path + "' has " + (contents.size() > arg.bytes.size() ? "more than " + std::to_string(arg.bytes.size()) : std::to_string(contents.size())) + " bytes; the buffer needs " +
                                       std::to_string(arg.bytes.size()) + " (" + std::to_string(arg.count) + " x " +
                                       elementName(spec.type) + ")");
            arg.bytes = std::move(contents);
            break;
        }
        }
        resolved.push_back(std::move(arg));
    }
    return resolved;
}

std::string formatElement(const ResolvedArg& arg, const std::vector<std::uint8_t>& bytes, std::uint64_t index)
{
    const std::uint32_t size = elementBytes(arg.type);
    std::uint64_t bits = 0;
    for (std::uint32_t b = 0; b < size; ++b)
        bits |= static_cast<std::uint64_t>(bytes[index * size + b]) << (8 * b);
    std::ostringstream out;
    out.precision(9);
    switch (arg.type) {
    // Enough digits to read back as the same value: 5 for f16's 11 significant bits, 4 for bf16's 8.
    case ElementType::F16: out.precision(5); out << floatElementValue(arg.type, bits); break;
    case ElementType::BF16: out.precision(4); out << floatElementValue(arg.type, bits); break;
    case ElementType::F32: out << std::bit_cast<float>(static_cast<std::uint32_t>(bits)); break;
    case ElementType::F64: out.precision(17); out << std::bit_cast<double>(bits); break;
    case ElementType::I8: out << static_cast<int>(static_cast<std::int8_t>(bits)); break;
    case ElementType::I16: out << static_cast<std::int16_t>(bits); break;
    case ElementType::I32: out << static_cast<std::int32_t>(bits); break;
    case ElementType::I64: out << static_cast<std::int64_t>(bits); break;
    default: out << bits; break;
    }
    return out.str();
}

double floatElementValue(ElementType type, std::uint64_t bits)
{
    switch (type) {
    case ElementType::F16: return halfToDouble(static_cast<std::uint16_t>(bits), HalfFormat::F16);
    case ElementType::BF16: return halfToDouble(static_cast<std::uint16_t>(bits), HalfFormat::BF16);
    case ElementType::F32: return std::bit_cast<float>(static_cast<std::uint32_t>(bits));
    default: return std::bit_cast<double>(bits);
    }
}

std::vector<std::string> splitDimensions(std::string_view text)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    int depth = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i < text.size() && text[i] == '(')
            ++depth;
        if (i < text.size() && text[i] == ')')
            --depth;
        if (i == text.size() || (text[i] == ',' && depth == 0)) {
            parts.emplace_back(text.substr(start, i - start));
            start = i + 1;
        }
    }
    return parts;
}

} // namespace warpscope::sim
