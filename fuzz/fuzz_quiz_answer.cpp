// libFuzzer target: grading a learner's typed answer (core/study/quiz: checkAnswer, parseNumericAnswer).
// The input's first line picks the question ("ID" or "ID#SEED"; an unknown id picks one by its bytes)
// and the rest is the answer as typed. An answer is graded or refused with an InputError that says
// what is allowed; nothing else may be thrown.
#include "study/quiz.h"
#include "util/input_error.h"

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>

using namespace warpscope;

namespace {

// Asking is deterministic and some questions run the engine: ask each (question, seed) once.
const study::QuizItem& item(std::string_view firstLine)
{
    static std::map<std::pair<std::string, std::uint64_t>, study::QuizItem> asked;
    const std::size_t hash = firstLine.find('#');
    std::string_view id = firstLine.substr(0, hash);
    std::uint64_t seed = 1;
    if (hash != std::string_view::npos) {
        const std::string_view digits = firstLine.substr(hash + 1);
        std::from_chars(digits.data(), digits.data() + digits.size(), seed);
        seed %= 8; // a few seeds per question keep the cache small
    }
    const auto& bank = study::questionBank();
    if (!study::findQuestion(id)) {
        std::size_t sum = 0;
        for (char c : id)
            sum += static_cast<unsigned char>(c);
        id = bank[sum % bank.size()].id;
    }
    const auto key = std::make_pair(std::string(id), seed);
    auto found = asked.find(key);
    if (found == asked.end())
        found = asked.emplace(key, study::askQuestion(id, seed)).first;
    return found->second;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const std::size_t newline = std::min(text.find('\n'), text.size());
    const std::string_view answer = newline < text.size() ? text.substr(newline + 1) : std::string_view();
    const study::QuizItem& asked = item(text.substr(0, newline));
    try {
        const study::AnswerResult result = study::checkAnswer(asked, answer);
        if (result.given.empty())
            __builtin_trap(); // a graded answer always says how it was understood
    } catch (const InputError&) {
    }
    for (std::string_view unit : {"", "%", "bytes", "mask"}) {
        try {
            (void)study::parseNumericAnswer(answer, unit);
        } catch (const InputError&) {
        }
    }
    return 0;
}
