// warpscope: with no subcommand, the window; with one, a headless command (see --help).
#include "cli/cli_compile.h"
#include "cli/cli_numerics.h"
#include "cli/cli_occupancy.h"
#include "cli/cli_profile.h"
#include "cli/cli_session.h"
#include "cli/cli_sim.h"
#include "cli/cli_step.h"
#include "cli/cli_study.h"
#include "cli/cli_screenshot.h"
#include "cli/exit_codes.h"
#include "lessons/lesson_library.h"
#include "util/input_error.h"
#include "window/application_setup.h"
#include "window/main_window.h"

#include <CLI/CLI.hpp>

#include <QApplication>

#include <cstring>
#include <iostream>
#include <string_view>

using namespace warpscope;

namespace {

bool isCommandLineInvocation(const char* first)
{
    const std::string_view arg(first);
    // A link or a session file opens the window there (the desktop entry passes them as %u).
    if (arg.starts_with("warpscope:") || arg.starts_with("file:") || arg.ends_with(".wsprof"))
        return false;
    // Qt's own options (-platform, -style, ...) start with one dash and go to the window.
    return !arg.starts_with('-') || arg == "--help" || arg == "-h" || arg == "--version";
}

int runCommandLine(int argc, char** argv)
{
    CLI::App app{"Warpscope: see how GPUs execute code. Without a subcommand, opens the window; 'warpscope LINK' "
                 "opens it at a warpscope: link, 'warpscope FILE.wsprof' with that session.", "warpscope"};
    app.set_version_flag("--version", std::string(WARPSCOPE_VERSION));
    app.require_subcommand(1);
    cli::OccupancyOptions occupancy;
    cli::CompileOptions compile;
    cli::SimOptions sim;
    cli::StepOptions step;
    cli::ScreenshotOptions screenshot;
    cli::ProfileOptions profile;
    cli::NumericsOptions numerics;
    cli::SessionOptions session;
    cli::StudyOptions study;
    CLI::App* occupancyCommand = cli::addOccupancyCommand(app, occupancy);
    CLI::App* compileCommand = cli::addCompileCommand(app, compile);
    CLI::App* simCommand = cli::addSimCommand(app, sim);
    CLI::App* stepCommand = cli::addStepCommand(app, step);
    CLI::App* screenshotCommand = cli::addScreenshotCommand(app, screenshot);
    CLI::App* profileCommand = cli::addProfileCommand(app, profile);
    CLI::App* sessionCommand = cli::addSessionCommand(app, session);
    const cli::NumericsCommands numericsCommands = cli::addNumericsCommand(app, numerics);
    const cli::StudyCommands studyCommands = cli::addStudyCommand(app, study);
    app.footer("Exit codes: 0 success, 1 failure, 2 bad input (one line on stderr says what and what is allowed); "
               "profile also 3 (no usable GPU) and 4 (cancelled).");

    std::string commandName = "warpscope";
    const std::string_view first(argv[1]);
    if (!first.starts_with('-') && first != "occupancy" && first != "compile" && first != "sim" && first != "step" &&
        first != "screenshot" && first != "profile" && first != "session" && first != "numerics" && first != "study") {
        std::cerr << "warpscope: unknown subcommand '" << first
                  << "' (allowed: occupancy, compile, sim, step, profile, session, numerics, study, screenshot; no subcommand opens the window, a warpscope: link or a .wsprof file opens it there)\n";
        return cli::toInt(cli::ExitCode::BadInput);
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        std::cout << app.help(app.get_subcommands().empty() ? "" : app.get_subcommands().front()->get_name());
        return cli::toInt(cli::ExitCode::Ok);
    } catch (const CLI::CallForAllHelp&) {
        std::cout << app.help("", CLI::AppFormatMode::All);
        return cli::toInt(cli::ExitCode::Ok);
    } catch (const CLI::CallForVersion& version) {
        std::cout << version.what() << "\n";
        return cli::toInt(cli::ExitCode::Ok);
    } catch (const CLI::ParseError& error) {
        const auto subcommands = app.get_subcommands();
        const std::string where = subcommands.empty() ? "warpscope" : "warpscope " + subcommands.front()->get_name();
        std::string message = error.what();
        if (auto newline = message.find('\n'); newline != std::string::npos)
            message.resize(newline);
        std::cerr << where << ": " << message << " (see '" << where << " --help')\n";
        return cli::toInt(cli::ExitCode::BadInput);
    }

    try {
        if (occupancyCommand->parsed()) {
            commandName = "warpscope occupancy";
            cli::runOccupancy(occupancy, std::cout);
            return cli::toInt(cli::ExitCode::Ok);
        }
        if (compileCommand->parsed()) {
            commandName = "warpscope compile";
            return cli::runCompile(compile, std::cout, std::cerr);
        }
        if (simCommand->parsed()) {
            commandName = "warpscope sim";
            return cli::runSim(sim, std::cout, std::cerr);
        }
        if (stepCommand->parsed()) {
            commandName = "warpscope step";
            return cli::runStep(step, std::cout, std::cerr);
        }
        if (profileCommand->parsed()) {
            commandName = "warpscope profile";
            return cli::runProfile(profile, std::cout, std::cerr);
        }
        if (sessionCommand->parsed()) {
            commandName = "warpscope session " + sessionCommand->get_subcommands().front()->get_name();
            return cli::runSession(session, std::cout, std::cerr);
        }
        if (numericsCommands.numerics->parsed()) {
            commandName = "warpscope numerics " + numericsCommands.numerics->get_subcommands().front()->get_name();
            return cli::runNumerics(numericsCommands, numerics, std::cout, std::cerr);
        }
        if (studyCommands.study->parsed()) {
            commandName = "warpscope study " + studyCommands.study->get_subcommands().front()->get_name();
            const app::LessonLibrary lessons = app::LessonLibrary::load();
            for (const app::Lesson& lesson : lessons.lessons()) {
                study.advise.shippedLessons.push_back(lesson.id.toStdString());
                study.advise.lessonTitles[lesson.id.toStdString()] = lesson.title.toStdString();
            }
            return cli::runStudy(studyCommands, study, std::cout, std::cerr);
        }
        if (screenshotCommand->parsed()) {
            commandName = "warpscope screenshot";
            return cli::runScreenshot(screenshot, argv[0]);
        }
    } catch (const InputError& error) {
        std::cerr << commandName << ": " << error.what() << "\n";
        return cli::toInt(cli::ExitCode::BadInput);
    } catch (const std::exception& error) {
        std::cerr << commandName << ": " << error.what() << "\n";
        return cli::toInt(cli::ExitCode::Failure);
    }
    return cli::toInt(cli::ExitCode::BadInput);
}

int runWindow(int argc, char** argv)
{
    app::prepareApplication();
    QApplication application(argc, argv);
    app::configureApplication();
    const QStringList leftover = QCoreApplication::arguments().mid(1);
    if (leftover.size() > 1) {
        std::cerr << "warpscope: one link or session file at a time ('" << leftover.at(1).toStdString()
                  << "' is one too many; see 'warpscope --help')\n";
        return cli::toInt(cli::ExitCode::BadInput);
    }
    app::MainWindow window({.restoreSettings = true});
    // `warpscope 'warpscope:memory?kernel=...'` or `warpscope FILE.wsprof`: checked as the window
    // checks it, before the window opens.
    if (!leftover.isEmpty())
        if (const auto error = window.openArgument(leftover.front())) {
            std::cerr << "warpscope: " << error->toStdString() << "\n";
            return cli::toInt(cli::ExitCode::BadInput);
        }
    window.show();
    return QApplication::exec();
}

} // namespace

int main(int argc, char** argv)
{
    if (argc > 1 && isCommandLineInvocation(argv[1]))
        return runCommandLine(argc, argv);
    return runWindow(argc, argv);
}
