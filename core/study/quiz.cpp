#include "study/quiz.h"

#include "study/quiz_bank.h"
#include "util/input_error.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <iomanip>
#include <sstream>
#include <system_error>
#include <utility>

namespace warpscope::study {

std::string_view questionKindKey(QuestionKind kind)
{
    switch (kind) {
    case QuestionKind::Choice: return "choice";
    case QuestionKind::Numeric: return "numeric";
    case QuestionKind::Predict: return "predict";
    }
    return "?";
}

const std::vector<Topic>& topics()
{
    // Every topic names the lesson that teaches it; the app's tests check every name.
    static const std::vector<Topic> list = {
        {"hierarchy", "Threads, warps, blocks and grids", "hierarchy"},
        {"occupancy", "Occupancy", "occupancy"},
        {"waves", "Waves and the tail effect", "occupancy"},
        {"divergence", "Divergence and the SIMT model", "divergence"},
        {"coalescing", "Global memory and coalescing", "memory"},
        {"shared-memory", "Shared memory and bank conflicts", "shared-memory"},
        {"reduction", "The reduction ladder", "reduction"},
        {"latency", "Latency hiding and Little's law", "latency"},
        {"roofline", "The roofline", "roofline"},
        {"tensor-cores", "Tensor Cores", "tensor-cores"},
        {"streams", "Streams and concurrency", "streams"},
        {"formats", "Number formats", "precision"},
        {"mixed-precision", "Mixed precision and loss scaling", "precision"},
        {"quantization", "Quantization", "quantization"},
        {"sparsity", "2:4 sparsity", "quantization"},
        {"training-memory", "Training memory", "training-memory"},
        {"multi-gpu", "Multi-GPU training", "multi-gpu"},
        {"inference", "Inference optimisation", "inference"},
        {"serving", "Serving: the KV cache and batching", "serving"},
        {"fusion", "Kernel fusion and FlashAttention", "flash-attention"},
        {"microscaling", "Block-scaled formats: MX and NVFP4", "microscaling"},
        {"cuda-graphs", "CUDA graphs and launch overhead", "streams"},
        {"fsdp", "FSDP and ZeRO", "multi-gpu"},
        {"blackwell", "Blackwell: the B200 and RTX 5090", "tensor-cores"},
    };
    return list;
}

const Topic* findTopic(std::string_view key)
{
    for (const Topic& topic : topics())
        if (topic.key == key)
            return &topic;
    return nullptr;
}

std::string topicKeys()
{
    std::string keys;
    for (const Topic& topic : topics()) {
        if (!keys.empty())
            keys += ", ";
        keys += topic.key;
    }
    return keys;
}

std::uint64_t QuizRng::next()
{
    std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int QuizRng::uniform(int low, int high)
{
    const auto span = static_cast<std::uint64_t>(static_cast<std::int64_t>(high) - low + 1);
    return low + static_cast<int>(next() % span);
}

const std::vector<Question>& questionBank()
{
    static const std::vector<Question> bank = [] {
        std::vector<Question> questions;
        bank::addExecutionQuestions(questions);
        bank::addMemoryQuestions(questions);
        bank::addNumericsQuestions(questions);
        bank::addTrainingQuestions(questions);
        bank::addSecondCurriculumQuestions(questions);
        return questions;
    }();
    return bank;
}

const Question* findQuestion(std::string_view id)
{
    for (const Question& question : questionBank())
        if (question.id == id)
            return &question;
    return nullptr;
}

QuizItem askQuestion(std::string_view id, std::uint64_t seed)
{
    const Question* question = findQuestion(id);
    if (!question) {
        std::string near;
        const std::string_view stem = id.substr(0, id.find('.'));
        for (const Question& candidate : questionBank())
            if (candidate.id.starts_with(stem) && near.size() < 200)
                near += (near.empty() ? "" : ", ") + std::string(candidate.id);
        throw InputError("unknown question '" + std::string(id) + "' (" +
                         (near.empty() ? std::string("'warpscope study quiz --list' lists them") : "similar: " + near) + ")");
    }
    QuizRng rng(seed);
    QuizItem item = question->make(rng);
    item.id = std::string(question->id);
    item.topic = std::string(question->topic);
    item.kind = question->kind;
    item.seed = seed;
    if (item.lessonLink.empty()) {
        const Topic* topic = findTopic(question->topic);
        if (topic && !topic->lesson.empty())
            item.lessonLink = "warpscope:lesson?id=" + std::string(topic->lesson);
    }
    return item;
}

namespace {

std::string trimmed(std::string_view text)
{
    std::size_t begin = 0, end = text.size();
    while (begin < end && std::isspace(static_cast<unsigned char>(text[begin])))
        ++begin;
    while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1])))
        --end;
    return std::string(text.substr(begin, end - begin));
}

std::string lowered(std::string text)
{
    for (char& c : text)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

// A plain decimal or hexadecimal number, with optional thousands separators in the integer part.
bool parsePlain(std::string text, double& value)
{
    if (text.empty())
        return false;
    const bool negative = text.front() == '-';
    std::string body = negative || text.front() == '+' ? text.substr(1) : text;
    if (body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X')) {
        std::uint64_t bits = 0;
        const char* first = body.data() + 2;
        const char* last = body.data() + body.size();
        const auto [ptr, ec] = std::from_chars(first, last, bits, 16);
        if (ec != std::errc() || ptr != last)
            return false;
        value = negative ? -static_cast<double>(bits) : static_cast<double>(bits);
        return true;
    }
    // "1,024" and "2,147,483,647": commas only between groups of three digits before any point.
    if (body.find(',') != std::string::npos) {
        const std::size_t point = std::min(body.find_first_of(".eE"), body.size());
        const std::string integer = body.substr(0, point);
        std::size_t group = integer.size();
        for (std::size_t i = integer.size(); i-- > 0;)
            if (integer[i] == ',') {
                if (group - i - 1 != 3 || i == 0)
                    return false;
                group = i;
            }
        body.erase(std::remove(body.begin(), body.begin() + static_cast<std::ptrdiff_t>(point), ','),
                   body.begin() + static_cast<std::ptrdiff_t>(point));
    }
    const char* first = body.data();
    const char* last = body.data() + body.size();
    double parsed = 0;
    const auto [ptr, ec] = std::from_chars(first, last, parsed);
    if (ec != std::errc() || ptr != last || !std::isfinite(parsed))
        return false;
    value = negative ? -parsed : parsed;
    return true;
}

// The letters after a typed number ("warps" in "21 warps", "GB" in "1.5GB", "FLOP/byte"), or "" when
// the answer ends in a digit. Hexadecimal answers (0x7F) have none.
std::string trailingUnit(const std::string& answer)
{
    const std::string lower = lowered(answer);
    if (lower.starts_with("0x") || lower.starts_with("-0x") || lower.starts_with("+0x"))
        return "";
    std::size_t end = answer.size();
    while (end > 0 && !std::isdigit(static_cast<unsigned char>(answer[end - 1])) && answer[end - 1] != '.')
        --end;
    return end == 0 ? "" : trimmed(std::string_view(answer).substr(end));
}

// "warps" and "warp", "GB" and "gb"; "us" also as "µs"; "bytes" also as "B" and "byte".
bool sameUnit(const std::string& typed, std::string_view unit)
{
    const std::string t = lowered(typed), u = lowered(std::string(unit));
    if (u.empty())
        return false;
    if (t == u || (u.size() > 1 && u.back() == 's' && t == u.substr(0, u.size() - 1)))
        return true;
    return (u == "us" && t == "\xc2\xb5s") || (u == "bytes" && t == "b");
}

} // namespace

double parseNumericAnswer(std::string_view text, std::string_view unit)
{
    std::string answer = trimmed(text);
    const std::string original = answer;
    auto fail = [&](const std::string& why) -> double {
        throw InputError("answer '" + original + "' " + why);
    };
    if (answer.empty())
        return fail("is empty (allowed: a number such as 1024, 0.75, 3e-8" +
                    std::string(unit == "%" ? ", 75%" : unit == "bytes" ? ", 32K" : "") + ")");
    // A unit typed after the number ("21 warps", "1.5 GB"): the question's own unit (or its singular)
    // is dropped; any other word is refused with the accepted form.
    if (const std::string unitTyped = trailingUnit(answer); !unitTyped.empty() && unitTyped != "%" && unit != "mask") {
        const std::string suffix = lowered(unitTyped);
        const bool byteSuffix = unit == "bytes" && (suffix == "k" || suffix == "m" || suffix == "g" || suffix == "kib" ||
                                                    suffix == "mib" || suffix == "gib");
        if (!byteSuffix) {
            const std::string number = trimmed(std::string_view(answer).substr(0, answer.size() - unitTyped.size()));
            if (!sameUnit(unitTyped, unit)) {
                const std::string accepted = unit.empty() ? "a plain number such as " + number
                                                          : std::string(unit) + " (type " + number + " or " + number + " " + std::string(unit) + ")";
                return fail("is in '" + unitTyped + "', but this question asks for " + accepted);
            }
            answer = number;
        }
    }
    double multiplier = 1;
    if (answer.back() == '%') {
        if (unit != "%")
            return fail("has a % sign, but this question asks for " + (unit.empty() ? std::string("a plain number") : std::string(unit)));
        answer = trimmed(answer.substr(0, answer.size() - 1));
    } else if (unit == "bytes" && !answer.empty()) {
        std::string lower = lowered(answer);
        for (const auto& [suffix, factor] : {std::pair<std::string_view, double>{"kib", 1024.0}, {"mib", 1048576.0},
                                             {"gib", 1073741824.0}, {"k", 1024.0}, {"m", 1048576.0}, {"g", 1073741824.0}}) {
            if (lower.size() > suffix.size() && lower.ends_with(suffix) && !lower.starts_with("0x")) {
                multiplier = factor;
                answer = trimmed(answer.substr(0, answer.size() - suffix.size()));
                break;
            }
        }
    }
    double value = 0;
    if (const std::size_t slash = answer.find('/'); slash != std::string::npos) {
        double numerator = 0, denominator = 0;
        if (!parsePlain(trimmed(answer.substr(0, slash)), numerator) ||
            !parsePlain(trimmed(answer.substr(slash + 1)), denominator) || denominator == 0)
            return fail("is not a number (allowed: 1024, 1,024, 0.75, 3e-8, 0x7F, a fraction such as 3/10)");
        value = numerator / denominator;
    } else if (!parsePlain(answer, value)) {
        return fail("is not a number (allowed: 1024, 1,024, 0.75, 3e-8, 0x7F, a fraction such as 3/10" +
                    std::string(unit == "%" ? ", 75%" : unit == "bytes" ? ", 32K" : "") + ")");
    }
    return value * multiplier;
}

std::string formatNumber(double value, int significant)
{
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    const double magnitude = std::fabs(value);
    if (value == std::nearbyint(value) && magnitude < 1e15) {
        std::string digits = std::to_string(static_cast<long long>(std::fabs(value)));
        for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
            digits.insert(static_cast<std::size_t>(i), ",");
        return (value < 0 ? "-" : "") + digits;
    }
    std::ostringstream out;
    out << std::setprecision(significant) << value;
    return out.str();
}

AnswerResult checkAnswer(const QuizItem& item, std::string_view answer)
{
    AnswerResult result;
    result.explanation = item.explanation;
    if (item.kind == QuestionKind::Choice) {
        const int count = static_cast<int>(item.choices.size());
        const std::string text = trimmed(answer);
        const char lastLetter = static_cast<char>('a' + count - 1);
        const std::string allowed = std::string("a letter a..") + lastLetter + ", a number 1.." + std::to_string(count) +
                                    ", or a choice's text";
        // The choice's own text wins (choices may be numbers, such as "1024"), then a letter, then a position.
        int chosen = -1;
        for (int i = 0; i < count; ++i)
            if (lowered(item.choices[static_cast<std::size_t>(i)]) == lowered(text))
                chosen = i;
        const bool digits = !text.empty() && text.size() <= 3 &&
                            std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
        if (chosen < 0) {
            if (text.size() == 1 && std::isalpha(static_cast<unsigned char>(text[0])))
                chosen = std::tolower(static_cast<unsigned char>(text[0])) - 'a';
            else if (digits)
                chosen = std::stoi(text) - 1;
            else
                throw InputError("answer '" + text + "' is not one of the choices (allowed: " + allowed + ")");
        }
        if (chosen < 0 || chosen >= count)
            throw InputError("answer '" + text + "' is not one of the choices (allowed: " + allowed + ")");
        result.given = std::string(1, static_cast<char>('a' + chosen));
        result.correct = chosen == item.correctChoice;
        result.expected = std::string(1, static_cast<char>('a' + item.correctChoice)) + ") " +
                          item.choices[static_cast<std::size_t>(item.correctChoice)];
        return result;
    }
    const double value = parseNumericAnswer(answer, item.unit);
    result.given = formatNumber(value, 10) + (item.unit.empty() || item.unit == "mask" ? "" : " " + item.unit);
    result.expected = item.expectedText;
    // The tolerance is absolute; a little slack, relative to the value, for the decimal the learner
    // typed. (An absolute 1e-12 once let 0 pass for BF16's 9.984e-31.)
    const double slack = 1e-12 * std::fabs(item.expected);
    result.correct = std::fabs(value - item.expected) <= item.tolerance + slack;
    return result;
}

namespace bank {

void setChoices(QuizItem& item, QuizRng& rng, const std::string& correct, const std::vector<std::string>& wrong)
{
    std::vector<std::string> all = wrong;
    all.push_back(correct);
    // Fisher-Yates with the question's generator: the correct letter moves with the seed.
    for (std::size_t i = all.size() - 1; i > 0; --i)
        std::swap(all[i], all[static_cast<std::size_t>(rng.uniform(0, static_cast<int>(i)))]);
    item.choices = all;
    item.correctChoice = static_cast<int>(std::find(all.begin(), all.end(), correct) - all.begin());
    item.expectedText = correct;
}

void setNumber(QuizItem& item, double expected, double tolerance, const std::string& unit)
{
    item.expected = expected;
    item.tolerance = tolerance;
    item.unit = unit;
    if (unit == "mask") {
        std::ostringstream hex;
        hex << "0x" << std::hex << std::setw(8) << std::setfill('0') << static_cast<std::uint64_t>(expected);
        item.expectedText = hex.str();
    } else {
        item.expectedText = formatNumber(expected) + (unit.empty() ? "" : (unit == "%" ? " %" : " " + unit));
    }
}

gpu::GpuPreset randomPreset(QuizRng& rng)
{
    const auto presets = gpu::allPresets();
    return presets[static_cast<std::size_t>(rng.uniform(0, static_cast<int>(presets.size()) - 1))];
}

std::string presetLabel(const gpu::GpuPreset& preset) { return std::string(preset.name) + " (" + std::string(preset.arch) + ")"; }

std::string linkNumber(double value)
{
    char text[64];
    const auto [end, ec] = std::to_chars(text, text + sizeof text, value);
    return ec == std::errc() ? std::string(text, end) : std::string("0");
}

std::string percent(double share, int significant)
{
    return formatNumber(share * 100, significant) + " %";
}

} // namespace bank

} // namespace warpscope::study
