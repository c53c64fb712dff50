// warpscope-probe --cooperative (issue 31, section 2): the flag parses, says what it does in the
// usage, and is refused with a block sample, which cannot pass a grid barrier. The launch itself
// (cuLaunchCooperativeKernel) needs a GPU: tests/gpu runs the probe where there is one.
#include "probe_options.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace warpscope;

namespace {

probe::ProbeOptions parseWords(std::vector<std::string> words)
{
    words.insert(words.begin(), "warpscope-probe");
    std::vector<char*> argv;
    for (std::string& word : words)
        argv.push_back(word.data());
    return probe::parseProbeOptions(static_cast<int>(argv.size()), argv.data());
}

} // namespace

TEST(ProbeCooperative, TheFlagParsesAndIsInTheUsage)
{
    EXPECT_FALSE(parseWords({"sum.cu"}).cooperative);
    EXPECT_TRUE(parseWords({"--cooperative", "sum.cu", "--kernel", "gridSum"}).cooperative);
    EXPECT_NE(probe::probeUsage().find("--cooperative       launch with cuLaunchCooperativeKernel"), std::string::npos);
}

TEST(ProbeCooperative, ABlockSampleIsRefused)
{
    try {
        parseWords({"--cooperative", "--sample-blocks", "16", "sum.cu"});
        FAIL() << "a sample of a cooperative launch was accepted";
    } catch (const InputError& error) {
        EXPECT_EQ(std::string(error.what()),
                  "--sample-blocks cannot be combined with --cooperative: a cooperative launch's prediction simulates "
                  "every block (a sample cannot pass its grid barriers)");
    }
    EXPECT_NO_THROW(parseWords({"--cooperative", "--sample-blocks", "0", "sum.cu"}));
}
