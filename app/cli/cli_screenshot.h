// `warpscope screenshot`: renders the window with a lesson and a view and writes a PNG. Works under
// Xvfb (OpenGL canvas) and with Qt's offscreen platform (software canvas); picks offscreen itself
// when there is no display.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace warpscope::cli {

struct ScreenshotOptions {
    std::string out;
    std::string lesson;
    std::string view;   // empty: the --link's view, else hierarchy
    std::string size = "1600x1000";
    std::string link;
};

CLI::App* addScreenshotCommand(CLI::App& app, ScreenshotOptions& options);

// Returns the process exit code; bad input -> InputError (exit 2 by the caller).
int runScreenshot(const ScreenshotOptions& options, const char* argv0);

} // namespace warpscope::cli
