#include "ptx/ptx_target.h"

#include "util/input_error.h"

#include <array>
#include <charconv>
#include <cstddef>
#include <system_error>
#include <utility>

namespace warpscope::ptx {
namespace {

struct TargetRow {
    int number;       // 100 for sm_100
    int portable;     // least .version x 10 for sm_XY, 0 when the ISA has no plain sm_XY
    int archSpecific; // for sm_XYa, 0 when none
    int family;       // for sm_XYf, 0 when none
};

// The PTX ISA's target table (PTX ISA 9.0, section "PTX module directives: .target", and the release
// notes that introduced each target): the PTX ISA version that first accepts each one. sm_101 was
// renamed sm_110 in PTX ISA 9.0; both are listed as the ISA still accepts sm_101.
constexpr std::array<TargetRow, 20> kTargets{{
    {50, 40, 0, 0},   {52, 41, 0, 0},   {53, 42, 0, 0},   {60, 50, 0, 0},   {61, 50, 0, 0},
    {62, 50, 0, 0},   {70, 60, 0, 0},   {72, 61, 0, 0},   {75, 63, 0, 0},   {80, 70, 0, 0},
    {86, 71, 0, 0},   {87, 74, 0, 0},   {88, 90, 0, 0},   {89, 78, 0, 0},   {90, 78, 80, 0},
    {100, 86, 86, 88}, {101, 86, 86, 88}, {103, 88, 88, 88}, {110, 90, 90, 90}, {120, 87, 87, 88},
}};
// sm_121 (and its a and f forms): PTX ISA 8.8.
constexpr TargetRow kSm121{121, 88, 88, 88};

const TargetRow* findRow(int number)
{
    if (number == kSm121.number)
        return &kSm121;
    for (const TargetRow& row : kTargets)
        if (row.number == number)
            return &row;
    return nullptr;
}

std::string versionText(int timesTen) { return std::to_string(timesTen / 10) + "." + std::to_string(timesTen % 10); }

} // namespace

std::optional<PtxTarget> parseTarget(std::string_view name)
{
    if (!name.starts_with("sm_"))
        return std::nullopt;
    std::string_view rest = name.substr(3);
    TargetKind kind = TargetKind::Portable;
    if (!rest.empty() && (rest.back() == 'a' || rest.back() == 'f')) {
        kind = rest.back() == 'a' ? TargetKind::ArchSpecific : TargetKind::FamilySpecific;
        rest.remove_suffix(1);
    }
    int number = 0;
    const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), number);
    if (error != std::errc() || end != rest.data() + rest.size() || rest.empty() || rest.front() == '0')
        return std::nullopt;
    const TargetRow* row = findRow(number);
    if (!row)
        return std::nullopt;
    const int least = kind == TargetKind::Portable ? row->portable : kind == TargetKind::ArchSpecific ? row->archSpecific : row->family;
    if (least == 0)
        return std::nullopt;
    PtxTarget target;
    target.major = number / 10;
    target.minor = number % 10;
    target.kind = kind;
    target.name = std::string(name);
    target.leastVersionTimesTen = least;
    return target;
}

std::string knownTargetList()
{
    std::string list;
    auto add = [&](const TargetRow& row) {
        const std::string base = "sm_" + std::to_string(row.number);
        for (const auto& [least, suffix] : {std::pair{row.portable, ""}, std::pair{row.archSpecific, "a"}, std::pair{row.family, "f"}})
            if (least != 0)
                list += (list.empty() ? "" : ", ") + base + suffix;
    };
    for (const TargetRow& row : kTargets)
        add(row);
    add(kSm121);
    return list;
}

void requireTargetVersion(std::string_view target, std::string_view version)
{
    const std::optional<PtxTarget> parsed = parseTarget(target);
    if (!parsed)
        throw InputError("PTX .target " + std::string(target) + " is not a target of the PTX ISA (allowed: " + knownTargetList() + ")");
    if (version.empty())
        return;
    // ".version 8.6": major and minor, each a small integer.
    const std::size_t dot = version.find('.');
    int major = 0, minor = 0;
    const auto parse = [](std::string_view text, int& value) {
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        return error == std::errc() && end == text.data() + text.size() && !text.empty();
    };
    if (dot == std::string_view::npos || !parse(version.substr(0, dot), major) || !parse(version.substr(dot + 1), minor) || minor > 9)
        throw InputError("PTX .version " + std::string(version) + " is not a PTX ISA version (such as 8.6)");
    if (major * 10 + minor < parsed->leastVersionTimesTen)
        throw InputError("PTX .target " + parsed->name + " needs .version " + versionText(parsed->leastVersionTimesTen) +
                         " or later (PTX ISA); the module has .version " + std::string(version));
}

bool targetRunsOn(const PtxTarget& target, int major, int minor)
{
    switch (target.kind) {
    case TargetKind::Portable: return major * 10 + minor >= target.major * 10 + target.minor;
    case TargetKind::FamilySpecific: return major == target.major && minor >= target.minor;
    case TargetKind::ArchSpecific: return major == target.major && minor == target.minor;
    }
    return false;
}

} // namespace warpscope::ptx
