#include "ptx/ptx_lexer.h"

#include "ptx/ptx_error.h"

#include <bit>
#include <cctype>
#include <charconv>
#include <cstddef>
#include <string>
#include <system_error>
#include <unordered_map>

namespace warpscope::ptx {

namespace {

bool isWordStart(char c)
{
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' || c == '.';
}
bool isWordChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' || c == ':';
}

} // namespace

std::vector<Token> tokenize(std::string_view text)
{
    std::vector<Token> tokens;
    int line = 1;
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (c == '\n') { ++line; ++i; continue; }
        if (std::isspace(static_cast<unsigned char>(c))) { ++i; continue; }
        if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
            while (i < text.size() && text[i] != '\n') ++i;
            continue;
        }
        if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
            const int startLine = line;
            i += 2;
            while (i + 1 < text.size() && !(text[i] == '*' && text[i + 1] == '/')) {
                if (text[i] == '\n') ++line;
                ++i;
            }
            if (i + 1 >= text.size())
                throw PtxError("unterminated /* comment", startLine);
            i += 2;
            continue;
        }
        const std::size_t start = i;
        if (c == '"') {
            ++i;
            while (i < text.size() && text[i] != '"' && text[i] != '\n') ++i;
            if (i >= text.size() || text[i] != '"')
                throw PtxError("unterminated string", line);
            ++i;
            tokens.push_back({Token::Kind::String, text.substr(start + 1, i - start - 2), line});
            continue;
        }
        if (std::isdigit(static_cast<unsigned char>(c))) {
            while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '.'))
                ++i;
            tokens.push_back({Token::Kind::Number, text.substr(start, i - start), line});
            continue;
        }
        if (isWordStart(c)) {
            ++i;
            while (i < text.size() && isWordChar(text[i])) {
                // "label:" ends a word; "::" stays inside ("shared::cta").
                if (text[i] == ':' && !(i + 1 < text.size() && text[i + 1] == ':') &&
                    !(i > 0 && text[i - 1] == ':'))
                    break;
                ++i;
            }
            tokens.push_back({Token::Kind::Word, text.substr(start, i - start), line});
            continue;
        }
        static constexpr std::string_view punctuation = ",;:[]{}()+-!|@<>=";
        if (punctuation.find(c) != std::string_view::npos) {
            tokens.push_back({Token::Kind::Punct, text.substr(i, 1), line});
            ++i;
            continue;
        }
        throw PtxError(std::string("unexpected character '") + c + "'", line);
    }
    tokens.push_back({Token::Kind::End, {}, line});
    return tokens;
}

std::optional<std::uint64_t> parseIntegerLiteral(std::string_view text)
{
    if (!text.empty() && (text.back() == 'U' || text.back() == 'u'))
        text.remove_suffix(1);
    int base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) { base = 16; text.remove_prefix(2); }
    else if (text.size() > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) { base = 2; text.remove_prefix(2); }
    else if (text.size() > 1 && text[0] == '0') { base = 8; text.remove_prefix(1); }
    std::uint64_t value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

std::optional<std::uint64_t> parseFloatLiteral(std::string_view text, Type type)
{
    auto hexBits = [](std::string_view digits) -> std::optional<std::uint64_t> {
        std::uint64_t value = 0;
        auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value, 16);
        if (error != std::errc() || end != digits.data() + digits.size())
            return std::nullopt;
        return value;
    };
    if (text.size() == 10 && (text.starts_with("0f") || text.starts_with("0F"))) {
        auto bits = hexBits(text.substr(2));
        if (!bits) return std::nullopt;
        if (type == Type::F64)
            return std::bit_cast<std::uint64_t>(static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(*bits))));
        return bits;
    }
    if (text.size() == 18 && (text.starts_with("0d") || text.starts_with("0D"))) {
        auto bits = hexBits(text.substr(2));
        if (!bits) return std::nullopt;
        if (type == Type::F32)
            return std::bit_cast<std::uint32_t>(static_cast<float>(std::bit_cast<double>(*bits)));
        return bits;
    }
    if (text.find('.') != std::string_view::npos || text.find('e') != std::string_view::npos) {
        double value = 0;
        auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (error != std::errc() || end != text.data() + text.size())
            return std::nullopt;
        if (type == Type::F32)
            return std::bit_cast<std::uint32_t>(static_cast<float>(value));
        return std::bit_cast<std::uint64_t>(value);
    }
    return std::nullopt;
}

std::optional<SpecialReg> specialFromName(std::string_view name)
{
    static const std::unordered_map<std::string_view, SpecialReg> specials = {
        {"%tid.x", SpecialReg::TidX},       {"%tid.y", SpecialReg::TidY},       {"%tid.z", SpecialReg::TidZ},
        {"%ntid.x", SpecialReg::NtidX},     {"%ntid.y", SpecialReg::NtidY},     {"%ntid.z", SpecialReg::NtidZ},
        {"%ctaid.x", SpecialReg::CtaidX},   {"%ctaid.y", SpecialReg::CtaidY},   {"%ctaid.z", SpecialReg::CtaidZ},
        {"%nctaid.x", SpecialReg::NctaidX}, {"%nctaid.y", SpecialReg::NctaidY}, {"%nctaid.z", SpecialReg::NctaidZ},
        {"%laneid", SpecialReg::LaneId},    {"%warpid", SpecialReg::WarpId},    {"%nwarpid", SpecialReg::NWarpId},
        {"%smid", SpecialReg::SmId},        {"%nsmid", SpecialReg::NSmId},      {"%gridid", SpecialReg::GridId},
        {"%lanemask_eq", SpecialReg::LanemaskEq}, {"%lanemask_lt", SpecialReg::LanemaskLt},
        {"%lanemask_le", SpecialReg::LanemaskLe}, {"%lanemask_gt", SpecialReg::LanemaskGt},
        {"%lanemask_ge", SpecialReg::LanemaskGe}, {"%clock", SpecialReg::Clock},
        {"%clock64", SpecialReg::Clock64},  {"%globaltimer", SpecialReg::GlobalTimer},
        {"%envreg1", SpecialReg::EnvReg1},  {"%envreg2", SpecialReg::EnvReg2},
    };
    auto found = specials.find(name);
    if (found == specials.end())
        return std::nullopt;
    return found->second;
}


} // namespace warpscope::ptx
