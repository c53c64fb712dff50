// warpscope-probe's command line: --size, --cache-control, --sample-blocks and --no-hierarchy
// parse to what they say, and bad values are refused with one sentence naming the flag.
#include "probe_options.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace warpscope;

namespace {

probe::ProbeOptions parse(std::vector<std::string> words)
{
    words.insert(words.begin(), "warpscope-probe");
    std::vector<char*> argv;
    for (std::string& word : words)
        argv.push_back(word.data());
    return probe::parseProbeOptions(static_cast<int>(argv.size()), argv.data());
}

std::string refusal(std::vector<std::string> words)
{
    try {
        parse(std::move(words));
    } catch (const InputError& error) {
        return error.what();
    }
    return "accepted";
}

} // namespace

TEST(ProbeOptions, DefaultsFillTheGpuAndFlushTheCaches)
{
    const probe::ProbeOptions options = parse({"vector_add"});
    EXPECT_EQ(options.size, "gpu");
    EXPECT_EQ(options.cacheControl, "all");
    EXPECT_EQ(options.sampleBlocks, 0u);
    EXPECT_TRUE(options.hierarchy);
    EXPECT_EQ(options.targets, std::vector<std::string>{"vector_add"});
}

TEST(ProbeOptions, SizeCacheControlAndSampleBlocks)
{
    const probe::ProbeOptions options =
        parse({"--size", "sim", "--cache-control", "none", "--sample-blocks", "64", "--no-hierarchy", "ladder:copy"});
    EXPECT_EQ(options.size, "sim");
    EXPECT_EQ(options.cacheControl, "none");
    EXPECT_EQ(options.sampleBlocks, 64u);
    EXPECT_FALSE(options.hierarchy);
    EXPECT_EQ(parse({"--size", "gpu", "--cache-control", "all", "x"}).size, "gpu");
}

TEST(ProbeOptions, BadValuesAreRefusedNamingTheFlag)
{
    EXPECT_NE(refusal({"--size", "huge", "vector_add"}).find("--size 'huge': allowed are gpu"), std::string::npos);
    EXPECT_NE(refusal({"--cache-control", "some", "vector_add"}).find("--cache-control 'some': allowed are all"),
              std::string::npos);
    EXPECT_NE(refusal({"--sample-blocks", "1", "vector_add"}).find("at least 2 blocks"), std::string::npos);
    EXPECT_NE(refusal({"--sample-blocks", "-3", "vector_add"}).find("--sample-blocks"), std::string::npos);
    EXPECT_NE(refusal({"--sample-blocks", "many", "vector_add"}).find("--sample-blocks"), std::string::npos);
    EXPECT_NE(refusal({"vector_add", "--size"}).find("--size needs a value"), std::string::npos);
}
