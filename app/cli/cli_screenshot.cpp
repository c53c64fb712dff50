#include "cli/cli_screenshot.h"

#include "cli/exit_codes.h"
#include "canvas/canvas_widget.h"
#include "common/export_actions.h"
#include "execution/execution_panel.h"
#include "models/models_dock.h"
#include "links/view_link.h"
#include "window/fit_report.h"
#include "util/input_error.h"
#include "util/parse.h"
#include "window/application_setup.h"
#include "window/main_window.h"
#include "window/save_image.h"
#include "precision/amp/amp_panel.h"
#include "profile/profile_views.h"
#include "precision/quant/quant_panel.h"
#include "precision/sparsity/sparsity_panel.h"
#include "profile/profile_panel.h"
#include "profile/session_file.h"
#include "study/flashcard_panel.h"
#include "study/progress.h"
#include "study/quiz.h"
#include "study/quiz_panel.h"
#include "study/study_dock.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QFileInfo>
#include <QImage>
#include <QThread>
#include <QUrl>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <utility>
#include <cstdio>
#include <stdexcept>
#include <functional>
#include <iostream>
#include <optional>
#include <tuple>

namespace warpscope::cli {

CLI::App* addScreenshotCommand(CLI::App& app, ScreenshotOptions& options)
{
    CLI::App* command = app.add_subcommand(
        "screenshot", "Render the main window with a lesson and a view to a PNG, SVG or PDF, then exit (works without a display).");
    command->add_option("--out", options.out, "file to write; its suffix picks the format: .png, .svg or .pdf")->required();
    command->add_option("--lesson", options.lesson, "lesson id to show (hierarchy, occupancy, ...)");
    command->add_flag("--fit-report", options.fitReport,
                      "also print what the window cuts at this size: controls out of sight, text cut with an ellipsis, "
                      "areas that scroll sideways, a figure too small to read (one 'fit:' line each)");
    command->add_option("--view", options.view,
                        "hierarchy, placement, occupancy, profile, formats, amp, quant, sparsity, execution, memory, quiz, cards, "
                        "advisor, streams, pipeline, memory-budget or allreduce (default: the --link's view, profile with "
                        "--session, else hierarchy)");
    command->add_option("--size", options.size, "window size WxH in logical pixels, 640x480..7680x4320")
        ->capture_default_str();
    command->add_option("--link", options.link,
                        "a warpscope: link to apply first, e.g. 'warpscope:hierarchy?grid=2,2&block=16,16'");
    command->add_option("--session", options.session,
                        "a saved profiling session (.wsprof) to show in the profile views (or to compare with in the memory view)");
    command->add_option("--baseline", options.baseline, "a second session the profile views compare with (needs --session)");
    command->add_option("--timeout", options.timeoutSeconds,
                        "amp, quant, sparsity, execution, memory: seconds to wait for the training, quantization or recording (1..3600)")
        ->capture_default_str();
    command->add_option("--palette", options.palette,
                        "system, light or dark: render with the platform's colours or a light or dark Fusion palette")
        ->capture_default_str();
    command->add_option("--progress", options.progress, "quiz, cards, advisor: a study progress file to show (it is not changed)");
    command->add_option("--question", options.question, "quiz: the question to show, ID or ID:SEED (e.g. shared-memory.stride:3)");
    command->add_option("--answer", options.answer, "quiz: an answer to check before the shot");
    command->add_option("--profile-tab", options.profileTab,
                        "the profile view shown: metrics, bandwidth, roofline, prediction or session (default: a profile "
                        "link's tab, else metrics)");
    return command;
}

namespace {

// Runs the event loop while `busy` holds; false (and one line on stderr) past `timeoutSeconds`.
bool waitWhile(const std::function<bool()>& busy, int timeoutSeconds, const char* what)
{
    QElapsedTimer waited;
    waited.start();
    while (busy()) {
        if (waited.elapsed() > timeoutSeconds * 1000LL) {
            std::cerr << "warpscope screenshot: " << what << " after " << timeoutSeconds << " s (raise --timeout)\n";
            return false;
        }
        QApplication::processEvents(QEventLoop::AllEvents, 50);
        QThread::msleep(10);
    }
    return true;
}

void settle(QWidget& window, int milliseconds)
{
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < milliseconds) {
        QApplication::processEvents(QEventLoop::AllEvents, 20);
        window.update();
        QThread::msleep(10);
    }
}

// The precision lab's tab for a view name or a link's view; nullopt for the other views.
std::optional<app::PrecisionLabTab> labTab(const std::string& view, std::optional<app::LinkView> linkView)
{
    if (view == "amp" || (view.empty() && linkView == app::LinkView::Amp))
        return app::PrecisionLabTab::MixedPrecision;
    if (view == "quant" || (view.empty() && linkView == app::LinkView::Quant))
        return app::PrecisionLabTab::Quantization;
    if (view == "sparsity" || (view.empty() && linkView == app::LinkView::Sparsity))
        return app::PrecisionLabTab::Sparsity;
    return std::nullopt;
}

// The performance models' tab for a view name or a link's view; nullopt for the other views.
std::optional<viz::ModelsTab> modelsTab(const std::string& view, std::optional<app::LinkView> linkView)
{
    const std::pair<const char*, app::LinkView> views[] = {{"streams", app::LinkView::Streams},
                                                           {"pipeline", app::LinkView::Pipeline},
                                                           {"memory-budget", app::LinkView::MemoryBudget},
                                                           {"allreduce", app::LinkView::AllReduce}};
    const viz::ModelsTab tabs[] = {viz::ModelsTab::Streams, viz::ModelsTab::Pipeline, viz::ModelsTab::MemoryBudget,
                                   viz::ModelsTab::AllReduce};
    for (std::size_t i = 0; i < std::size(views); ++i)
        if (view == views[i].first || (view.empty() && linkView == views[i].second))
            return tabs[i];
    return std::nullopt;
}

} // namespace

int runScreenshot(const ScreenshotOptions& options, const char* argv0)
{
    // Validate everything that needs no window first: bad input fails fast, even without a display.
    const std::size_t cross = options.size.find('x');
    if (cross == std::string::npos)
        throw InputError("--size: '" + options.size + "' is not WxH (for example 1600x1000)");
    const int width = static_cast<int>(parseInteger(options.size.substr(0, cross), "--size width", 640, 7680));
    const int height = static_cast<int>(parseInteger(options.size.substr(cross + 1), "--size height", 480, 4320));
    if (!options.view.empty() && options.view != "hierarchy" && options.view != "placement" &&
        options.view != "occupancy" && options.view != "profile" && options.view != "formats" && options.view != "amp" &&
        options.view != "quant" && options.view != "sparsity" && options.view != "execution" && options.view != "memory" &&
        options.view != "quiz" && options.view != "cards" && options.view != "advisor" && options.view != "streams" &&
        options.view != "pipeline" && options.view != "memory-budget" && options.view != "allreduce")
        throw InputError("--view: unknown view '" + options.view +
                         "' (allowed: hierarchy, placement, occupancy, profile, formats, amp, quant, sparsity, execution, memory, "
                         "quiz, cards, advisor, streams, pipeline, memory-budget, allreduce)");
    const bool studyView = options.view == "quiz" || options.view == "cards" || options.view == "advisor";
    if ((!options.progress.empty() || !options.question.empty() || !options.answer.empty()) && !studyView)
        throw InputError("--progress, --question and --answer go with --view quiz, cards or advisor");
    if ((!options.question.empty() || !options.answer.empty()) && options.view != "quiz")
        throw InputError("--question and --answer go with --view quiz");
    std::string questionId = options.question;
    std::uint64_t questionSeed = 1;
    if (const std::size_t colon = options.question.find(':'); colon != std::string::npos) {
        questionId = options.question.substr(0, colon);
        questionSeed = static_cast<std::uint64_t>(parseInteger(options.question.substr(colon + 1), "--question seed", 0, INT64_MAX));
    }
    if (!questionId.empty())
        (void)study::askQuestion(questionId, questionSeed); // an unknown id is bad input before any window
    std::string progressCopy;
    if (!options.progress.empty()) {
        QFile file(QString::fromStdString(options.progress));
        if (!file.open(QIODevice::ReadOnly))
            throw InputError("--progress: cannot read '" + options.progress + "'");
        const QByteArray text = file.readAll();
        (void)study::readProgress(std::string_view(text.constData(), static_cast<std::size_t>(text.size())), options.progress);
        progressCopy = text.toStdString();
    }
    const int timeoutSeconds = static_cast<int>(parseInteger(options.timeoutSeconds, "--timeout", 1, 3600));
    if (options.palette != "system" && options.palette != "light" && options.palette != "dark")
        throw InputError("--palette: unknown palette '" + options.palette + "' (allowed: system, light, dark)");
    // The link's own syntax and values need no window either (lesson ids and limits that depend on
    // the current state are checked when the window applies it).
    std::optional<app::LinkView> linkView;
    if (!options.link.empty()) {
        try {
            linkView = app::parseViewLink(options.link).view;
        } catch (const InputError& error) {
            throw InputError("--link: " + std::string(error.what()));
        }
    }
    const bool profileLink = linkView == app::LinkView::Profile;
    const bool profileView = options.view == "profile" || (options.view.empty() && (!options.session.empty() || profileLink));
    if (!options.session.empty() && !profileView && options.view != "memory")
        throw InputError("--session: shown only in --view profile or memory (not '" + options.view + "')");
    if (!options.baseline.empty() && options.session.empty())
        throw InputError("--baseline: needs --session (the session to compare with the baseline)");
    const auto profileTab = viz::ProfileViews::tabFromName(QString::fromStdString(options.profileTab.empty() ? "metrics" : options.profileTab));
    if (!profileTab)
        throw InputError("--profile-tab: unknown view '" + options.profileTab +
                         "' (allowed: metrics, bandwidth, roofline, prediction, session)");
    // A file that is not a session at all is bad input; a damaged one is shown with its problems.
    std::optional<app::LoadedSession> session, baseline;
    for (auto [path, flag, target] : {std::tuple{&options.session, "--session", &session},
                                      std::tuple{&options.baseline, "--baseline", &baseline}}) {
        if (path->empty())
            continue;
        *target = app::loadSessionFile(QString::fromStdString(*path));
        if (!(*target)->headerSeen)
            throw InputError(std::string(flag) + ": " +
                             ((*target)->problems.isEmpty() ? *path : (*target)->problems.front().toStdString()));
    }
    const QFileInfo out(QString::fromStdString(options.out));
    if (out.fileName().isEmpty() || !out.absoluteDir().exists())
        throw InputError("--out: folder of '" + options.out + "' does not exist");
    const auto format = viz::figureFormatForPath(out.fileName());
    if (!format)
        throw InputError("--out: unknown image format '." + out.suffix().toStdString() + "' in '" + options.out +
                         "' (allowed: .png, .svg, .pdf)");

    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    int qtArgc = 1;
    char* qtArgv[] = {const_cast<char*>(argv0), nullptr};
    app::prepareApplication();
    QApplication application(qtArgc, qtArgv);
    app::configureApplication();
    if (options.palette != "system") {
        // Fusion's own palette is light; the dark one is built from it, as a dark desktop theme would.
        QApplication::setStyle(QStringLiteral("Fusion"));
        QPalette palette = QApplication::style()->standardPalette();
        if (options.palette == "dark") {
            const QColor window(45, 45, 48), base(30, 30, 32), text(225, 225, 230), disabled(128, 128, 132);
            palette.setColor(QPalette::Window, window);
            palette.setColor(QPalette::WindowText, text);
            palette.setColor(QPalette::Base, base);
            palette.setColor(QPalette::AlternateBase, window);
            palette.setColor(QPalette::Text, text);
            palette.setColor(QPalette::Button, window);
            palette.setColor(QPalette::ButtonText, text);
            palette.setColor(QPalette::ToolTipBase, base);
            palette.setColor(QPalette::ToolTipText, text);
            palette.setColor(QPalette::PlaceholderText, disabled);
            palette.setColor(QPalette::Highlight, QColor(42, 110, 190));
            palette.setColor(QPalette::HighlightedText, Qt::white);
            palette.setColor(QPalette::Link, QColor(110, 170, 240));
            palette.setColor(QPalette::Disabled, QPalette::Text, disabled);
            palette.setColor(QPalette::Disabled, QPalette::WindowText, disabled);
            palette.setColor(QPalette::Disabled, QPalette::ButtonText, disabled);
        }
        QApplication::setPalette(palette);
    }

    // A study view works on a copy of --progress, so the shot never changes the learner's file.
    QTemporaryDir progressDir;
    QString progressFile;
    if (!progressCopy.empty()) {
        progressFile = progressDir.filePath(QStringLiteral("progress.json"));
        QFile copy(progressFile);
        if (!copy.open(QIODevice::WriteOnly) || copy.write(QByteArray::fromStdString(progressCopy)) < 0)
            throw std::runtime_error("cannot copy the progress file to " + progressFile.toStdString());
    }
    app::MainWindow window({.restoreSettings = false, .progressFile = progressFile});
    window.resize(width, height);
    if (!options.lesson.empty() && !window.openLesson(QString::fromStdString(options.lesson)))
        throw InputError("--lesson: unknown lesson '" + options.lesson + "' (allowed: " +
                         window.lessons().ids().join(QStringLiteral(", ")).toStdString() + ")");
    // A lesson alone shows the figure it sets up (its home figure), as the window does.
    const bool lessonFigure = !options.lesson.empty() && options.view.empty() && options.link.empty() && options.session.empty();
    bool formatsView = options.view == "formats";
    if (!options.link.empty()) {
        if (const auto error = window.openLink(QUrl(QString::fromStdString(options.link))))
            throw InputError("--link: " + error->toStdString());
        formatsView = formatsView || (options.view.empty() && linkView == app::LinkView::Formats);
    }
    const bool memoryView = options.view == "memory" || (options.view.empty() && linkView == app::LinkView::Memory);
    const bool executionView = memoryView || options.view == "execution" ||
                               (options.view.empty() && linkView == app::LinkView::Step);
    if (options.view == "placement" || options.view == "occupancy")
        window.showCanvasView(app::CanvasView::Placement);
    else if (executionView)
        window.showCanvasView(app::CanvasView::Execution);
    else if (options.view == "hierarchy" || (options.link.empty() && !lessonFigure))
        window.showCanvasView(app::CanvasView::Hierarchy);
    if (executionView)
        window.executionPanel()->showMemoryView(memoryView);
    if (session)
        window.profilePanel()->openSessionFile(QString::fromStdString(options.session));
    if (baseline)
        window.profilePanel()->openBaselineFile(QString::fromStdString(options.baseline));
    if (!options.profileTab.empty() || (!profileLink && !lessonFigure))
        window.profilePanel()->views()->showTab(*profileTab); // else the link's tab, or the view's first
    const auto models = modelsTab(options.view, linkView);
    window.show();
    if (options.view == "occupancy")
        window.focusOccupancy();
    if (profileView)
        window.focusProfiler();
    if (formatsView)
        window.focusFormats(); // again once shown: docks take their sizes from the shown window
    if (models)
        window.focusModels(*models); // again once shown, as the others
    if (const auto tab = labTab(options.view, linkView)) {
        window.focusPrecisionLab(*tab);
        settle(window, 200);
        // Without a link that started it, start the tab's work here (amp: the ticked modes).
        if (*tab == app::PrecisionLabTab::MixedPrecision && !window.ampPanel()->busy() && !window.ampPanel()->results())
            window.ampPanel()->run();
        if (*tab == app::PrecisionLabTab::Quantization && !window.quantPanel()->busy() && !window.quantPanel()->result())
            window.quantPanel()->recompute();
        if (*tab == app::PrecisionLabTab::Sparsity)
            window.sparsityPanel()->runIfNeeded();
        if (!waitWhile([&] { return window.precisionLabBusy(); }, timeoutSeconds, "the precision lab was still working"))
            return toInt(ExitCode::Failure);
    }
    if (studyView) {
        const app::StudyTab tab = options.view == "quiz" ? app::StudyTab::Quiz : options.view == "cards" ? app::StudyTab::Flashcards : app::StudyTab::Advisor;
        window.focusStudy(tab);
        if (!questionId.empty())
            window.studyDock()->quiz()->showQuestion(QString::fromStdString(questionId), questionSeed);
        if (!options.answer.empty())
            if (const auto error = window.studyDock()->quiz()->submit(QString::fromStdString(options.answer)))
                std::cerr << "warpscope screenshot: " << error->toStdString() << "\n";
        if (tab == app::StudyTab::Flashcards)
            window.studyDock()->flashcards()->reveal();
    }
    if (executionView) {
        // Without a step link, record the default kernel's first block.
        if (!window.executionPanel()->busy() && !window.executionPanel()->stepper())
            window.executionPanel()->run();
        if (!waitWhile([&] { return window.executionPanel()->busy(); }, timeoutSeconds, "the simulator was still recording"))
            return toInt(ExitCode::Failure);
        QApplication::processEvents();
        if (!window.lastMessage().isEmpty())
            std::cerr << "warpscope screenshot: " << window.lastMessage().toStdString() << "\n";
    }
    if (lessonFigure) {
        settle(window, 200);
        if (!waitWhile([&] { return window.executionPanel()->busy() || window.precisionLabBusy(); }, timeoutSeconds,
                       "the lesson's figure was still being set up"))
            return toInt(ExitCode::Failure);
        QApplication::processEvents();
    }
    settle(window, 700);
    if (options.fitReport) {
        const QStringList problems = app::fitProblems(window, window.centralFigure());
        for (const QString& problem : problems)
            std::cout << "fit: " << problem.toStdString() << "\n";
        std::cout << "fit: " << problems.size() << " problem(s) at " << window.width() << "x" << window.height() << "\n";
    }

    if (*format != viz::FigureFormat::Png) {
        // The same drawing as the window's "Save Figure As…", with the plots as vectors.
        if (const auto error = viz::saveFigure(window, out.absoluteFilePath(), window.windowTitle())) {
            std::cerr << "warpscope screenshot: " << error->toStdString() << "\n";
            return toInt(ExitCode::Failure);
        }
        std::cout << "wrote " << out.absoluteFilePath().toStdString() << " (" << window.width() << "x" << window.height()
                  << ", " << out.suffix().toLower().toStdString() << ", platform " << QApplication::platformName().toStdString()
                  << ", canvas " << viz::canvasRendererDescription().toStdString() << ")\n";
        return toInt(ExitCode::Ok);
    }
    const QImage image = window.grab().toImage();
    if (const auto error = app::savePngAtomically(image, out.absoluteFilePath())) {
        std::cerr << "warpscope screenshot: " << error->toStdString() << "\n";
        return toInt(ExitCode::Failure);
    }
    std::cout << "wrote " << out.absoluteFilePath().toStdString() << " (" << image.width() << "x" << image.height()
              << ", platform " << QApplication::platformName().toStdString() << ", canvas "
              << viz::canvasRendererDescription().toStdString() << ")\n";
    return toInt(ExitCode::Ok);
}

} // namespace warpscope::cli
