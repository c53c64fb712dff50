#include "sim/launch_fields_check.h"

#include "util/input_error.h"
#include "util/input_wording.h"
#include "util/parse.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string_view>
#include <utility>

namespace warpscope::sim {

namespace {

using Scalars = std::map<std::string, std::int64_t, std::less<>>;

std::vector<std::string> words(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream stream(text);
    for (std::string word; stream >> word;)
        out.push_back(word);
    return out;
}

bool isPlainInteger(std::string_view text)
{
    const std::string clean = trimmedInput(text);
    std::size_t i = !clean.empty() && (clean[0] == '+' || clean[0] == '-') ? 1 : 0;
    if (i == clean.size())
        return false;
    for (; i < clean.size(); ++i)
        if (!std::isdigit(static_cast<unsigned char>(clean[i])))
            return false;
    return true;
}

// The typed specs over the kernel's own (or alone): the whole list the launch would resolve.
std::vector<ArgSpec> checkArgs(const std::string& text, const std::vector<ArgSpec>* kernelSpecs, const std::string& kernelName)
{
    std::vector<ArgSpec> typed;
    std::set<std::string, std::less<>> seen;
    for (const std::string& word : words(text)) {
        if (word.find('=') == std::string::npos)
            throw InputError(notAValueMessage("args", word, "an argument spec",
                                              "NAME=TYPE:VALUE or NAME=TYPE[LENGTH][:INIT], separated by spaces"));
        ArgSpec spec = parseArgSpec(word);
        if (!seen.insert(spec.name).second)
            throw InputError("args: '" + word + "' sets '" + spec.name + "' a second time (allowed: each argument once)");
        if (kernelSpecs) {
            std::string names;
            bool known = false;
            for (const ArgSpec& own : *kernelSpecs) {
                names += (names.empty() ? "" : ", ") + own.name;
                known = known || own.name == spec.name;
            }
            if (!known)
                throw InputError(notAValueMessage("args", spec.name, "an argument of " + kernelName, names));
        }
        typed.push_back(std::move(spec));
    }
    return kernelSpecs ? applyOverrides(*kernelSpecs, typed) : typed;
}

// "64 MB" (M = 1024 K, as the links write it), else as formatBytes writes it.
std::string bytesText(std::uint64_t bytes)
{
    constexpr std::uint64_t mega = 1ull << 20;
    return bytes >= mega && bytes % mega == 0 ? withThousands(static_cast<std::int64_t>(bytes / mega)) + " MB"
                                              : formatBytes(static_cast<std::size_t>(bytes));
}

// Each buffer's length, evaluated and held to the simulator's cap, without making the buffer.
void checkBufferLengths(const std::vector<ArgSpec>& specs, const Scalars& scalars, std::uint64_t maxBufferBytes)
{
    for (const ArgSpec& spec : specs) {
        if (!spec.isBuffer)
            continue;
        const std::string what = "argument '" + spec.text + "' length";
        const std::int64_t count = evaluateExpression(spec.expression, scalars, what);
        const std::uint64_t maxCount = maxBufferBytes / elementBytes(spec.type);
        if (count < 0 || static_cast<std::uint64_t>(count) > maxCount) {
            const std::string shown = isPlainInteger(spec.expression) ? std::to_string(count)
                                                                      : spec.expression + " = " + std::to_string(count);
            throw InputError(outOfRangeMessage(what, shown,
                                               "0.." + withThousands(static_cast<std::int64_t>(maxCount)) + " elements, " +
                                                   bytesText(maxBufferBytes) + " per buffer"));
        }
    }
}

// One word that is neither a number nor an argument's name ("x", "2.5"): not an integer, as the
// launch bar says of it, with expressions added to what is allowed.
bool isOneWord(std::string_view text)
{
    const std::string clean = trimmedInput(text);
    return !clean.empty() && clean.find_first_of("+-*/%(), \t") == std::string::npos;
}

std::string allowedDims(std::int64_t max, const std::vector<std::string>& names)
{
    std::string allowed = "1.." + std::to_string(max) + ", or an integer expression";
    if (names.empty())
        return allowed + " such as 4*32";
    for (std::size_t i = 0; i < names.size(); ++i)
        allowed += (i == 0 ? " over " : ", ") + names[i];
    return allowed;
}

// The grid or block: as the launch bar reads it when typed as plain numbers, else each component
// evaluated over the scalars (or, while the arguments are wrong, only its form checked).
std::optional<launch::Dim3> checkDims(const std::string& text, const std::string& what, bool block, const Scalars* scalars,
                                      const std::vector<std::string>& names)
{
    const std::vector<std::string> parts = splitDimensions(text);
    if (std::all_of(parts.begin(), parts.end(), [](const std::string& part) { return isPlainInteger(part); }) ||
        parts.size() > 3)
        return block ? launch::parseBlockDim(text, what) : launch::parseGridDim(text, what);
    using Limits = launch::LaunchLimits;
    const std::int64_t gridMax[3] = {Limits::maxGridX, Limits::maxGridYZ, Limits::maxGridYZ};
    const std::int64_t blockMax[3] = {parts.size() == 1 ? Limits::maxThreadsPerBlock : Limits::maxBlockXY, Limits::maxBlockXY,
                                      Limits::maxBlockZ};
    const char* axes[] = {".x", ".y", ".z"};
    std::int64_t values[3] = {1, 1, 1};
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const std::string axisWhat = parts.size() == 1 ? what : what + axes[i];
        const std::int64_t max = block ? blockMax[i] : gridMax[i];
        if (isOneWord(parts[i]) && !isPlainInteger(parts[i]) && std::find(names.begin(), names.end(), trimmedInput(parts[i])) == names.end())
            throw InputError(notAValueMessage(axisWhat, trimmedInput(parts[i]), "an integer", allowedDims(max, names)));
        if (!scalars) {
            checkExpressionSyntax(parts[i], names, axisWhat);
            continue;
        }
        values[i] = evaluateExpression(parts[i], *scalars, axisWhat);
        if (values[i] < 1 || values[i] > max) {
            const std::string shown = isPlainInteger(parts[i]) ? trimmedInput(parts[i])
                                                               : trimmedInput(parts[i]) + " = " + std::to_string(values[i]);
            throw InputError(outOfRangeMessage(axisWhat, shown, "1.." + std::to_string(max)));
        }
    }
    if (!scalars)
        return std::nullopt;
    const launch::Dim3 dims{values[0], values[1], values[2]};
    if (block && dims.volume() > Limits::maxThreadsPerBlock)
        throw InputError(what + ": " + trimmedInput(text) + " = " + launch::formatDim3(dims) + " has " +
                         std::to_string(dims.volume()) + " threads (allowed: at most " +
                         std::to_string(Limits::maxThreadsPerBlock) + " threads per block)");
    return dims;
}

} // namespace

LaunchFieldsCheck checkLaunchFields(const LaunchFieldsText& text, const std::vector<ArgSpec>* kernelSpecs,
                                    const std::string& kernelName, std::uint64_t maxBufferBytes)
{
    LaunchFieldsCheck check;
    std::optional<Scalars> scalars;
    std::vector<std::string> names; // the integer scalars an expression may name, even while one is wrong
    try {
        const std::vector<ArgSpec> specs = checkArgs(text.args, kernelSpecs, kernelName);
        names = integerScalarNames(specs);
        scalars = resolveIntegerScalars(specs);
        checkBufferLengths(specs, *scalars, maxBufferBytes);
    } catch (const InputError& error) {
        check.argsError = error.what();
        if (kernelSpecs && names.empty())
            names = integerScalarNames(*kernelSpecs);
    }
    const Scalars* values = scalars ? &*scalars : nullptr;
    try {
        check.grid = checkDims(text.grid, "grid", false, values, names);
    } catch (const InputError& error) {
        check.gridError = error.what();
    }
    try {
        check.block = checkDims(text.block, "block", true, values, names);
    } catch (const InputError& error) {
        check.blockError = error.what();
    }
    // Against the grid where it is known, else against the largest grid CUDA allows.
    using Limits = launch::LaunchLimits;
    const launch::Dim3 extent = check.grid.value_or(launch::Dim3{Limits::maxGridX, Limits::maxGridYZ, Limits::maxGridYZ});
    std::string index = text.blockIndex;
    index.erase(std::remove(index.begin(), index.end(), ' '), index.end());
    try {
        check.blockIndex = launch::parseIndex(index.empty() ? std::string("0") : index, "block index", extent);
    } catch (const InputError& error) {
        check.blockIndexError = error.what();
    }
    return check;
}

} // namespace warpscope::sim
