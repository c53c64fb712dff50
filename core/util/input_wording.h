// One wording for a value a field cannot take, so that the same mistake reads the same in every view:
//   "WHAT: 'TEXT' is not KIND (allowed: ALLOWED)"   the text is not the kind of value the field holds
//   "WHAT: TEXT is out of range (allowed: ALLOWED)"  it is, but outside the field's range
// KIND is "an integer", "a number", "a byte size", "a duration", ...; ALLOWED names the field's range
// (and units) in the field's own terms. The text is quoted as typed when it is not a value, and
// trimmed when it is one out of range.
#pragma once

#include <string>
#include <string_view>

namespace warpscope {

inline std::string trimmedInput(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos)
        return {};
    const auto last = text.find_last_not_of(" \t");
    return std::string(text.substr(first, last - first + 1));
}

// "WHAT: 'TEXT' is not KIND (allowed: ALLOWED)".
inline std::string notAValueMessage(std::string_view what, std::string_view typed, std::string_view kind,
                                    std::string_view allowed)
{
    return std::string(what) + ": '" + std::string(typed) + "' is not " + std::string(kind) + " (allowed: " +
           std::string(allowed) + ")";
}

// "WHAT: TEXT is out of range (allowed: ALLOWED)".
inline std::string outOfRangeMessage(std::string_view what, std::string_view typed, std::string_view allowed)
{
    return std::string(what) + ": " + trimmedInput(typed) + " is out of range (allowed: " + std::string(allowed) + ")";
}

} // namespace warpscope
