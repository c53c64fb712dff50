// `warpscope screenshot`: renders the window with a lesson and a view and writes a PNG. Works under
// Xvfb (OpenGL canvas) and with Qt's offscreen platform (software canvas); picks offscreen itself
// when there is no display. `--view profile --session FILE [--baseline FILE]` shows a saved
// profiling session in the profile views; `--view formats` the number-format explorer (set it up
// with --link 'warpscope:formats?format=fp16&value=0.1'); `--view amp|quant|sparsity` a tab of the
// precision lab, grabbed once its background work (training, quantization) has finished;
// `--view streams|pipeline|memory-budget|allreduce` a tab of the performance models.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace warpscope::cli {

struct ScreenshotOptions {
    std::string out;
    std::string lesson;
    std::string view;   // empty: the --link's view, profile with --session, else hierarchy
    std::string size = "1600x1000";
    std::string link;
    std::string session;     // a .wsprof to show in the profile views
    std::string baseline;    // a .wsprof to compare it with
    std::string profileTab;  // empty: a profile link's tab, else metrics
    std::string palette = "system"; // system, light or dark: the window's colours
    std::string timeoutSeconds = "120"; // amp, quant, sparsity: the longest wait for their background work
    std::string progress;    // quiz, cards, advisor: a progress file to show (read, never written)
    std::string question;    // quiz: ID or ID:SEED
    std::string answer;      // quiz: an answer to check before the shot
    bool fitReport = false;  // print what the window cuts at this size (window/fit_report.h)
};

CLI::App* addScreenshotCommand(CLI::App& app, ScreenshotOptions& options);

// Returns the process exit code; bad input -> InputError (exit 2 by the caller).
int runScreenshot(const ScreenshotOptions& options, const char* argv0);

} // namespace warpscope::cli
