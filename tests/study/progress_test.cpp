// The progress file: round trips, refuses damage with a message that says where, merges imports.
#include "study/progress.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

#include <string>

using namespace warpscope;
using namespace warpscope::study;

namespace {

Progress sample()
{
    Progress p;
    p.markRead("hierarchy", 1790000000);
    p.markRead("occupancy", 1790000100);
    p.markRead("hierarchy", 1790000200); // a second visit keeps the first
    p.answers.push_back({"occupancy.percent", "occupancy", 3, true, 1790000300});
    p.answers.push_back({"shared-memory.stride", "shared-memory", 9, false, 1790000400});
    CardSchedule s;
    s = review(s, Grade::Good, 20700).next;
    p.cards["latency.shared"] = s;
    return p;
}

std::string messageOf(const std::string& text)
{
    try {
        readProgress(text, "progress.json");
    } catch (const InputError& error) {
        return error.what();
    }
    return "";
}

} // namespace

TEST(Progress, RoundTripsExactly)
{
    const Progress p = sample();
    EXPECT_EQ(p.lessons.size(), 2u);
    EXPECT_EQ(p.lessons[0].at, 1790000000);
    const std::string text = writeProgress(p);
    EXPECT_EQ(readProgress(text, "x"), p);
    EXPECT_EQ(writeProgress(readProgress(text, "x")), text);
}

TEST(Progress, RefusesDamageNamingTheFileAndThePlace)
{
    EXPECT_NE(messageOf("{not json").find("progress.json: byte"), std::string::npos);
    EXPECT_NE(messageOf("[]").find("not a warpscope progress file"), std::string::npos);
    EXPECT_NE(messageOf(R"({"format":"warpscope-session","version":1})").find("not a warpscope progress file"), std::string::npos);
    EXPECT_NE(messageOf(R"({"format":"warpscope-progress","version":2,"lessons":[],"answers":[],"cards":{}})").find("newer"), std::string::npos);
    EXPECT_NE(messageOf(R"({"format":"warpscope-progress","version":1,"lessons":[],"answers":[{"question":"a.b","topic":"a","seed":1,"correct":"yes","at":0}],"cards":{}})")
                  .find("answers[0]: \"correct\" must be true or false"),
              std::string::npos);
    EXPECT_NE(messageOf(R"({"format":"warpscope-progress","version":1,"lessons":[],"answers":[],"cards":{"x":{"repetitions":-1,"easiness":2.5,"interval_days":1,"due_day":1,"lapses":0,"reviews":1}}})")
                  .find("cards[\"x\"]: \"repetitions\" = -1 is out of range"),
              std::string::npos);
    EXPECT_NE(messageOf(R"({"format":"warpscope-progress","version":1,"lessons":[{"at":5}],"answers":[],"cards":{}})").find("lessons[0]: missing \"lesson\""),
              std::string::npos);
    EXPECT_NE(messageOf(R"({"format":"warpscope-progress","version":1,"lessons":[],"answers":[],"cards":{"x":{"repetitions":1,"easiness":0.5,"interval_days":1,"due_day":1,"lapses":0,"reviews":1}}})")
                  .find("easiness"),
              std::string::npos);
    const std::string whole = writeProgress(sample());
    EXPECT_FALSE(messageOf(whole.substr(0, whole.size() / 2)).empty()) << "a truncated file must be refused";
}

TEST(Progress, MergeUnitesAnswersAndKeepsTheCardWithMoreReviews)
{
    const Progress base = sample();
    Progress incoming;
    incoming.markRead("occupancy", 1780000000); // earlier first visit
    incoming.markRead("memory", 1790000500);
    incoming.answers.push_back(base.answers[0]); // a duplicate
    incoming.answers.push_back({"formats.max-finite", "formats", 2, true, 1790000350});
    CardSchedule more = base.cards.at("latency.shared");
    more = review(more, Grade::Good, 20701).next;
    incoming.cards["latency.shared"] = more;
    CardSchedule fewer;
    incoming.cards["format.fp16.max"] = fewer;

    const Progress merged = mergeProgress(base, incoming);
    ASSERT_EQ(merged.lessons.size(), 3u);
    EXPECT_EQ(merged.lessons[1].at, 1780000000);
    ASSERT_EQ(merged.answers.size(), 3u);
    EXPECT_EQ(merged.answers[1].question, "formats.max-finite"); // ordered by time
    EXPECT_EQ(merged.cards.at("latency.shared").reviews, 2);
    EXPECT_EQ(merged.cards.count("format.fp16.max"), 1u);
    EXPECT_EQ(mergeProgress(merged, merged), merged);
}

TEST(Progress, DayNumbers)
{
    EXPECT_EQ(dayOf(0), 0);
    EXPECT_EQ(dayOf(86399), 0);
    EXPECT_EQ(dayOf(86400), 1);
    EXPECT_EQ(dayOf(1795392000), 20780); // 2026-11-23 00:00 UTC
}
