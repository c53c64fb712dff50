// Helpers shared by the argument-spec tests (kernel_args_test.cpp, kernel_args_half_test.cpp):
// resolving spec lists, reading a buffer's elements, catching the one-line errors, and the
// published SplitMix64 that the random initialisers are checked against.
#pragma once

#include "sim/kernel_args.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

namespace warpscope::sim::args_test {


using Scalars = std::map<std::string, std::int64_t, std::less<>>;

// SplitMix64 as published (Steele, Lea, Flood 2014; Vigna's splitmix64.c). Checked below against
// the well-known first outputs for seed 0.
struct ReferenceSplitMix64 {
    std::uint64_t state;
    std::uint64_t next()
    {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
};

// The first three SplitMix64 outputs for seed 0.
constexpr std::uint64_t kSeed0First = 0xE220A8397B1DCDAFull;
constexpr std::uint64_t kSeed0Second = 0x6E789E6AA1B965F4ull;
constexpr std::uint64_t kSeed0Third = 0x06C45D188009454Full;

inline double unitFromDraw(std::uint64_t x) { return static_cast<double>(x >> 11) * 0x1.0p-53 * 2.0 - 1.0; }

inline std::vector<ResolvedArg> resolve(const std::vector<std::string>& texts, std::uint64_t maxBytes = 1ull << 30)
{
    std::vector<ArgSpec> specs;
    for (const std::string& text : texts)
        specs.push_back(parseArgSpec(text));
    return resolveArgs(specs, maxBytes);
}

inline const ResolvedArg& byName(const std::vector<ResolvedArg>& args, const std::string& name)
{
    for (const ResolvedArg& arg : args)
        if (arg.name == name)
            return arg;
    throw std::runtime_error("no argument " + name);
}

template <class T> T element(const ResolvedArg& arg, std::size_t index)
{
    T value{};
    EXPECT_EQ(sizeof(T), elementBytes(arg.type));
    EXPECT_LE((index + 1) * sizeof(T), arg.bytes.size());
    if ((index + 1) * sizeof(T) <= arg.bytes.size())
        std::memcpy(&value, arg.bytes.data() + index * sizeof(T), sizeof(T));
    return value;
}

inline std::string parseError(const std::string& text)
{
    try {
        parseArgSpec(text);
    } catch (const InputError& error) {
        return error.what();
    }
    ADD_FAILURE() << "'" << text << "' was accepted";
    return {};
}

inline std::string resolveError(const std::vector<std::string>& texts, std::uint64_t maxBytes = 1ull << 30)
{
    try {
        resolve(texts, maxBytes);
    } catch (const InputError& error) {
        return error.what();
    }
    ADD_FAILURE() << "the list was resolved";
    return {};
}

inline std::string expressionError(const std::string& expression, const Scalars& scalars = {})
{
    try {
        evaluateExpression(expression, scalars, "grid");
    } catch (const InputError& error) {
        return error.what();
    }
    ADD_FAILURE() << "'" << expression << "' evaluated";
    return {};
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

inline std::string tempPath(const std::string& name)
{
    return testing::TempDir() + "/warpscope_args_" + std::to_string(getpid()) + "_" + name;
}

} // namespace warpscope::sim::args_test
