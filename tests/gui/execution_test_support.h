// Shared by the Execution view's GUI tests (gui.execution, gui.execution_hazards): a shown main
// window, step links and playground runs waited for, `warpscope step --json` run as a separate
// process, and the panel's state compared with it field by field.
#pragma once

#include "cli/cli_step.h"
#include "execution/code_view.h"
#include "execution/execution_panel.h"
#include "execution/stepper.h"
#include "window/main_window.h"

#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QSize>
#include <QString>
#include <QStringList>
#include <QTest>
#include <QUrl>

#include <nlohmann/json.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>

namespace warpscope::testing_support {

// The sanitizer presets (debug: ASan + UBSan at -O0; tsan) simulate many times slower than the
// release build: the endless playground kernel reaches its step budget in about 3 s in a release
// build and takes over a minute under ASan. Their waits get room; what is asserted does not change.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr int kSanitizerSlowdown = 10;
#else
constexpr int kSanitizerSlowdown = 1;
#endif
constexpr int kRunTimeoutMs = 60000 * kSanitizerSlowdown;

inline nlohmann::json cliStep(const QString& kernel, const QString& block, int warp, std::uint32_t at)
{
    QProcess process;
    process.start(QStringLiteral(WARPSCOPE_BINARY),
                  {QStringLiteral("step"), kernel, QStringLiteral("--block-index"), block, QStringLiteral("--warp"),
                   QString::number(warp), QStringLiteral("--at"), QString::number(at), QStringLiteral("--json")});
    if (!process.waitForFinished(60000) || process.exitCode() != 0)
        return nullptr;
    return nlohmann::json::parse(process.readAllStandardOutput().toStdString());
}

struct ShownWindow {
    explicit ShownWindow(QSize size = QSize(1600, 1000))
    {
        window.resize(size);
        window.show();
    }
    app::MainWindow window{{.restoreSettings = false}};
    viz::ExecutionPanel* panel() { return window.executionPanel(); }
};

// Opens a step link and waits for the block to be recorded.
inline bool openStep(ShownWindow& shown, const QString& link)
{
    QSignalSpy finished(shown.panel(), &viz::ExecutionPanel::runFinished);
    if (shown.window.openLink(QUrl(link)))
        return false;
    if (!finished.wait(kRunTimeoutMs))
        return false;
    QTest::qWait(20); // the pending step is applied by the same signal
    return finished.first().first().toBool();
}

// Writes `source` to `path` (for the command line to read) and records it as the playground kernel
// with the given launch fields; false when either fails (the panel's lastError() says why).
inline bool runPlayground(viz::ExecutionPanel& panel, const QString& path, const QString& source, const QString& args,
                   const QString& grid, const QString& block, const QString& blockIndex)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(source.toUtf8()) < 0)
        return false;
    file.close();
    if (!panel.selectKernel(QStringLiteral("playground")))
        return false;
    panel.setPlaygroundSource(source);
    panel.setLaunchFields(args, grid, block, blockIndex);
    QSignalSpy finished(&panel, &viz::ExecutionPanel::runFinished);
    panel.run();
    return finished.wait(kRunTimeoutMs) && finished.first().first().toBool();
}

// `warpscope step ARGUMENTS --json`, parsed; null when it did not exit 0.
inline nlohmann::json cliStep(QStringList arguments)
{
    arguments.prepend(QStringLiteral("step"));
    arguments.append(QStringLiteral("--json"));
    QProcess process;
    process.start(QStringLiteral(WARPSCOPE_BINARY), arguments);
    if (!process.waitForFinished(60000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        return nullptr;
    return nlohmann::json::parse(process.readAllStandardOutput().toStdString());
}

// The panel's state for its followed warp, compared field by field with the command line's.
inline void compareWithCli(viz::ExecutionPanel& panel, const nlohmann::json& cli)
{
    const viz::Stepper& stepper = *panel.stepper();
    const std::int32_t warp = stepper.followed();
    const sim::WarpSnapshot snapshot = stepper.replay().warp(warp);
    const sim::RecordedStep* step = stepper.current();
    QCOMPARE(static_cast<std::uint64_t>(snapshot.stepsDone), cli["step"].get<std::uint64_t>());
    if (step) {
        QCOMPARE(cli::maskText(step->executedMask), cli["active_mask"].get<std::string>());
        QCOMPARE(cli::maskText(step->activeMask), cli["path_mask"].get<std::string>());
    }
    QCOMPARE(snapshot.stack.size(), cli["stack"].size());
    for (std::size_t i = 0; i < snapshot.stack.size(); ++i) {
        QCOMPARE(snapshot.stack[i].pc, cli["stack"][i]["pc"].get<int>());
        QCOMPARE(cli::maskText(snapshot.stack[i].mask), cli["stack"][i]["mask"].get<std::string>());
    }
    const ptx::Function& function = *stepper.run().function;
    for (std::size_t r = 0; r < function.registers.size(); ++r) {
        const std::string& name = function.registers[r].name;
        const nlohmann::ordered_json shown =
            cli::registerLanesJson(stepper.replay().registers(warp, static_cast<std::int32_t>(r)), function.registers[r].type,
                                   snapshot.existMask);
        QVERIFY2(nlohmann::json::parse(shown.dump()) == cli["registers"][name], name.c_str());
    }
    if (cli.contains("carry_mask"))
        QCOMPARE(cli::maskText(snapshot.carryFlags), cli["carry_mask"].get<std::string>());
    if (cli["access"].is_null()) {
        QVERIFY(!step || step->access < 0);
    } else {
        QVERIFY(step && step->access >= 0);
        const sim::RecordedAccess& access = stepper.recording().accesses[static_cast<std::size_t>(step->access)];
        QCOMPARE(access.sectors, cli["access"]["sectors"].get<std::uint32_t>());
        QCOMPARE(access.requests, cli["access"]["requests"].get<std::uint32_t>());
        QCOMPARE(access.wavefronts, cli["access"]["wavefronts"].get<std::uint32_t>());
        QCOMPARE(access.bankConflicts, cli["access"]["bank_conflicts"].get<std::uint32_t>());
        QCOMPARE(static_cast<std::size_t>(std::popcount(access.laneMask)), cli["access"]["lanes"].size());
        for (const auto& lane : cli["access"]["lanes"])
            QCOMPARE(access.addresses[lane["lane"].get<std::size_t>()], lane["address"].get<std::uint64_t>());
    }
    // The listings follow the instruction.
    QCOMPARE(panel.sourceView()->currentLine(), cli["line"].is_null() ? 0 : cli["line"].get<int>());
    QCOMPARE(panel.ptxView()->currentLine(), cli["ptx_line"].is_null() ? 0 : cli["ptx_line"].get<int>());
}

// Presses `key` with the focus on the panel.
inline void press(viz::ExecutionPanel& panel, Qt::Key key, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
{
    panel.setFocus();
    QTest::keyClick(&panel, key, modifiers);
}


} // namespace warpscope::testing_support
