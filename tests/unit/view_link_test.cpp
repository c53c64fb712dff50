// The warpscope: link scheme, including malformed links.
#include "links/view_link.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

using namespace warpscope;
using namespace warpscope::app;

TEST(ViewLink, ParsesEachView)
{
    const ViewLink hierarchy = parseViewLink("warpscope:hierarchy?grid=4,2&block=96");
    EXPECT_EQ(hierarchy.view, LinkView::Hierarchy);
    EXPECT_EQ(*hierarchy.grid, (launch::Dim3{4, 2, 1}));
    EXPECT_EQ(*hierarchy.block, (launch::Dim3{96, 1, 1}));

    const ViewLink occupancy =
        parseViewLink("warpscope:occupancy?arch=90&block=256&regs=64&static_smem=16K&dynamic_smem=1000&carveout=-1&barriers=2");
    EXPECT_EQ(occupancy.view, LinkView::Occupancy);
    EXPECT_EQ(*occupancy.arch, "sm_90");
    EXPECT_EQ(*occupancy.registers, 64);
    EXPECT_EQ(*occupancy.staticShared, 16384u);
    EXPECT_EQ(*occupancy.dynamicShared, 1000u);
    EXPECT_EQ(*occupancy.carveout, -1);
    EXPECT_EQ(*occupancy.barriers, 2);
    EXPECT_FALSE(occupancy.grid.has_value());

    const ViewLink placement = parseViewLink("warpscope:placement?arch=sm_80&grid=529&block=512");
    EXPECT_EQ(placement.view, LinkView::Placement);
    EXPECT_EQ(placement.grid->x, 529);

    const ViewLink lesson = parseViewLink("warpscope:lesson?id=occupancy");
    EXPECT_EQ(lesson.view, LinkView::Lesson);
    EXPECT_EQ(lesson.lessonId, "occupancy");

    EXPECT_EQ(parseViewLink("warpscope:hierarchy").view, LinkView::Hierarchy); // no query: keep all
    EXPECT_EQ(parseViewLink("warpscope:hierarchy?grid=4%2C2").grid->y, 2);  // %-escaped comma
}

TEST(ViewLink, RejectsMalformedLinks)
{
    const char* bad[] = {
        "http://example.com",
        "warpscope:",
        "warpscope:hierachy?grid=4",
        "warpscope:hierarchy?grid=4&grid=5",
        "warpscope:hierarchy?grid",
        "warpscope:hierarchy?grid=",
        "warpscope:hierarchy?regs=32",
        "warpscope:hierarchy?grid=0",
        "warpscope:hierarchy?grid=1,70000",
        "warpscope:hierarchy?block=64,32",
        "warpscope:hierarchy?block=1,1,65",
        "warpscope:hierarchy?block=abc",
        "warpscope:occupancy?arch=sm_99",
        "warpscope:occupancy?regs=0",
        "warpscope:occupancy?regs=256",
        "warpscope:occupancy?static_smem=49K",
        "warpscope:occupancy?dynamic_smem=-1",
        "warpscope:occupancy?carveout=101",
        "warpscope:occupancy?barriers=17",
        "warpscope:lesson",
        "warpscope:lesson?id=x&grid=1",
        "warpscope:hierarchy?grid=4%2",
        "warpscope:hierarchy?grid=4%zz",
    };
    for (const char* link : bad)
        EXPECT_THROW(parseViewLink(link), InputError) << link;
}

TEST(ViewLink, MessagesNameTheProblemAndWhatIsAllowed)
{
    try {
        parseViewLink("warpscope:hierachy?grid=4");
        FAIL();
    } catch (const InputError& error) {
        EXPECT_STREQ(error.what(), "link 'warpscope:hierachy?grid=4': unknown view 'hierachy' "
                                   "(allowed: lesson, hierarchy, placement, occupancy, formats, amp, quant, sparsity, step, memory)");
    }
    try {
        parseViewLink("warpscope:occupancy?regs=300");
        FAIL();
    } catch (const InputError& error) {
        EXPECT_STREQ(error.what(), "link 'warpscope:occupancy?regs=300': regs: 300 is out of range (allowed: 1..255)");
    }
}
