// UTF-8 checks for text that must stay valid: what goes into a session (JSON, whose writer refuses
// anything else) and messages that quote part of a user's file.
#pragma once

#include <cstddef>
#include <string_view>

namespace warpscope {

// The offset of the first byte that does not begin or continue a valid UTF-8 character (the rules
// of RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF), or npos when all is valid.
std::size_t firstInvalidUtf8(std::string_view text);

// How many of `text`'s bytes to keep for at most `limit` bytes without cutting a character: `limit`,
// moved back to the start of the character it falls in (all of `text` when it is shorter).
std::size_t utf8PrefixLength(std::string_view text, std::size_t limit);

} // namespace warpscope
