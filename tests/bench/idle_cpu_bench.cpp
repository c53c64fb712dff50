// What an idle window costs: each of the 17 views `warpscope screenshot --view` takes is opened in a
// fresh main window on Qt's offscreen platform (so the canvas uses the software renderer), set up
// as the screenshot command sets it up, left to finish its own work (a recording, the precision
// lab's runs) and to settle, and then the process's CPU time (every thread, getrusage) is measured
// over an idle period while the event loop runs as it does for a user. Target: under 1 % of one
// core per view (issue 27). Also prints which widgets painted and which objects' timers fired while
// idle, so a view over the target names its culprit.
//
// Usage: warpscope_idle_bench [--seconds 10] [--settle 3] [--size 1280x800] [--target 1.0] [VIEW...]
// (offscreen when there is no display; under xvfb-run, the OpenGL canvas on Mesa)
// Exits 1 when a view is over the target, 2 on bad arguments.
#include "canvas/canvas_widget.h"
#include "execution/execution_panel.h"
#include "models/models_dock.h"
#include "precision/amp/amp_panel.h"
#include "precision/quant/quant_panel.h"
#include "precision/sparsity/sparsity_panel.h"
#include "sim/block_recording.h"
#include "study/study_dock.h"
#include "window/application_setup.h"
#include "window/main_window.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QEventLoop>
#include <QObject>
#include <QTimer>

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

using namespace warpscope;

namespace {

const std::vector<std::string> kViews = {"hierarchy", "placement", "occupancy", "profile",  "formats",  "amp",
                                         "quant",     "sparsity",  "execution", "memory",   "quiz",     "cards",
                                         "advisor",   "streams",   "pipeline",  "memory-budget", "allreduce"};

double processCpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
}

// Runs the event loop as QApplication::exec does, for `milliseconds`: no polling of our own.
void runEventLoop(int milliseconds)
{
    QEventLoop loop;
    QTimer::singleShot(milliseconds, &loop, &QEventLoop::quit);
    loop.exec();
}

// Runs the event loop until `busy` is false (checked every 100 ms); false past `timeoutMs`.
bool waitWhile(const std::function<bool()>& busy, int timeoutMs)
{
    QElapsedTimer waited;
    waited.start();
    while (busy()) {
        if (waited.elapsed() > timeoutMs)
            return false;
        runEventLoop(100);
    }
    return true;
}

// Counts paint and timer events per receiver while enabled: who keeps the CPU busy.
class EventCounter : public QObject {
public:
    bool counting = false;
    std::map<std::string, int> paints, timers;

    bool eventFilter(QObject* receiver, QEvent* event) override
    {
        if (!counting)
            return false;
        if (event->type() == QEvent::Paint)
            ++paints[describe(receiver)];
        else if (event->type() == QEvent::Timer)
            ++timers[describe(receiver)];
        return false;
    }

    static std::string top(const std::map<std::string, int>& counts)
    {
        std::vector<std::pair<int, std::string>> sorted;
        for (const auto& [name, count] : counts)
            sorted.emplace_back(count, name);
        std::sort(sorted.rbegin(), sorted.rend());
        std::string text;
        for (std::size_t i = 0; i < sorted.size() && i < 3; ++i)
            text += (i ? ", " : "") + sorted[i].second + " x" + std::to_string(sorted[i].first);
        return text.empty() ? "none" : text;
    }

private:
    static std::string describe(const QObject* object)
    {
        std::string name = object->metaObject()->className();
        if (!object->objectName().isEmpty())
            name += " '" + object->objectName().toStdString() + "'";
        if (const QObject* parent = object->parent())
            name += " in " + std::string(parent->metaObject()->className());
        return name;
    }
};

// The set-up of app/cli/cli_screenshot.cpp for one view, without a link, session or progress file.
bool setUpView(app::MainWindow& window, const std::string& view)
{
    const bool memory = view == "memory";
    const bool execution = memory || view == "execution";
    if (view == "placement" || view == "occupancy")
        window.showCanvasView(app::CanvasView::Placement);
    else if (execution)
        window.showCanvasView(app::CanvasView::Execution);
    else
        window.showCanvasView(app::CanvasView::Hierarchy);
    if (execution)
        window.executionPanel()->showMemoryView(memory);
    window.show();
    if (view == "occupancy")
        window.focusOccupancy();
    else if (view == "profile")
        window.focusProfiler();
    else if (view == "formats")
        window.focusFormats();
    const std::pair<const char*, viz::ModelsTab> models[] = {{"streams", viz::ModelsTab::Streams},
                                                             {"pipeline", viz::ModelsTab::Pipeline},
                                                             {"memory-budget", viz::ModelsTab::MemoryBudget},
                                                             {"allreduce", viz::ModelsTab::AllReduce}};
    for (const auto& [name, tab] : models)
        if (view == name)
            window.focusModels(tab);
    if (view == "amp" || view == "quant" || view == "sparsity") {
        window.focusPrecisionLab(view == "amp" ? app::PrecisionLabTab::MixedPrecision
                                 : view == "quant" ? app::PrecisionLabTab::Quantization
                                                   : app::PrecisionLabTab::Sparsity);
        runEventLoop(200);
        if (view == "amp" && !window.ampPanel()->busy() && !window.ampPanel()->results())
            window.ampPanel()->run();
        if (view == "quant" && !window.quantPanel()->busy() && !window.quantPanel()->result())
            window.quantPanel()->recompute();
        if (view == "sparsity")
            window.sparsityPanel()->runIfNeeded();
        if (!waitWhile([&] { return window.precisionLabBusy(); }, 300'000))
            return false;
    }
    if (view == "quiz" || view == "cards" || view == "advisor")
        window.focusStudy(view == "quiz" ? app::StudyTab::Quiz : view == "cards" ? app::StudyTab::Flashcards : app::StudyTab::Advisor);
    if (execution) {
        if (!window.executionPanel()->busy() && !window.executionPanel()->stepper())
            window.executionPanel()->run();
        if (!waitWhile([&] { return window.executionPanel()->busy(); }, 300'000))
            return false;
        // Standing on a load, as after F8: the memory view animates that access's packets once.
        window.executionPanel()->step(sim::StepUnit::Memory, true);
    }
    return true;
}

int usage(const char* message)
{
    std::fprintf(stderr, "warpscope_idle_bench: %s\nusage: warpscope_idle_bench [--seconds S] [--settle S] [--size WxH] "
                         "[--target PERCENT] [VIEW...]\n", message);
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    double seconds = 10.0, settleSeconds = 3.0, target = 1.0;
    int width = 1280, height = 800;
    std::vector<std::string> views;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if (arg == "--seconds" && hasValue)
            seconds = std::atof(argv[++i]);
        else if (arg == "--settle" && hasValue)
            settleSeconds = std::atof(argv[++i]);
        else if (arg == "--target" && hasValue)
            target = std::atof(argv[++i]);
        else if (arg == "--size" && hasValue) {
            if (std::sscanf(argv[++i], "%dx%d", &width, &height) != 2 || width < 640 || height < 480)
                return usage("--size: expected WxH, at least 640x480");
        } else if (std::find(kViews.begin(), kViews.end(), arg) != kViews.end())
            views.push_back(arg);
        else
            return usage(("unknown argument '" + arg + "' (views: hierarchy, placement, ..., allreduce)").c_str());
    }
    if (seconds <= 0.0 || settleSeconds < 0.0)
        return usage("--seconds must be positive and --settle not negative");
    if (views.empty())
        views = kViews;
    // Offscreen unless there is a display (under xvfb-run the canvas is the OpenGL one, on Mesa).
    if (!std::getenv("QT_QPA_PLATFORM") && !std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);

    app::prepareApplication();
    int qtArgc = 1;
    char* qtArgv[] = {argv[0], nullptr};
    QApplication application(qtArgc, qtArgv);
    app::configureApplication();
    EventCounter counter;
    application.installEventFilter(&counter);

    std::printf("Idle CPU per view: %dx%d, platform %s, settle %.1f s, measured over %.1f s (target %.2f %%)\n", width,
                height, qPrintable(QApplication::platformName()), settleSeconds, seconds, target);
    std::printf("%-14s %9s %8s  %s\n", "view", "CPU ms", "CPU %", "paints / timers while idle (top 3)");
    bool allUnder = true;
    for (const std::string& view : views) {
        auto window = std::make_unique<app::MainWindow>(app::MainWindow::Options{.restoreSettings = false, .progressFile = {}});
        window->resize(width, height);
        if (!setUpView(*window, view)) {
            std::printf("%-14s  its work did not finish in 300 s\n", view.c_str());
            allUnder = false;
            continue;
        }
        runEventLoop(static_cast<int>(settleSeconds * 1000));
        counter.paints.clear();
        counter.timers.clear();
        counter.counting = true;
        QElapsedTimer wall;
        wall.start();
        const double before = processCpuSeconds();
        runEventLoop(static_cast<int>(seconds * 1000));
        const double cpu = processCpuSeconds() - before;
        const double elapsed = static_cast<double>(wall.nsecsElapsed()) * 1e-9;
        counter.counting = false;
        const double percent = 100.0 * cpu / elapsed;
        allUnder = allUnder && percent < target;
        std::printf("%-14s %9.1f %7.2f%%  paints: %s; timers: %s\n", view.c_str(), cpu * 1000.0, percent,
                    EventCounter::top(counter.paints).c_str(), EventCounter::top(counter.timers).c_str());
        std::fflush(stdout);
        window.reset();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }
    std::printf("canvas: %s\n", qPrintable(viz::canvasRendererDescription()));
    return allUnder ? 0 : 1;
}
