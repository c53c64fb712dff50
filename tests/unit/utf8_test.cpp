// util/utf8.h against hand-worked byte sequences (RFC 3629, table 3-7 of the Unicode standard).
#include "util/utf8.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

using namespace warpscope;

TEST(Utf8, FirstInvalidByteIsFoundWhereItStarts)
{
    constexpr auto npos = std::string_view::npos;
    EXPECT_EQ(firstInvalidUtf8(""), npos);
    EXPECT_EQ(firstInvalidUtf8("plain ASCII"), npos);
    EXPECT_EQ(firstInvalidUtf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"), npos); // é, €, U+1F600
    EXPECT_EQ(firstInvalidUtf8("Ren\xE9"), 3u);           // Latin-1 é
    EXPECT_EQ(firstInvalidUtf8("ab\xC0\xAF"), 2u);         // overlong '/'
    EXPECT_EQ(firstInvalidUtf8("\xE0\x80\xAF"), 0u);       // overlong three-byte form
    EXPECT_EQ(firstInvalidUtf8("x\xED\xA0\x80"), 1u);      // the surrogate U+D800
    EXPECT_EQ(firstInvalidUtf8("\xF4\x90\x80\x80"), 0u);   // past U+10FFFF
    EXPECT_EQ(firstInvalidUtf8("ok\xE2\x82"), 2u);         // a character cut short at the end
    EXPECT_EQ(firstInvalidUtf8("\x80"), 0u);               // a lone continuation byte
}

TEST(Utf8, PrefixEndsBeforeACharacterNotInsideIt)
{
    const std::string text = "ab\xC3\xA9\xE2\x82\xAC"; // a b é €: bytes 0, 1, 2-3, 4-6
    EXPECT_EQ(utf8PrefixLength(text, 2), 2u);
    EXPECT_EQ(utf8PrefixLength(text, 3), 2u); // inside é
    EXPECT_EQ(utf8PrefixLength(text, 4), 4u);
    EXPECT_EQ(utf8PrefixLength(text, 5), 4u); // inside €
    EXPECT_EQ(utf8PrefixLength(text, 6), 4u);
    EXPECT_EQ(utf8PrefixLength(text, 7), 7u);
    EXPECT_EQ(utf8PrefixLength(text, 50), 7u);
}
