#include "study/progress.h"

#include "util/input_error.h"

#include <cstddef>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <tuple>

namespace warpscope::study {

using nlohmann::json;

bool Progress::hasRead(std::string_view lesson) const
{
    return std::any_of(lessons.begin(), lessons.end(), [&](const LessonVisit& visit) { return visit.lesson == lesson; });
}

void Progress::markRead(std::string_view lesson, std::int64_t at)
{
    if (!hasRead(lesson))
        lessons.push_back({std::string(lesson), at});
}

std::string writeProgress(const Progress& progress)
{
    json root;
    root["format"] = kProgressFormat;
    root["version"] = kProgressVersion;
    json lessons = json::array();
    for (const LessonVisit& visit : progress.lessons)
        lessons.push_back({{"lesson", visit.lesson}, {"at", visit.at}});
    root["lessons"] = lessons;
    json answers = json::array();
    for (const QuizAnswer& answer : progress.answers)
        answers.push_back({{"question", answer.question}, {"topic", answer.topic}, {"seed", answer.seed}, {"correct", answer.correct},
                           {"at", answer.at}});
    root["answers"] = answers;
    json cards = json::object();
    for (const auto& [id, s] : progress.cards)
        cards[id] = {{"repetitions", s.repetitions}, {"easiness", s.easiness}, {"interval_days", s.intervalDays}, {"due_day", s.dueDay},
                     {"lapses", s.lapses}, {"reviews", s.reviews}};
    root["cards"] = cards;
    return root.dump(1) + "\n";
}

namespace {

class Reader {
public:
    explicit Reader(std::string_view origin) : m_origin(origin) {}

    [[noreturn]] void fail(const std::string& where, const std::string& what) const
    {
        throw InputError(m_origin + ": " + where + ": " + what);
    }

    const json& field(const json& object, const char* key, const std::string& where) const
    {
        if (!object.is_object() || !object.contains(key))
            fail(where, std::string("missing \"") + key + "\"");
        return object.at(key);
    }

    std::string text(const json& object, const char* key, const std::string& where) const
    {
        const json& value = field(object, key, where);
        if (!value.is_string() || value.get<std::string>().empty() || value.get<std::string>().size() > 200)
            fail(where, std::string("\"") + key + "\" must be a non-empty string of at most 200 characters");
        return value.get<std::string>();
    }

    std::int64_t integer(const json& object, const char* key, const std::string& where, std::int64_t low, std::int64_t high) const
    {
        const json& value = field(object, key, where);
        if (!value.is_number_integer())
            fail(where, std::string("\"") + key + "\" must be an integer");
        const std::int64_t number = value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)
                                        ? INT64_MAX
                                        : value.get<std::int64_t>();
        if (number < low || number > high)
            fail(where, std::string("\"") + key + "\" = " + std::to_string(number) + " is out of range (allowed: " + std::to_string(low) + ".." +
                            std::to_string(high) + ")");
        return number;
    }

private:
    std::string m_origin;
};

constexpr std::int64_t kLatestTime = 32503680000; // year 3000
constexpr std::int64_t kLatestDay = kLatestTime / 86400;

} // namespace

Progress readProgress(std::string_view text, std::string_view origin)
{
    const Reader reader(origin);
    json root;
    try {
        root = json::parse(text);
    } catch (const json::parse_error& error) {
        reader.fail("byte " + std::to_string(error.byte), "not valid JSON");
    }
    if (!root.is_object())
        reader.fail("top level", "not a warpscope progress file (expected a JSON object)");
    if (!root.contains("format") || root["format"] != kProgressFormat)
        reader.fail("\"format\"", "not a warpscope progress file (expected \"format\": \"" + std::string(kProgressFormat) + "\")");
    const std::int64_t version = reader.integer(root, "version", "\"version\"", 1, INT32_MAX);
    if (version > kProgressVersion)
        reader.fail("\"version\"", "version " + std::to_string(version) + " is newer than this Warpscope reads (" + std::to_string(kProgressVersion) +
                                       "); update Warpscope");
    Progress progress;
    const json& lessons = reader.field(root, "lessons", "top level");
    if (!lessons.is_array())
        reader.fail("\"lessons\"", "must be an array");
    for (std::size_t i = 0; i < lessons.size(); ++i) {
        const std::string where = "lessons[" + std::to_string(i) + "]";
        progress.markRead(reader.text(lessons[i], "lesson", where), reader.integer(lessons[i], "at", where, 0, kLatestTime));
    }
    const json& answers = reader.field(root, "answers", "top level");
    if (!answers.is_array())
        reader.fail("\"answers\"", "must be an array");
    for (std::size_t i = 0; i < answers.size(); ++i) {
        const std::string where = "answers[" + std::to_string(i) + "]";
        const json& a = answers[i];
        QuizAnswer answer;
        answer.question = reader.text(a, "question", where);
        answer.topic = reader.text(a, "topic", where);
        answer.seed = static_cast<std::uint64_t>(reader.integer(a, "seed", where, 0, INT64_MAX));
        const json& correct = reader.field(a, "correct", where);
        if (!correct.is_boolean())
            reader.fail(where, "\"correct\" must be true or false");
        answer.correct = correct.get<bool>();
        answer.at = reader.integer(a, "at", where, 0, kLatestTime);
        progress.answers.push_back(answer);
    }
    const json& cards = reader.field(root, "cards", "top level");
    if (!cards.is_object())
        reader.fail("\"cards\"", "must be an object keyed by card id");
    for (const auto& [id, c] : cards.items()) {
        const std::string where = "cards[\"" + id + "\"]";
        CardSchedule s;
        s.repetitions = static_cast<int>(reader.integer(c, "repetitions", where, 0, 100000));
        const json& easiness = reader.field(c, "easiness", where);
        if (!easiness.is_number() || easiness.get<double>() < 1.3 || easiness.get<double>() > 10)
            reader.fail(where, "\"easiness\" must be a number from 1.3 to 10");
        s.easiness = easiness.get<double>();
        s.intervalDays = static_cast<int>(reader.integer(c, "interval_days", where, 0, 1000000));
        s.dueDay = reader.integer(c, "due_day", where, 0, kLatestDay);
        s.lapses = static_cast<int>(reader.integer(c, "lapses", where, 0, 100000));
        s.reviews = static_cast<int>(reader.integer(c, "reviews", where, 0, 100000));
        progress.cards[id] = s;
    }
    return progress;
}

Progress mergeProgress(const Progress& base, const Progress& incoming)
{
    Progress merged = base;
    for (const LessonVisit& visit : incoming.lessons) {
        auto it = std::find_if(merged.lessons.begin(), merged.lessons.end(), [&](const LessonVisit& v) { return v.lesson == visit.lesson; });
        if (it == merged.lessons.end())
            merged.lessons.push_back(visit);
        else
            it->at = std::min(it->at, visit.at);
    }
    using Key = std::tuple<std::string, std::uint64_t, std::int64_t, bool>;
    std::set<Key> seen;
    for (const QuizAnswer& a : merged.answers)
        seen.insert({a.question, a.seed, a.at, a.correct});
    for (const QuizAnswer& a : incoming.answers)
        if (seen.insert({a.question, a.seed, a.at, a.correct}).second)
            merged.answers.push_back(a);
    std::stable_sort(merged.answers.begin(), merged.answers.end(), [](const QuizAnswer& x, const QuizAnswer& y) { return x.at < y.at; });
    for (const auto& [id, schedule] : incoming.cards) {
        auto it = merged.cards.find(id);
        if (it == merged.cards.end() || schedule.reviews > it->second.reviews)
            merged.cards[id] = schedule;
    }
    return merged;
}

} // namespace warpscope::study
