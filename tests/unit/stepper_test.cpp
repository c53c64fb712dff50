// The stepper's Qt-free pieces: register values as the table shows them (worked out by hand from
// the bit patterns) and the source view's heat per line.
#include "execution/stepper.h"

#include <gtest/gtest.h>

using namespace warpscope;
using viz::RegisterFormat;

TEST(StepperFormat, RegisterValuesByTypeAndForcedFormat)
{
    // 0x3fc00000 is 1.5f: sign 0, exponent 127, fraction 0.5.
    EXPECT_EQ(viz::formatRegisterValue(0x3fc00000u, ptx::Type::F32, RegisterFormat::Typed), "1.5");
    EXPECT_EQ(viz::formatRegisterValue(0x3fc00000u, ptx::Type::F32, RegisterFormat::Hex), "0x3fc00000");
    EXPECT_EQ(viz::formatRegisterValue(0x3fc00000u, ptx::Type::B32, RegisterFormat::Float), "1.5");
    // The low 32 bits only: a stale upper half does not leak into a .b32 register's value.
    EXPECT_EQ(viz::formatRegisterValue(0xdead0000ffffffffull, ptx::Type::S32, RegisterFormat::Typed), "-1");
    EXPECT_EQ(viz::formatRegisterValue(0xffffffffu, ptx::Type::U32, RegisterFormat::Typed), "4294967295");
    EXPECT_EQ(viz::formatRegisterValue(0x80000000u, ptx::Type::B32, RegisterFormat::Int), "-2147483648");
    EXPECT_EQ(viz::formatRegisterValue(42, ptx::Type::U16, RegisterFormat::Hex), "0x002a");
    EXPECT_EQ(viz::formatRegisterValue(1, ptx::Type::Pred, RegisterFormat::Typed), "true");
    EXPECT_EQ(viz::formatRegisterValue(0, ptx::Type::Pred, RegisterFormat::Typed), "false");
    // 0x4000000000000000 is 2.0 as a double; f16 has no float view here, so it shows its bits.
    EXPECT_EQ(viz::formatRegisterValue(0x4000000000000000ull, ptx::Type::F64, RegisterFormat::Typed), "2");
    EXPECT_EQ(viz::formatRegisterValue(0x3c00, ptx::Type::F16, RegisterFormat::Typed), "0x3c00");
}

TEST(StepperHeat, LinesAreRatedByWastedBytesConflictsAndDivergence)
{
    sim::LineStats strided;
    strided.line = 12;
    strided.counters.globalRequests = 10;
    strided.counters.globalSectors = 80;      // 8 per request
    strided.counters.bytesRequested = 1280;   // 10 x 32 lanes x 4 bytes
    strided.counters.bytesMoved = 2560;       // 80 sectors x 32 bytes
    sim::LineStats conflicted;
    conflicted.line = 20;
    conflicted.counters.sharedRequests = 4;
    conflicted.counters.sharedWavefronts = 32; // 8 per request
    conflicted.counters.sharedBankConflicts = 28;
    conflicted.counters.branchesUniform = 3;
    conflicted.counters.branchesDivergent = 1;
    const std::vector<sim::LineStats> lines{strided, conflicted};

    const auto sectors = viz::lineHeat(lines, viz::HeatMetric::SectorsPerRequest);
    ASSERT_EQ(sectors.size(), 1u);
    EXPECT_DOUBLE_EQ(sectors.at(12).value, 0.5);
    EXPECT_EQ(sectors.at(12).text, "8.0 sectors per request; 50% of the bytes moved were used");

    const auto banks = viz::lineHeat(lines, viz::HeatMetric::BankConflicts);
    ASSERT_EQ(banks.size(), 1u);
    EXPECT_DOUBLE_EQ(banks.at(20).value, 7.0 / 31.0);
    EXPECT_EQ(banks.at(20).text, "8.0 wavefronts per shared request (1 is conflict-free); 28 bank conflicts");

    const auto divergence = viz::lineHeat(lines, viz::HeatMetric::Divergence);
    ASSERT_EQ(divergence.size(), 1u);
    EXPECT_DOUBLE_EQ(divergence.at(20).value, 0.25);
}
