// The Execution view (the stepper), offscreen: step links record a block and stand where they say;
// what the panels show (masks, stack, registers, the memory access, the current source and PTX
// lines) equals `warpscope step --json` run as a separate process, and hand-worked values: the odd
// and even masks of divergence_odd_even, the wavefronts 2, 2, 4, 4, 8, ... of the interleaved
// reduction's shared loads, the 32-way column read of transpose_tiled. Keys step forwards and back,
// a hazard stops the stepper, an endless playground kernel ends with a message, a compile error is
// marked on its line, printf lines follow the stepper as `warpscope step` prints them, the Tensor
// Core lesson's link stands on a wmma.mma, and `warpscope screenshot --view execution` writes the
// view. The memory view: packets, the latency-hiding timeline, a session's measured bytes and the
// occupancy re-run.
#include "execution_test_support.h"

#include "cli/cli_step.h"
#include "execution/code_view.h"
#include "execution/execution_panel.h"
#include "execution/stepper.h"
#include "memory/memory_model.h"
#include "occupancy/occupancy_panel.h"
#include "profile/profile_panel.h"
#include "window/application_setup.h"
#include "window/main_window.h"

#include <QDir>
#include <QFile>
#include <QApplication>
#include <QImage>
#include <QLineEdit>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QRegularExpression>
#include <QUrl>
#include <QUrlQuery>

#include <nlohmann/json.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace warpscope;

using namespace warpscope::testing_support;

class ExecutionTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    // A step link records the block and stands before the warp's instruction `at`; the panels show
    // exactly what `warpscope step --json` prints for the same place, for three kernels and several
    // places in each.
    void stepLinksMatchTheCommandLine()
    {
        ShownWindow shown;
        const struct {
            const char* kernel;
            int warp;
            std::uint32_t at;
        } places[] = {
            {"divergence_odd_even", 1, 0}, {"divergence_odd_even", 1, 14}, {"divergence_odd_even", 1, 22},
            {"reduce_interleaved_bank_conflicts", 0, 41}, {"reduce_interleaved_bank_conflicts", 2, 60},
            {"transpose_tiled", 0, 30}, {"transpose_tiled", 3, 70},
        };
        for (const auto& place : places) {
            const QString link = QStringLiteral("warpscope:step?kernel=%1&block=0&warp=%2&at=%3")
                                     .arg(QLatin1String(place.kernel))
                                     .arg(place.warp)
                                     .arg(place.at);
            QVERIFY2(openStep(shown, link), qPrintable(link + QStringLiteral(": ") + shown.window.lastMessage()));
            QCOMPARE(shown.window.canvasView(), app::CanvasView::Execution);
            QCOMPARE(shown.panel()->stepper()->followed(), place.warp);
            const nlohmann::json cli = cliStep(QLatin1String(place.kernel), QStringLiteral("0"), place.warp, place.at);
            QVERIFY(!cli.is_null());
            compareWithCli(*shown.panel(), cli);
        }
    }

    // The matmul lesson's Tensor Core link stands before matmul_wmma's first wmma.mma, and shows what
    // `warpscope step` prints there; one F11 later the warp has written its 8 accumulator registers.
    void tensorCoreLessonLinkStepsOntoWmmaMma()
    {
        ShownWindow shown;
        const QRegularExpression pattern(QStringLiteral(R"(\((warpscope:step\?kernel=matmul_wmma[^)]*)\))"));
        QString link;
        for (const app::Lesson& lesson : shown.window.lessons().lessons())
            if (const QRegularExpressionMatch match = pattern.match(lesson.markdown); match.hasMatch())
                link = match.captured(1);
        QVERIFY2(!link.isEmpty(), "no lesson links to matmul_wmma");
        QVERIFY2(openStep(shown, link), qPrintable(link + QStringLiteral(": ") + shown.window.lastMessage()));
        const viz::Stepper& stepper = *shown.panel()->stepper();
        QVERIFY(stepper.currentInstruction() != nullptr);
        QCOMPARE(stepper.currentInstruction()->op, ptx::Op::WmmaMma);
        const QUrlQuery query(QUrl(link).query());
        const nlohmann::json cli = cliStep(QStringLiteral("matmul_wmma"), QStringLiteral("0"), 0,
                                           query.queryItemValue(QStringLiteral("at")).toUInt());
        QVERIFY(!cli.is_null());
        compareWithCli(*shown.panel(), cli);
        press(*shown.panel(), Qt::Key_F11);
        QCOMPARE(stepper.lastWrittenRegisters().size(), std::size_t{8});
    }

    // F11 steps the followed warp one instruction; Shift+F11 comes back to the same state; the
    // divergent branch of divergence_odd_even pushes the odd and even sides, with 16 lanes each.
    void keysStepForwardsAndBackOnTheOddEvenKernel()
    {
        ShownWindow shown;
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=divergence_odd_even&block=0&warp=1&at=0")));
        viz::ExecutionPanel& panel = *shown.panel();
        const viz::Stepper& stepper = *panel.stepper();
        std::set<std::uint32_t> sideMasks;
        std::vector<std::size_t> positions{stepper.position()};
        while (stepper.current()) {
            press(panel, Qt::Key_F11);
            positions.push_back(stepper.position());
            const sim::WarpSnapshot warp = stepper.replay().warp(1);
            if (warp.stack.size() >= 2) {
                sideMasks.insert(warp.activeMask);
                QCOMPARE(std::popcount(warp.activeMask), 16);
            }
            QVERIFY(positions.size() < 200);
        }
        QCOMPARE(sideMasks, (std::set<std::uint32_t>{0xaaaaaaaau, 0x55555555u}));
        QCOMPARE(positions.size() - 1, stepper.recording().stepsOfWarp[1].size());
        // Back, one at a time, through the same positions.
        for (std::size_t i = positions.size() - 1; i-- > 0;) {
            press(panel, Qt::Key_F11, Qt::ShiftModifier);
            QCOMPARE(stepper.position(), positions[i]);
        }
        // Ctrl+End and Ctrl+Home: the two ends; F7 finds the divergent branch.
        press(panel, Qt::Key_End, Qt::ControlModifier);
        QCOMPARE(stepper.position(), stepper.size());
        press(panel, Qt::Key_Home, Qt::ControlModifier);
        QCOMPARE(stepper.position(), std::size_t{0});
        press(panel, Qt::Key_F7);
        QVERIFY(stepper.current() && stepper.current()->has(sim::StepFlag::Diverged));
        QCOMPARE(stepper.currentInstruction()->op, ptx::Op::Bra);
    }

    // F8 from the start visits warp 0's memory instructions; its shared loads in the interleaved
    // reduction (blockDim 256) need 2, 2, 4, 4, 8, 8, 8, 8, 8, 8, 4, 4, 2, 2, 1, 1 wavefronts: with
    // stride s, lane t reads words 2st and 2st + s (two loads per iteration), worked out below.
    void memoryKeyVisitsTheBankConflictsOfTheInterleavedReduction()
    {
        // s = 1: 32 lanes, words 2t: banks 0, 2, ..., 30 twice -> 2-way. s = 2: words 4t -> 4-way.
        // s = 4: 8t -> 8-way. s = 8: 16 lanes (16t < 256), banks 0 and 16, 8 words each -> 8.
        // s = 16: 8 lanes, all in bank 0 -> 8. s = 32: 4 lanes -> 4. s = 64: 2. s = 128: 1.
        ShownWindow shown;
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=reduce_interleaved_bank_conflicts&block=0&warp=0&at=0")));
        viz::ExecutionPanel& panel = *shown.panel();
        const viz::Stepper& stepper = *panel.stepper();
        std::vector<std::uint32_t> wavefronts;
        while (true) {
            const std::size_t before = stepper.position();
            press(panel, Qt::Key_F8);
            if (stepper.position() == before)
                break;
            const sim::RecordedStep* step = stepper.current();
            QVERIFY(step && step->access >= 0);
            const sim::RecordedAccess& access = stepper.recording().accesses[static_cast<std::size_t>(step->access)];
            if (access.space == ptx::Space::Shared && !access.isStore)
                wavefronts.push_back(access.wavefronts);
            // The first shared load: compare with the command line too.
            if (wavefronts.size() == 1 && access.space == ptx::Space::Shared && !access.isStore) {
                const nlohmann::json cli = cliStep(QStringLiteral("reduce_interleaved_bank_conflicts"), QStringLiteral("0"), 0,
                                                   step->warpStep);
                compareWithCli(panel, cli);
            }
        }
        // ... and the last read, sdata[0] by lane 0 for out[blockIdx.x]: 1.
        const std::vector<std::uint32_t> expected{2, 2, 4, 4, 8, 8, 8, 8, 8, 8, 4, 4, 2, 2, 1, 1, 1};
        QCOMPARE(wavefronts, expected);
    }

    // transpose_tiled: warp 0 reads a tile column, 32 lanes in one bank (32 wavefronts, 31 bank
    // conflicts); its global loads are one request of four sectors.
    void transposeColumnReadIsThirtyTwoWay()
    {
        ShownWindow shown;
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=transpose_tiled&block=0&warp=0&at=0")));
        viz::ExecutionPanel& panel = *shown.panel();
        const viz::Stepper& stepper = *panel.stepper();
        int sharedLoads = 0, globalLoads = 0;
        while (panel.step(sim::StepUnit::Memory, true)) {
            const sim::RecordedAccess& access = stepper.recording().accesses[static_cast<std::size_t>(stepper.current()->access)];
            if (access.space == ptx::Space::Shared && !access.isStore) {
                ++sharedLoads;
                QCOMPARE(access.wavefronts, 32u);
                QCOMPARE(access.bankConflicts, 31u);
            } else if (access.space == ptx::Space::Global && !access.isStore) {
                ++globalLoads;
                QCOMPARE(access.requests, 1u);
                QCOMPARE(access.sectors, 4u);
            }
        }
        QCOMPARE(sharedLoads, 4); // TILE / BLOCK_ROWS = 32 / 8 rows per thread
        QCOMPARE(globalLoads, 4);
    }

    // The missing __syncthreads(): F6 stops at the shared-memory race, and the status says why.
    void hazardKeyStopsAtTheRace()
    {
        ShownWindow shown;
        QVERIFY(openStep(shown, QStringLiteral("warpscope:step?kernel=hazard_missing_sync&block=0&warp=0&at=0")));
        viz::ExecutionPanel& panel = *shown.panel();
        panel.followWarp(-1);
        press(panel, Qt::Key_F6);
        const sim::RecordedHazard* hazard = panel.stepper()->currentHazard();
        QVERIFY(hazard);
        QCOMPARE(hazard->hazard.kind, sim::HazardKind::SharedRace);
        QCOMPARE(hazard->step, *panel.stepper()->currentIndex());
        QVERIFY2(panel.statusText().contains(QStringLiteral("Hazard: shared_race")), qPrintable(panel.statusText()));
        // Worked by hand: warp 0's lane 0 reads its right neighbour's slot, tile[1] (offset 4); then
        // lane 1 of the same warp writes tile[1], with no __syncwarp or barrier in between (lanes of a
        // warp are not ordered since Volta).
        QCOMPARE(hazard->hazard.warp, 0);
        QCOMPARE(hazard->hazard.lane, 1);
        QCOMPARE(hazard->hazard.address, std::uint64_t{4});
        const auto other = panel.stepper()->conflictingAccess();
        QVERIFY(other.has_value());
        QCOMPARE(other->warp, 0);
        QCOMPARE(other->lane, 0);
        QCOMPARE(other->address, std::uint64_t{4});
        QVERIFY(!other->isStore);
        QVERIFY(other->position < hazard->step);
        const sim::RecordedStep& read = panel.stepper()->recording().steps[other->position];
        QCOMPARE(panel.stepper()->run().function->instructions[static_cast<std::size_t>(read.pc)].op, ptx::Op::Ld);
        // Playing stops there too: from three instructions before it, along the racing warp.
        const sim::RecordedStep& racing = panel.stepper()->recording().steps[hazard->step];
        const std::size_t hazardStep = hazard->step;
        panel.seekWarpStep(static_cast<std::int32_t>(racing.warp), racing.warpStep - 3);
        QVERIFY(!panel.stepper()->currentHazard());
        panel.setPlaying(true);
        QTRY_VERIFY_WITH_TIMEOUT(panel.stepper()->currentHazard() != nullptr, 20000);
        QTest::qWait(600);
        QCOMPARE(panel.stepper()->currentIndex(), std::optional<std::size_t>(hazardStep));
    }

    // printf in the stepper: every third thread of block 1 prints. At each place the panel shows
    // the lines the block printed before it, the same as `warpscope step --json` on the same
    // source; at warp 1's end all 22 lines are there, thread 3k printing (3k)^2.
    void printfLinesFollowTheStepper()
    {
        const QString source = QStringLiteral(
            "extern \"C\" __global__ void hello(int* out)\n{\n    if (threadIdx.x % 3 == 0)\n"
            "        printf(\"thread %d squares to %d\\n\", threadIdx.x, threadIdx.x * threadIdx.x);\n"
            "    out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;\n}\n");
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("hello.cu"));
        ShownWindow shown;
        shown.window.showCanvasView(app::CanvasView::Execution);
        viz::ExecutionPanel& panel = *shown.panel();
        QVERIFY2(runPlayground(panel, path, source, QStringLiteral("out=i32[128]"), QStringLiteral("2"), QStringLiteral("64"),
                               QStringLiteral("1")),
                 qPrintable(panel.lastError()));
        const sim::BlockRecording& recording = panel.stepper()->recording();
        for (const auto& [warp, at] : {std::pair{0, 0u}, std::pair{0, 19u}, std::pair{0, 20u}, std::pair{1, 0u},
                                       std::pair{1, static_cast<std::uint32_t>(recording.stepsOfWarp[1].size())}}) {
            panel.followWarp(warp);
            panel.seekWarpStep(warp, at);
            const nlohmann::json cli = cliStep({path, QStringLiteral("--kernel"), QStringLiteral("hello"), QStringLiteral("--grid"),
                                                QStringLiteral("2"), QStringLiteral("--block"), QStringLiteral("64"),
                                                QStringLiteral("--arg"), QStringLiteral("out=i32[128]"),
                                                QStringLiteral("--block-index"), QStringLiteral("1"), QStringLiteral("--warp"),
                                                QString::number(warp), QStringLiteral("--at"), QString::number(at)});
            QVERIFY(!cli.is_null());
            const viz::Stepper& stepper = *panel.stepper();
            QCOMPARE(stepper.printfLinesSoFar(), cli["printf"].size());
            for (std::size_t i = 0; i < stepper.printfLinesSoFar(); ++i) {
                const sim::RecordedPrintf& line = recording.printfs[i];
                QCOMPARE(line.text, cli["printf"][i]["text"].get<std::string>());
                QCOMPARE(line.thread.x, cli["printf"][i]["thread"][0].get<std::int64_t>());
                QCOMPARE(line.step, cli["printf"][i]["step"].get<std::size_t>());
            }
        }
        QCOMPARE(panel.stepper()->printfLinesSoFar(), std::size_t{22});
        for (std::size_t i = 0; i < 22; ++i) {
            const std::int64_t thread = static_cast<std::int64_t>(3 * i);
            QCOMPARE(recording.printfs[i].thread.x, thread);
            QCOMPARE(recording.printfs[i].text,
                     "thread " + std::to_string(thread) + " squares to " + std::to_string(thread * thread) + "\n");
        }
    }

    // The carry flag of inline-asm add.cc/addc (a 64-bit add from two 32-bit halves): the stepper
    // holds each lane's CC.CF at every place, the same as `warpscope step --json` on the same source.
    // Odd lanes add 1 to 0xffffffff and carry; the even ones add 1 to 0xfffffffe and do not.
    void carryFlagFollowsTheStepper()
    {
        const QString source = QStringLiteral(
            "extern \"C\" __global__ void carry(unsigned* out)\n{\n"
            "    unsigned lo = 0xfffffffeu + (threadIdx.x & 1u), hi = 5u, sumLo, sumHi;\n"
            "    asm(\"add.cc.u32 %0, %2, 1;\\n\\taddc.u32 %1, %3, 0;\" : \"=r\"(sumLo), \"=r\"(sumHi) : \"r\"(lo), \"r\"(hi));\n"
            "    out[2 * threadIdx.x] = sumLo;\n    out[2 * threadIdx.x + 1] = sumHi;\n}\n");
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("carry.cu"));
        ShownWindow shown;
        shown.window.showCanvasView(app::CanvasView::Execution);
        viz::ExecutionPanel& panel = *shown.panel();
        QVERIFY2(runPlayground(panel, path, source, QStringLiteral("out=u32[64]"), QStringLiteral("1"), QStringLiteral("32"),
                               QStringLiteral("0")),
                 qPrintable(panel.lastError()));
        const sim::BlockRecording& recording = panel.stepper()->recording();
        QCOMPARE(recording.carries.size(), std::size_t{1});
        const std::uint32_t steps = static_cast<std::uint32_t>(recording.stepsOfWarp[0].size());
        for (std::uint32_t at = 0; at <= steps; ++at) {
            panel.followWarp(0);
            panel.seekWarpStep(0, at);
            const nlohmann::json cli = cliStep({path, QStringLiteral("--grid"), QStringLiteral("1"), QStringLiteral("--block"),
                                                QStringLiteral("32"), QStringLiteral("--arg"), QStringLiteral("out=u32[64]"),
                                                QStringLiteral("--warp"), QStringLiteral("0"), QStringLiteral("--at"),
                                                QString::number(at)});
            QVERIFY(!cli.is_null());
            QVERIFY(cli.contains("carry_mask"));
            compareWithCli(panel, cli);
        }
        // After the add.cc the odd lanes carry; addc leaves the flag and adds it to the high half.
        QCOMPARE(panel.stepper()->replay().warp(0).carryFlags, 0xaaaaaaaau);
        const std::size_t addc = recording.carries[0].step + 1;
        const ptx::Function& function = *panel.stepper()->run().function;
        QVERIFY(addc < recording.steps.size());
        QVERIFY(function.instructions[static_cast<std::size_t>(recording.steps[addc].pc)].text.starts_with("addc.u32"));
    }

    // A playground kernel that never ends: the run stops by itself and says why.
    void endlessPlaygroundKernelEndsWithAMessage()
    {
        ShownWindow shown;
        shown.window.showCanvasView(app::CanvasView::Execution);
        viz::ExecutionPanel& panel = *shown.panel();
        QVERIFY(panel.selectKernel(QStringLiteral("playground")));
        panel.setPlaygroundSource(QStringLiteral(
            "extern \"C\" __global__ void spin(volatile int* flag) { while (flag[0] == 0) { } }\n"));
        panel.setLaunchFields(QStringLiteral("flag=i32[1]"), QStringLiteral("1"), QStringLiteral("32"), QStringLiteral("0"));
        QSignalSpy finished(&panel, &viz::ExecutionPanel::runFinished);
        panel.run();
        QVERIFY(finished.wait(kRunTimeoutMs));
        QVERIFY(finished.first().first().toBool());
        QVERIFY2(panel.statusText().contains(QStringLiteral("without finishing")), qPrintable(panel.statusText()));
        QVERIFY(panel.stepper()->size() > 1000);
    }

    // The largest grid is refused before simulating, with the estimate, instead of keeping the
    // worker busy for weeks.
    void aHugeGridIsRefusedWithItsEstimate()
    {
        ShownWindow shown;
        shown.window.showCanvasView(app::CanvasView::Execution);
        viz::ExecutionPanel& panel = *shown.panel();
        QVERIFY(panel.selectKernel(QStringLiteral("vector_add")));
        panel.setLaunchFields(QStringLiteral("n=i32:1024"), QStringLiteral("2147483647"), QStringLiteral("1024"), QStringLiteral("0"));
        QSignalSpy finished(&panel, &viz::ExecutionPanel::runFinished);
        panel.run();
        QVERIFY(finished.wait(kRunTimeoutMs));
        QVERIFY(!finished.first().first().toBool());
        QVERIFY2(panel.statusText().contains(QStringLiteral("Not simulated: this launch of 2,147,483,647 blocks would issue about")),
                 qPrintable(panel.statusText()));
        QVERIFY2(panel.statusText().contains(QStringLiteral("Step through a smaller grid")), qPrintable(panel.statusText()));
    }

    // A compile error is marked on its line; fixing it compiles.
    void playgroundCompileErrorsAreMarkedOnTheirLines()
    {
        ShownWindow shown;
        shown.window.showCanvasView(app::CanvasView::Execution);
        viz::ExecutionPanel& panel = *shown.panel();
        QVERIFY(panel.selectKernel(QStringLiteral("playground")));
        panel.setPlaygroundSource(QStringLiteral("extern \"C\" __global__ void broken(float* x)\n{\n    x[threadIdx.x] = y;\n}\n"));
        panel.sourceView()->setFocus();
        QTest::keyClick(panel.sourceView(), Qt::Key_Return, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(!panel.sourceView()->markers().empty(), 30000);
        QCOMPARE(panel.sourceView()->markers().front().line, 3);
        QVERIFY(panel.sourceView()->markers().front().message.contains(QStringLiteral("\"y\"")));
        QVERIFY(panel.lastError().contains(QStringLiteral("compile error")));
    }

    // A bad step link changes nothing and says what was wrong; an `at` past the warp's end says so
    // once the block is recorded.
    void badStepLinksSayWhy()
    {
        ShownWindow shown;
        const struct {
            const char* link;
            const char* message;
        } cases[] = {
            {"warpscope:step?kernel=nope", "unknown kernel 'nope'"},
            {"warpscope:step?warp=1", "a step link needs kernel=ID"},
            {"warpscope:step?kernel=transpose_tiled&warp=8", "warp 8 does not exist"},
            {"warpscope:step?kernel=vector_add&block=99999999", "is outside vector_add's grid"},
            {"warpscope:step?kernel=vector_add&block=0,0,0,0", "at most three components"},
            {"warpscope:step?kernel=vector_add&at=-2", "at"},
        };
        for (const auto& c : cases) {
            const auto error = shown.window.openLink(QUrl(QString::fromLatin1(c.link)));
            QVERIFY2(error, c.link);
            QVERIFY2(error->contains(QLatin1String(c.message)), qPrintable(*error));
        }
        QSignalSpy finished(shown.panel(), &viz::ExecutionPanel::runFinished);
        QVERIFY(!shown.window.openLink(QUrl(QStringLiteral("warpscope:step?kernel=divergence_odd_even&warp=1&at=100000"))));
        QVERIFY(finished.wait(kRunTimeoutMs));
        QTRY_VERIFY(shown.window.lastMessage().contains(QStringLiteral("at 100000: warp 1 issued")));
    }

    // A memory link opens the Memory tab at the step: the packets are the sectors where the timing
    // model served them (as `warpscope step --json` reports), the timeline holds the first wave of
    // the recorded block's SM, and a session that measured the same launch is drawn beside it.
    void memoryLinkShowsPacketsTimelineAndMeasuredBytes()
    {
        ShownWindow shown;
        QVERIFY(openStep(shown, QStringLiteral("warpscope:memory?kernel=copy_coalesced&warp=0&at=12")));
        viz::ExecutionPanel& panel = *shown.panel();
        QVERIFY(panel.memoryViewShown());
        const viz::Stepper& stepper = *panel.stepper();
        QCOMPARE(QString::fromStdString(stepper.currentInstruction()->text), QStringLiteral("ld.global.f32 %f1, [%rd5]"));
        const nlohmann::json cli = cliStep(QStringLiteral("copy_coalesced"), QStringLiteral("0"), 0, 12);
        QVERIFY(!cli.is_null());
        // Cold caches: the first block's first load finds nothing in L1 or L2.
        QCOMPARE(cli["access"]["served"]["dram_sectors"].get<int>(), 4);
        QCOMPARE(QString::fromStdString(panel.memoryScene()->packetSummary()),
                 QStringLiteral("global load: 4 sectors: %1 hit L1, %2 hit L2, %3 from DRAM (timing model)")
                     .arg(cli["access"]["served"]["l1_hit_sectors"].get<int>())
                     .arg(cli["access"]["served"]["l2_sectors"].get<int>())
                     .arg(cli["access"]["served"]["dram_sectors"].get<int>()));
        // 256-thread blocks with 32 registers a thread: 2048 / 256 = 8 blocks on SM 0, 8 warps each.
        const viz::LatencyTimeline* timeline = panel.memoryScene()->timeline();
        QVERIFY(timeline != nullptr);
        QCOMPARE(timeline->rows.size(), std::size_t{64});
        QCOMPARE(timeline->rows[8].block, 132u);
        std::size_t issues = 0;
        for (const viz::TimelineSpan& span : timeline->rows[0].spans)
            issues += span.stall == 0 ? 1 : 0;
        QCOMPARE(issues, stepper.recording().stepsOfWarp[0].size());

        // A session that measured this launch (a fixture written here): its bytes go beside the model's.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("copy.wsprof"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"json({"format":"warpscope-session","version":1,"producer":"gui test fixture (not a measurement)","created":"2026-01-02T03:04:05Z","host":"fixture"}
{"type":"device","ordinal":0,"name":"Fixture GPU","chip":"FIXTURE","compute_capability":[9,0],"sm_count":132}
{"type":"kernel","id":"copy_coalesced","entry":"copy_coalesced","title":"","ladder":"","ladder_rung":0,"source_name":"","ptx_fnv1a64":"","source_fnv1a64":"","grid":[4096,1,1],"block":[256,1,1],"dynamic_shared_bytes":0,"args":["in=f32[n]:random(1)","out=f32[n]","n=i32:1048576"]}
{"type":"metrics","kernel":"copy_coalesced","passes":1,"replay":"kernel","values":{"l1tex__t_bytes.sum":8388608.0,"lts__t_bytes.sum":9000000.0,"dram__bytes_read.sum":1000.0,"dram__bytes_write.sum":2000.0}}
)json");
        file.close();
        QVERIFY(shown.window.profilePanel()->openSessionFile(path));
        const auto& measured = panel.memoryScene()->measured();
        QVERIFY(measured.has_value());
        QVERIFY2(measured->flow.has_value(), measured->note.c_str());
        QCOMPARE(measured->flow->dramBytes, 3000.0);
        QCOMPARE(measured->flow->l1Bytes, 8388608.0);
        // The model's L1 bytes for the same launch: 2^20 loads and 2^20 stores of 4 bytes, 4 bytes a lane.
        QCOMPARE(viz::simulatedFlow(stepper.run().stats).l1Bytes, 2.0 * 1048576 * 4);

        // Ctrl+Shift+M goes back to the warps; the occupancy explorer's block size re-runs the memory view.
        press(panel, Qt::Key_M, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(!panel.memoryViewShown());
        panel.showMemoryView(true);
        QSignalSpy finished(&panel, &viz::ExecutionPanel::runFinished);
        QVERIFY(panel.applyOccupancy(128, 32));
        QVERIFY(finished.wait(kRunTimeoutMs));
        QCOMPARE(panel.stepper()->run().block.x, std::int64_t{128});
        QCOMPARE(panel.stepper()->run().grid.x, std::int64_t{8192}); // the same 2^20 threads
        // 2048 / 128 = 16 blocks resident (the 32-block limit does not bind), 4 warps each.
        QCOMPARE(panel.memoryScene()->timeline()->rows.size(), std::size_t{64});
        QCOMPARE(panel.memoryScene()->timeline()->rows[4].block, 132u);

        // The explorer drives it too: a new block size there re-runs the memory view.
        QSignalSpy rerun(&panel, &viz::ExecutionPanel::runFinished);
        occupancy::OccupancyInput input = shown.window.occupancyPanel()->inputs();
        input.threadsPerBlock = 512;
        shown.window.occupancyPanel()->setInputs(QStringLiteral("sm_90"), input);
        QVERIFY(rerun.wait(kRunTimeoutMs));
        QCOMPARE(panel.stepper()->run().block.x, std::int64_t{512});
        QCOMPARE(panel.stepper()->run().grid.x, std::int64_t{2048});
        // A kernel whose shared memory (and output) is sized for its block is not re-run.
        QVERIFY(openStep(shown, QStringLiteral("warpscope:memory?kernel=reduce_sequential&warp=0&at=0")));
        QVERIFY(!panel.applyOccupancy(128, 32));
        QVERIFY2(panel.statusText().contains(QStringLiteral("sizes its shared memory for blocks of 256 threads")),
                 qPrintable(panel.statusText()));
        QCOMPARE(panel.stepper()->run().block.x, std::int64_t{256});

        // Ctrl+L edits the Execution view's own launch, not the hidden hierarchy launch.
        shown.window.activateWindow();
        QTest::keyClick(&shown.window, Qt::Key_L, Qt::ControlModifier);
        auto* focused = qobject_cast<QLineEdit*>(QApplication::focusWidget());
        QVERIFY(focused);
        QCOMPARE(focused->text(), QStringLiteral("cdiv(n,256)"));
        QVERIFY(panel.isAncestorOf(focused));
    }

    // `warpscope screenshot --view execution` records the default kernel and writes the view;
    // with a step link, at 1280x800 too; `--view memory` with a memory link, in a dark palette.
    void screenshotWritesTheView()
    {
        QTemporaryDir dir;
        for (const QStringList& extra : {QStringList{QStringLiteral("--view"), QStringLiteral("execution")},
                                         QStringList{QStringLiteral("--size"), QStringLiteral("1280x800"), QStringLiteral("--link"),
                                                     QStringLiteral("warpscope:step?kernel=transpose_tiled&warp=0&at=40")},
                                         QStringList{QStringLiteral("--view"), QStringLiteral("memory"), QStringLiteral("--palette"),
                                                     QStringLiteral("dark"), QStringLiteral("--link"),
                                                     QStringLiteral("warpscope:memory?kernel=copy_strided&warp=0&at=12")}}) {
            const QString out = dir.filePath(QStringLiteral("execution.png"));
            QProcess process;
            process.start(QStringLiteral(WARPSCOPE_BINARY),
                          QStringList{QStringLiteral("screenshot"), QStringLiteral("--out"), out} + extra);
            QVERIFY(process.waitForFinished(120000));
            QCOMPARE(process.exitCode(), 0);
            const QImage image(out);
            QVERIFY(!image.isNull());
            QVERIFY(image.width() >= 1280);
        }
        QProcess bad; // an unknown palette is bad input: exit 2 and one line that names it
        bad.start(QStringLiteral(WARPSCOPE_BINARY), {QStringLiteral("screenshot"), QStringLiteral("--out"),
                                                    dir.filePath(QStringLiteral("x.png")), QStringLiteral("--palette"),
                                                    QStringLiteral("grey")});
        QVERIFY(bad.waitForFinished(60000));
        QCOMPARE(bad.exitCode(), 2);
        QVERIFY(bad.readAllStandardError().contains("--palette: unknown palette 'grey' (allowed: system, light, dark)"));
    }
};

QTEST_MAIN(ExecutionTest)
#include "execution_test.moc"
