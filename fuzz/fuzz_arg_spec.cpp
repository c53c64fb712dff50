// libFuzzer target: the argument-spec language and its integer expressions (core/sim/kernel_args),
// as `warpscope sim --arg`, the demo kernels' manifests and `warpscope:` links use them. The input is
// lines: "NAME=TYPE..." specs, "+NAME=TYPE..." overrides of them, and "=EXPR" expressions evaluated
// over the resolved integer scalars as --grid and --block are. Bad text must be refused with an
// InputError; nothing else may be thrown.
#include "sim/kernel_args.h"
#include "util/input_error.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

using namespace warpscope;

namespace {

// Small enough that every input runs in microseconds; the cap itself is part of what is tested.
constexpr std::uint64_t kMaxBufferBytes = 1 << 16;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<std::string_view> specLines, overrideLines, expressions;
    for (std::size_t start = 0; start <= text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::string_view line = text.substr(start, end - start);
        if (line.starts_with('='))
            expressions.push_back(line.substr(1));
        else if (line.starts_with('+'))
            overrideLines.push_back(line.substr(1));
        else if (!line.empty())
            specLines.push_back(line);
        start = end + 1;
    }

    std::vector<sim::ArgSpec> specs, overrides;
    for (std::string_view line : specLines) {
        try {
            specs.push_back(sim::parseArgSpec(line));
        } catch (const InputError&) {
        }
    }
    for (std::string_view line : overrideLines) {
        try {
            overrides.push_back(sim::parseArgSpec(line));
        } catch (const InputError&) {
        }
    }
    try {
        specs = sim::applyOverrides(std::move(specs), overrides);
    } catch (const InputError&) {
    }
    // file(PATH) reads the machine's files: never from fuzzed text.
    std::erase_if(specs, [](const sim::ArgSpec& spec) { return spec.init.kind == sim::ArgInit::Kind::File; });

    std::map<std::string, std::int64_t, std::less<>> scalars;
    try {
        const std::vector<sim::ResolvedArg> args = sim::resolveArgs(specs, kMaxBufferBytes);
        for (const sim::ResolvedArg& arg : args) {
            if (arg.isBuffer && arg.bytes.size() != arg.count * sim::elementBytes(arg.type))
                __builtin_trap(); // a buffer whose bytes do not match its count
            for (std::uint64_t i = 0; i < std::min<std::uint64_t>(arg.count, 4); ++i)
                (void)sim::formatElement(arg, arg.bytes, i);
        }
        scalars = sim::integerScalars(args);
    } catch (const InputError&) {
    }
    for (std::string_view expression : expressions) {
        try {
            (void)sim::evaluateExpression(expression, scalars, "--grid");
        } catch (const InputError&) {
        }
    }
    return 0;
}
