// Practice quizzes that the engine grades. A Question is a recipe: from a seed it draws its
// parameters and asks the engine (occupancy calculator, memory analysis, number formats, quantizer,
// training models) for the answer, so the expected value is computed when the question is asked,
// never typed in. The same id and seed always give the same item, on every machine.
//
// Kinds: multiple choice (answered by letter, number or the choice's text), numeric, and
// predict-then-reveal (numeric; the item's figure link sets up the figure that shows the answer).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::study {

enum class QuestionKind { Choice, Numeric, Predict };
std::string_view questionKindKey(QuestionKind kind); // "choice", "numeric", "predict"

struct Topic {
    std::string_view key;    // "occupancy"
    std::string_view title;  // "Occupancy"
    std::string_view lesson; // the id of the lesson that teaches it
};

const std::vector<Topic>& topics();
const Topic* findTopic(std::string_view key);
std::string topicKeys(); // "hierarchy, occupancy, ..." for messages

// One asked instance of a question.
struct QuizItem {
    std::string id;
    std::string topic;
    QuestionKind kind = QuestionKind::Numeric;
    std::uint64_t seed = 1;
    std::string prompt;
    std::vector<std::string> choices; // Choice: the options, in the order shown (a, b, c, ...)
    int correctChoice = -1;           // Choice: index into choices
    double expected = 0;              // Numeric, Predict
    double tolerance = 0;             // accepted: |answer - expected| <= tolerance
    std::string unit;                 // "%", "bytes", "sectors", "" ...; "mask" accepts hex
    std::string expectedText;         // the answer as shown after answering
    std::string explanation;          // why, with the arithmetic
    std::string lessonLink;           // "warpscope:lesson?id=..." or ""
    std::string figureLink;           // a link that sets up a figure showing the answer, or ""
    std::string source;               // what computed the answer, or the citation
};

// Deterministic generator for a question's parameters (splitmix64: the same numbers everywhere).
class QuizRng {
public:
    explicit QuizRng(std::uint64_t seed) : m_state(seed) {}
    std::uint64_t next();
    int uniform(int low, int high); // inclusive
    template <class T> const T& pick(const std::vector<T>& values) { return values[static_cast<std::size_t>(uniform(0, static_cast<int>(values.size()) - 1))]; }

private:
    std::uint64_t m_state;
};

using QuestionMaker = QuizItem (*)(QuizRng& rng);

struct Question {
    std::string_view id;
    std::string_view topic;
    QuestionKind kind = QuestionKind::Numeric;
    std::string_view title;  // one line, for lists
    bool randomized = false; // draws its parameters from the seed
    QuestionMaker make = nullptr;
};

const std::vector<Question>& questionBank();
const Question* findQuestion(std::string_view id);

// The item for `id` with `seed`. Throws InputError for an unknown id (naming a few close ids).
QuizItem askQuestion(std::string_view id, std::uint64_t seed);

struct AnswerResult {
    bool correct = false;
    std::string given;       // the answer as understood ("b", "75 %")
    std::string expected;    // QuizItem::expectedText (with the choice letter for Choice)
    std::string explanation;
};

// Grades an answer. Throws InputError, naming what is allowed, when the answer is not an answer
// (not a number, a letter beyond the choices, a unit the question does not use).
AnswerResult checkAnswer(const QuizItem& item, std::string_view answer);

// A number as a learner types it: 1024, 1,024, 3e-8, 0x7F7F (unit "mask" or any integer), 75% (unit
// "%"), 2/3, and for unit "bytes" the suffixes K, M, G (powers of 1024, as the links use). Throws
// InputError.
double parseNumericAnswer(std::string_view text, std::string_view unit);

// "0.0999756", "1,024", "66.9e12": a number as a quiz shows it, with `significant` digits.
std::string formatNumber(double value, int significant = 6);

} // namespace warpscope::study
