// The second curriculum's questions (issue 30, section 9) against answers worked by hand from their
// own prompts, and the bank's size: at least 140 questions over at least 22 topics, every topic of
// the new lessons and sections asked.
#include "study/quiz.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

using namespace warpscope;
using namespace warpscope::study;

namespace {

std::vector<double> numbersIn(const std::string& text, const std::string& pattern)
{
    std::smatch match;
    std::vector<double> numbers;
    if (std::regex_search(text, match, std::regex(pattern)))
        for (std::size_t i = 1; i < match.size(); ++i)
            numbers.push_back(std::stod(match[i]));
    return numbers;
}

} // namespace

TEST(SecondCurriculumQuiz, AtLeast140QuestionsOver22TopicsCoveringTheNewLessons)
{
    std::map<std::string, int> perTopic;
    for (const Question& question : questionBank())
        ++perTopic[std::string(question.topic)];
    EXPECT_GE(questionBank().size(), 140u);
    EXPECT_GE(topics().size(), 22u);
    for (const char* topic : {"serving", "fusion", "tensor-cores", "microscaling", "cuda-graphs", "fsdp", "blackwell"})
        EXPECT_GE(perTopic[topic], 4) << topic;
}

TEST(SecondCurriculumQuiz, HandWorkedAnswersReadFromThePrompts)
{
    std::set<double> amaxSeen;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        {
            // One by one the chain ends at 2.7 + n (6.4 + k), as a graph at F + n k + 0.58 (n - 1):
            // the graph is sooner once 5.82 n > F - 3.28.
            const QuizItem item = askQuestion("cuda-graphs.break-even", seed);
            const auto f = numbersIn(item.prompt, "starts (\\d+) us after cudaGraphLaunch");
            ASSERT_EQ(f.size(), 1u) << item.prompt;
            EXPECT_EQ(item.expected, std::floor((f[0] - 3.28) / 5.82) + 1) << item.prompt;
        }
        {
            // 16-bit gradients: (2 P + G) / (2 G) = 1.5; 32-bit (G = 2 P): 1.
            const QuizItem item = askQuestion("fsdp.against-ddp", seed);
            EXPECT_NEAR(item.expected, item.prompt.find("32-bit gradients") != std::string::npos ? 1.0 : 1.5, 1e-12) << item.prompt;
        }
        {
            // Llama 2 7B: 2 x 32 x 32 x 128 = 262,144 elements per token; 70B: 2 x 80 x 8 x 128 = 163,840.
            const QuizItem item = askQuestion("serving.kv-per-token", seed);
            const double elements = item.prompt.find("Llama 2 70B") != std::string::npos ? 163840 : 262144;
            const double bytes = item.prompt.find("FP8") != std::string::npos ? 1 : 2;
            EXPECT_NEAR(item.expected, elements * bytes / 1e3, 1e-9) << item.prompt;
        }
        {
            const QuizItem item = askQuestion("tensor-cores.mma-count", seed);
            const auto n = numbersIn(item.prompt, "A (\\d+) x (\\d+) and B \\d+ x (\\d+)");
            ASSERT_EQ(n.size(), 3u) << item.prompt;
            EXPECT_EQ(item.expected, (n[0] / 16) * (n[2] / 8) * (n[1] / 16)) << item.prompt;
        }
        {
            // E4M3 has 3 mantissa bits: amax / 6 rounded to a multiple of 2^(e - 3), e its exponent.
            const QuizItem item = askQuestion("microscaling.nvfp4-scale", seed);
            const auto n = numbersIn(item.prompt, "largest magnitude ([0-9.]+)\\.");
            ASSERT_EQ(n.size(), 1u) << item.prompt;
            amaxSeen.insert(n[0]);
            if (n[0] == 3.3) {
                EXPECT_EQ(item.expected, 0.5625); // 0.55 between 0.5 and 0.5625 (step 1/16)
            } else if (n[0] == 200) {
                EXPECT_EQ(item.expected, 32.0); // 33.33 between 32 and 36 (step 4)
            } else if (n[0] == 0.7) {
                EXPECT_EQ(item.expected, 0.1171875); // 0.11667 between 0.109375 and 0.1171875 (step 1/128)
            }
        }
        {
            const QuizItem item = askQuestion("fusion.score-memory", seed);
            const auto n = numbersIn(item.prompt, "n = (\\d+) tokens, (\\d+) heads and a batch of (\\d+)");
            ASSERT_EQ(n.size(), 3u) << item.prompt;
            EXPECT_NEAR(item.expected, n[0] * n[0] * 2 * n[1] * n[2] / 1e9, 1e-9) << item.prompt;
        }
    }
    EXPECT_TRUE(amaxSeen.count(3.3) && amaxSeen.count(200) && amaxSeen.count(0.7)) << "seeds 1..40 must reach the worked cases";
}

TEST(SecondCurriculumQuiz, E2M1RoundsToNearestEvenAndClampsAtSix)
{
    // Scale 2^k; worked: 1.3 -> 1.5, 2.6 -> 3, 5.5 -> 6, 7.2 -> 6 (clamped), 0.8 -> 1, 0.3 -> 0.5, 3.4 -> 3, 4.9 -> 4.
    const std::map<double, double> stored{{0.3, 0.5}, {0.8, 1}, {1.2, 1}, {1.3, 1.5}, {2.6, 3}, {3.4, 3}, {4.9, 4}, {5.5, 6}, {7.2, 6}};
    int checked = 0;
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
        const QuizItem item = askQuestion("microscaling.e2m1-stored", seed);
        const auto n = numbersIn(item.prompt, "scale is 2\\^(-?\\d+)\\. What value is stored for ([0-9.e-]+) ");
        ASSERT_EQ(n.size(), 2u) << item.prompt;
        const double scale = std::exp2(n[0]);
        const auto found = stored.find(std::round(n[1] / scale * 10) / 10);
        ASSERT_NE(found, stored.end()) << item.prompt;
        EXPECT_NEAR(item.expected, found->second * scale, 1e-12) << item.prompt;
        ++checked;
    }
    EXPECT_EQ(checked, 200);
}
