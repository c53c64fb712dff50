// The warpscope: link scheme, including malformed links.
#include "links/view_link.h"
#include "util/input_error.h"

#include <gtest/gtest.h>

#include <string>

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
                                   "(allowed: lesson, hierarchy, placement, occupancy, formats, amp, quant, sparsity, step, memory, "
                                   "streams, pipeline, memory-budget, allreduce, profile)");
    }
    try {
        parseViewLink("warpscope:occupancy?regs=300");
        FAIL();
    } catch (const InputError& error) {
        EXPECT_STREQ(error.what(), "link 'warpscope:occupancy?regs=300': regs: 300 is out of range (allowed: 1..255)");
    }
}

TEST(ViewLink, ParsesThePerformanceModelViews)
{
    const ViewLink streams = parseViewLink("warpscope:streams?h2d=4&kernel=6.5&d2h=0&chunks=4&engines=2");
    EXPECT_EQ(streams.view, LinkView::Streams);
    EXPECT_DOUBLE_EQ(*streams.hostToDeviceMs, 4.0);
    EXPECT_DOUBLE_EQ(*streams.kernelMs, 6.5);
    EXPECT_DOUBLE_EQ(*streams.deviceToHostMs, 0.0);
    EXPECT_EQ(*streams.chunks, 4);
    EXPECT_EQ(*streams.copyEngines, 2);
    EXPECT_TRUE(streams.kernel.empty()); // the stepper's kernel id is another key's
    EXPECT_EQ(*parseViewLink("warpscope:streams?chunks=64&engines=1").chunks, 64);
    EXPECT_DOUBLE_EQ(*parseViewLink("warpscope:streams?kernel=1e6").kernelMs, 1e6);
    // The CUDA-graph model under the streams figure: its own keys, times in microseconds.
    const ViewLink chain = parseViewLink("warpscope:streams?chain=50&kernel_us=1&launch_us=2.7&gap_us=6.4&graph_us=15&node_us=0.58");
    EXPECT_EQ(*chain.chainKernels, 50);
    EXPECT_DOUBLE_EQ(*chain.chainKernelUs, 1.0);
    EXPECT_DOUBLE_EQ(*chain.launchUs, 2.7);
    EXPECT_DOUBLE_EQ(*chain.gapUs, 6.4);
    EXPECT_DOUBLE_EQ(*chain.graphUs, 15.0);
    EXPECT_DOUBLE_EQ(*chain.nodeUs, 0.58);
    EXPECT_FALSE(chain.kernelMs.has_value()); // kernel (ms) is the streams model's, kernel_us the chain's
    EXPECT_EQ(*parseViewLink("warpscope:streams?chain=1000").chainKernels, 1000);

    const ViewLink pipeline = parseViewLink("warpscope:pipeline?stages=4&microbatches=8");
    EXPECT_EQ(pipeline.view, LinkView::Pipeline);
    EXPECT_EQ(*pipeline.stages, 4);
    EXPECT_EQ(*pipeline.microbatches, 8);
    EXPECT_EQ(*parseViewLink("warpscope:pipeline?stages=16&microbatches=64").stages, 16);
    EXPECT_EQ(*parseViewLink("warpscope:pipeline?stages=1&microbatches=1").microbatches, 1);

    const ViewLink budget = parseViewLink("warpscope:memory-budget?params=7e9&precision=mixed&optimizer=adam&zero=2&gpus=8"
                                          "&layers=32&hidden=4096&heads=32&seq=4096&batch=1&recompute=1");
    EXPECT_EQ(budget.view, LinkView::MemoryBudget);
    EXPECT_DOUBLE_EQ(*budget.parameters, 7e9);
    EXPECT_EQ(*budget.precision, training::Precision::Mixed16);
    EXPECT_EQ(*budget.optimizer, training::Optimizer::Adam);
    EXPECT_EQ(*budget.zeroStage, 2);
    EXPECT_EQ(*budget.gpus, 8);
    EXPECT_EQ(*budget.layers, 32);
    EXPECT_EQ(*budget.hidden, 4096);
    EXPECT_EQ(*budget.heads, 32);
    EXPECT_EQ(*budget.sequence, 4096);
    EXPECT_EQ(*budget.microBatch, 1);
    EXPECT_TRUE(*budget.recompute);
    EXPECT_EQ(*parseViewLink("warpscope:memory-budget?precision=inference-int8").precision, training::Precision::InferenceInt8);
    EXPECT_EQ(*parseViewLink("warpscope:memory-budget?precision=fp32").precision, training::Precision::Fp32);
    EXPECT_EQ(*parseViewLink("warpscope:memory-budget?optimizer=sgd-momentum").optimizer, training::Optimizer::SgdMomentum);
    EXPECT_EQ(*parseViewLink("warpscope:memory-budget?layers=0").layers, 0);
    EXPECT_DOUBLE_EQ(*parseViewLink("warpscope:memory-budget?params=1e13").parameters, 1e13);

    const ViewLink ring = parseViewLink("warpscope:allreduce?gpus=4&bytes=1G&link=nvlink4&step=3");
    EXPECT_EQ(ring.view, LinkView::AllReduce);
    EXPECT_EQ(*ring.gpus, 4);
    EXPECT_DOUBLE_EQ(*ring.bufferBytes, 1073741824.0);
    EXPECT_EQ(*ring.interconnect, "nvlink4");
    EXPECT_EQ(*ring.ringStep, 3);
    EXPECT_DOUBLE_EQ(*parseViewLink("warpscope:allreduce?bytes=64M").bufferBytes, 64.0 * 1024 * 1024);
    EXPECT_DOUBLE_EQ(*parseViewLink("warpscope:allreduce?bytes=3k").bufferBytes, 3072.0);
    EXPECT_DOUBLE_EQ(*parseViewLink("warpscope:allreduce?bytes=1").bufferBytes, 1.0);
    EXPECT_DOUBLE_EQ(*parseViewLink("warpscope:allreduce?bytes=1024G").bufferBytes, 1099511627776.0);
    EXPECT_EQ(*parseViewLink("warpscope:allreduce?gpus=16&step=30").ringStep, 30);
    EXPECT_EQ(*parseViewLink("warpscope:allreduce?step=30").ringStep, 30); // checked against the panel's ring by the window
    EXPECT_EQ(*parseViewLink("warpscope:allreduce?link=pcie4").interconnect, "pcie4");

    const ViewLink profile = parseViewLink("warpscope:profile?session=h200/ladder-matmul.wsprof&tab=roofline");
    EXPECT_EQ(profile.view, LinkView::Profile);
    EXPECT_EQ(*profile.session, "h200/ladder-matmul.wsprof");
    EXPECT_EQ(*profile.profileTab, "roofline");
    EXPECT_FALSE(parseViewLink("warpscope:profile?session=h200/demo-kernels.wsprof").profileTab.has_value());
}

TEST(ViewLink, RejectsMalformedPerformanceModelLinks)
{
    const char* bad[] = {
        "warpscope:streams?h2d=-1",
        "warpscope:streams?h2d=1000001",
        "warpscope:streams?kernel=abc",
        "warpscope:streams?kernel=inf",
        "warpscope:streams?d2h=nan",
        "warpscope:streams?h2d=0&kernel=0&d2h=0",
        "warpscope:streams?chunks=0",
        "warpscope:streams?chunks=65",
        "warpscope:streams?chunks=2.5",
        "warpscope:streams?engines=0",
        "warpscope:streams?engines=3",
        "warpscope:streams?chunks=4&chunks=4",
        "warpscope:streams?streams=4",
        "warpscope:streams?at=1",
        "warpscope:streams?chain=0",
        "warpscope:streams?chain=1001",
        "warpscope:streams?kernel_us=-1",
        "warpscope:streams?launch_us=1000001",
        "warpscope:streams?gap_us=abc",
        "warpscope:streams?graph_us=nan",
        "warpscope:streams?node_us=inf",
        "warpscope:streams?kernels=20",
        "warpscope:pipeline?stages=0",
        "warpscope:pipeline?stages=17",
        "warpscope:pipeline?microbatches=0",
        "warpscope:pipeline?microbatches=65",
        "warpscope:pipeline?micro=8",
        "warpscope:memory-budget?params=0",
        "warpscope:memory-budget?params=-7e9",
        "warpscope:memory-budget?params=2e13",
        "warpscope:memory-budget?params=inf",
        "warpscope:memory-budget?params=7B",
        "warpscope:memory-budget?precision=fp16",
        "warpscope:memory-budget?optimizer=adamw",
        "warpscope:memory-budget?zero=4",
        "warpscope:memory-budget?zero=-1",
        "warpscope:memory-budget?gpus=0",
        "warpscope:memory-budget?gpus=4097",
        "warpscope:memory-budget?layers=-1",
        "warpscope:memory-budget?layers=1001",
        "warpscope:memory-budget?hidden=0",
        "warpscope:memory-budget?heads=1025",
        "warpscope:memory-budget?seq=10000001",
        "warpscope:memory-budget?batch=65537",
        "warpscope:memory-budget?recompute=2",
        "warpscope:memory-budget?hidden=4096&heads=3",
        "warpscope:memory-budget?link=nvlink4",
        "warpscope:allreduce?gpus=1",
        "warpscope:allreduce?gpus=17",
        "warpscope:allreduce?bytes=0",
        "warpscope:allreduce?bytes=1025G",
        "warpscope:allreduce?bytes=1T",
        "warpscope:allreduce?bytes=1.5G",
        "warpscope:allreduce?bytes=-1",
        "warpscope:allreduce?bytes=G",
        "warpscope:allreduce?link=nvlink5",
        "warpscope:allreduce?step=-1",
        "warpscope:allreduce?step=31",
        "warpscope:allreduce?gpus=4&step=7",
        "warpscope:allreduce?params=7e9",
        "warpscope:profile?tab=summary",
        "warpscope:profile?session=",
        "warpscope:profile?session=a&session=b",
        "warpscope:profile?kernel=vector_add",
    };
    for (const char* link : bad)
        EXPECT_THROW(parseViewLink(link), InputError) << link;
}

TEST(ViewLink, PerformanceModelMessagesNameTheKeyAndWhatIsAllowed)
{
    auto message = [](const char* link) {
        try {
            parseViewLink(link);
        } catch (const InputError& error) {
            return std::string(error.what());
        }
        return std::string("(accepted)");
    };
    EXPECT_EQ(message("warpscope:streams?chunks=65"), "link 'warpscope:streams?chunks=65': chunks: 65 is out of range (allowed: 1..64)");
    EXPECT_EQ(message("warpscope:streams?h2d=-1"),
              "link 'warpscope:streams?h2d=-1': h2d: -1 is out of range (allowed: 0 to 1e6 ms, a decimal such as 2.5)");
    EXPECT_EQ(message("warpscope:streams?h2d=0&kernel=0&d2h=0"),
              "link 'warpscope:streams?h2d=0&kernel=0&d2h=0': h2d, kernel and d2h are all 0 (allowed: at least one above 0 ms)");
    EXPECT_EQ(message("warpscope:streams?streams=4"),
              "link 'warpscope:streams?streams=4': unknown key 'streams' for streams (allowed: h2d, kernel, d2h, chunks, engines, "
              "chain, kernel_us, launch_us, gap_us, graph_us, node_us)");
    EXPECT_EQ(message("warpscope:pipeline?stages=17"),
              "link 'warpscope:pipeline?stages=17': stages: 17 is out of range (allowed: 1..16)");
    EXPECT_EQ(message("warpscope:memory-budget?precision=fp16"),
              "link 'warpscope:memory-budget?precision=fp16': precision: unknown value 'fp16' "
              "(allowed: fp32, mixed, inference-16, inference-int8)");
    EXPECT_EQ(message("warpscope:memory-budget?hidden=4096&heads=3"),
              "link 'warpscope:memory-budget?hidden=4096&heads=3': heads 3 does not divide hidden 4096 "
              "(each head is hidden / heads wide)");
    EXPECT_EQ(message("warpscope:allreduce?link=nvlink5"),
              "link 'warpscope:allreduce?link=nvlink5': link: unknown link 'nvlink5' (allowed: nvlink4, nvlink3, pcie5, pcie4)");
    EXPECT_EQ(message("warpscope:allreduce?bytes=1T"),
              "link 'warpscope:allreduce?bytes=1T': bytes: '1T' is not a byte count "
              "(allowed: 1 to 1024G bytes, an integer with an optional K, M or G suffix: 64M, 1G)");
    EXPECT_EQ(message("warpscope:allreduce?gpus=4&step=7"),
              "link 'warpscope:allreduce?gpus=4&step=7': step 7 is past the end: a ring of 4 GPUs takes 6 steps (allowed: 0..6)");
    EXPECT_EQ(message("warpscope:profile?tab=summary"),
              "link 'warpscope:profile?tab=summary': tab: unknown tab 'summary' "
              "(allowed: metrics, bandwidth, roofline, prediction, session)");
}

TEST(ViewLink, StepLinksChooseTheWarpModel)
{
    const ViewLink its = parseViewLink("warpscope:step?kernel=warp_spin_lock&warp=0&at=5&warp_model=its");
    EXPECT_EQ(its.view, LinkView::Step);
    EXPECT_EQ(its.kernel, "warp_spin_lock");
    ASSERT_TRUE(its.warpModel.has_value());
    EXPECT_EQ(*its.warpModel, sim::WarpModel::IndependentThreads);
    EXPECT_EQ(*parseViewLink("warpscope:step?kernel=warp_spin_lock&warp_model=stack").warpModel,
              sim::WarpModel::ReconvergenceStack);
    EXPECT_EQ(*parseViewLink("warpscope:memory?kernel=copy_strided&warp_model=its").warpModel,
              sim::WarpModel::IndependentThreads);
    // Without the key the link says nothing; the window then runs the stack model.
    EXPECT_FALSE(parseViewLink("warpscope:step?kernel=warp_spin_lock").warpModel.has_value());

    EXPECT_THROW(parseViewLink("warpscope:step?kernel=warp_spin_lock&warp_model=its&warp_model=stack"), InputError);
    EXPECT_THROW(parseViewLink("warpscope:hierarchy?warp_model=its"), InputError);
    try {
        parseViewLink("warpscope:step?kernel=warp_spin_lock&warp_model=volta");
        FAIL();
    } catch (const InputError& error) {
        EXPECT_STREQ(error.what(), "link 'warpscope:step?kernel=warp_spin_lock&warp_model=volta': warp_model: unknown warp model "
                                   "'volta' (allowed: stack, the pre-Volta reconvergence stack; its, Volta's independent "
                                   "thread scheduling)");
    }
}

TEST(ViewLink, MemoryBudgetLinksTakeKvHeads)
{
    const ViewLink gqa = parseViewLink("warpscope:memory-budget?precision=inference-16&heads=64&kv_heads=8");
    EXPECT_EQ(*gqa.kvHeads, 8);
    EXPECT_EQ(*parseViewLink("warpscope:memory-budget?kv_heads=0").kvHeads, 0);
    EXPECT_FALSE(parseViewLink("warpscope:memory-budget?heads=32").kvHeads.has_value());
    EXPECT_THROW(parseViewLink("warpscope:memory-budget?kv_heads=1025"), InputError);
    EXPECT_THROW(parseViewLink("warpscope:memory-budget?kv_heads=-1"), InputError);
    try {
        parseViewLink("warpscope:memory-budget?heads=32&kv_heads=3");
        FAIL();
    } catch (const InputError& error) {
        EXPECT_STREQ(error.what(), "link 'warpscope:memory-budget?heads=32&kv_heads=3': kv_heads 3 does not divide heads 32 "
                                   "(allowed: 0 for one per head, or a divisor of heads)");
    }
}
