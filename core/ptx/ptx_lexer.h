// The PTX tokenizer and literal parsing, for the parser.
#pragma once

#include "ptx/ptx_ir.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace warpscope::ptx {

struct Token {
    enum class Kind { Word, Number, String, Punct, End };
    Kind kind = Kind::End;
    std::string_view text;
    int line = 0;
};

// Words (identifiers, directives, opcodes such as ld.global.f32, registers), numbers, strings and
// punctuation, with their lines; comments dropped. Throws PtxError on a stray character.
std::vector<Token> tokenize(std::string_view text);

// Integer literal: decimal, 0x hex, 0b binary, leading-0 octal, optional U suffix.
std::optional<std::uint64_t> parseIntegerLiteral(std::string_view text);

// Floating literal as the bits of `type`: 0fXXXXXXXX (f32 bits), 0dXXXXXXXXXXXXXXXX (f64 bits), or decimal.
std::optional<std::uint64_t> parseFloatLiteral(std::string_view text, Type type);

// %tid.x ... as a SpecialReg.
std::optional<SpecialReg> specialFromName(std::string_view name);

} // namespace warpscope::ptx
