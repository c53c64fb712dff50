// The window as a user meets it: it opens, every view renders, lesson links drive the figures,
// malformed links show a message and change nothing, hover and click on the canvas report the
// right thread, and `warpscope screenshot` writes a PNG that is not blank.
#include "gui_test_support.h"
#include "hierarchy/hierarchy_layout.h"
#include "lessons/lesson_library.h"
#include "occupancy/occupancy.h"
#include "occupancy/occupancy_panel.h"
#include "hierarchy/hierarchy_scene.h"
#include "placement/placement_scene.h"
#include "window/about_text.h"
#include "window/application_setup.h"
#include "execution/execution_panel.h"
#include "execution/stepper.h"
#include "profile/profile_panel.h"
#include "profile/profile_views.h"
#include "models/models_dock.h"
#include "window/main_window.h"

#include <QAbstractTextDocumentLayout>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QSettings>
#include <QElapsedTimer>
#include <QImage>
#include <QMouseEvent>
#include <QLabel>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QFile>
#include <QFileInfo>
#include <QScrollBar>
#include <QTextBrowser>
#include <QSignalSpy>
#include <QTest>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextTable>
#include <QUrl>
#include <QWheelEvent>

#include <imgui.h>

using namespace warpscope;
using warpscope::app::CanvasView;
using warpscope::app::MainWindow;

namespace {

void settle(QWidget& widget, int milliseconds = 150) { warpscope::gui_test::settle(widget, milliseconds); }

// Under AddressSanitizer (the debug preset): the LD_PRELOAD that keeps Mesa's software GL driver
// loaded until the OpenGL child exits. The driver is dlclose()d at exit, so LeakSanitizer no longer
// sees its globals, which still point at what it allocated: it reports those blocks from an
// "<unknown module>" that no suppression can name. Kept loaded, they are reachable and not
// reported. ASan's runtime must come first in the list. Empty in other builds or without the driver.
QString keepGlDriverLoaded()
{
#if defined(__SANITIZE_ADDRESS__)
    const QString driver = QStringLiteral("/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so");
    QFile maps(QStringLiteral("/proc/self/maps"));
    if (!QFileInfo::exists(driver) || !maps.open(QIODevice::ReadOnly))
        return {};
    for (const QByteArray& line : maps.readAll().split('\n')) {
        const qsizetype at = line.indexOf('/');
        if (at >= 0 && line.contains("/libasan.so"))
            return QString::fromLocal8Bit(line.mid(at)) + QLatin1Char(' ') + driver;
    }
#endif
    return {};
}

// Opens a lesson's link as a click would; empty when it applied without a message, else what went
// wrong. A step link's `at` is checked once the block is recorded, so that is waited for.
QString openWithoutMessage(MainWindow& window, const QString& link)
{
    QSignalSpy recorded(window.executionPanel(), &viz::ExecutionPanel::runFinished);
    if (const auto error = window.openLink(QUrl(link)))
        return link + QStringLiteral(" -> ") + *error;
    if (link.startsWith(QStringLiteral("warpscope:step")) || link.startsWith(QStringLiteral("warpscope:memory?"))) {
        if (!recorded.wait(60000))
            return link + QStringLiteral(" -> not recorded within 60 s");
        QTest::qWait(20);
        if (!window.lastMessage().isEmpty())
            return link + QStringLiteral(" -> ") + window.lastMessage();
    }
    return {};
}

int distinctColours(const QImage& image, const QRect& area)
{
    QSet<QRgb> colours;
    for (int y = area.top(); y <= area.bottom(); y += 2)
        for (int x = area.left(); x <= area.right(); x += 2)
            colours.insert(image.pixel(x, y) & 0xF0F0F0); // ignore anti-aliasing noise
    return static_cast<int>(colours.size());
}

// Share of pixels much darker than the area's typical (background) colour: text on a light page.
double darkShare(const QImage& image, const QRect& area)
{
    long dark = 0, total = 0;
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = area.left(); x <= area.right(); ++x, ++total)
            dark += qGray(image.pixel(x, y)) < 110;
    return total ? static_cast<double>(dark) / total : 0.0;
}

QPoint screenPointOfLane(const viz::HierarchyScene& scene, std::int64_t block, int warp, int lane)
{
    const viz::Rect rect = scene.view().toScreen(scene.layout().laneRect(block, warp, lane));
    return QPoint(static_cast<int>(rect.x + rect.w / 2), static_cast<int>(rect.y + rect.h / 2));
}

} // namespace

class WindowTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    void opensWithLessonsAndPanels()
    {
        MainWindow window({.restoreSettings = false});
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // assets/lessons holds 20 lessons, 01-hierarchy to 20-microscaling.
        QCOMPARE(window.lessons().lessons().size(), 20);
        QVERIFY(window.lessons().problems().isEmpty());
        QCOMPARE(window.currentLessonId(), QStringLiteral("hierarchy"));
        QVERIFY(window.openLesson(QStringLiteral("occupancy")));
        QCOMPARE(window.currentLessonId(), QStringLiteral("occupancy"));
        QVERIFY(!window.openLesson(QStringLiteral("nonexistent")));
        QVERIFY(window.occupancyPanel()->result().has_value());
        QVERIFY(window.windowTitle().contains(QStringLiteral("Occupancy")));
    }

    void eachViewRenders()
    {
        MainWindow window({.restoreSettings = false});
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        for (CanvasView view : {CanvasView::Hierarchy, CanvasView::Placement}) {
            window.showCanvasView(view);
            settle(window);
            const QImage canvas = window.canvasWidget()->grab().toImage();
            QVERIFY(!canvas.isNull());
            QVERIFY2(distinctColours(canvas, canvas.rect()) >= 12,
                     qPrintable(QStringLiteral("view %1 looks blank").arg(static_cast<int>(view))));
        }
        window.focusOccupancy();
        settle(window);
        const QImage panel = window.occupancyPanel()->grab().toImage();
        QVERIFY(distinctColours(panel, panel.rect()) >= 20);
    }

    void linksDriveTheViews()
    {
        MainWindow window({.restoreSettings = false});
        window.show();
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:hierarchy?grid=2,2&block=16,16"))).has_value());
        QCOMPARE(window.launchShape().grid, (launch::Dim3{2, 2, 1}));
        QCOMPARE(window.launchShape().block, (launch::Dim3{16, 16, 1}));
        QCOMPARE(window.canvasView(), CanvasView::Hierarchy);
        QCOMPARE(window.occupancyPanel()->inputs().threadsPerBlock, 256);

        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:placement?arch=sm_90&grid=529&block=512&regs=32"))));
        QCOMPARE(window.canvasView(), CanvasView::Placement);
        QCOMPARE(window.placementScene()->plan().waves, 2);     // 529 blocks, 528 slots
        QCOMPARE(window.placementScene()->plan().tailBlocks, 1);

        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:occupancy?arch=sm_80&block=128&regs=40&static_smem=16K"))));
        const auto& result = window.occupancyPanel()->result();
        QVERIFY(result.has_value());
        QCOMPARE(result->activeBlocksPerSm, 9);
        QCOMPARE(window.occupancyPanel()->arch(), QStringLiteral("sm_80"));

        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:lesson?id=occupancy"))));
        QCOMPARE(window.currentLessonId(), QStringLiteral("occupancy"));
    }

    void malformedLinksShowAMessageAndChangeNothing()
    {
        MainWindow window({.restoreSettings = false});
        window.show();
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:hierarchy?grid=3&block=64"))));
        const launch::LaunchShape before = window.launchShape();
        const auto inputsBefore = window.occupancyPanel()->inputs();
        const char* bad[] = {
            "warpscope:hierarchy?grid=3&block=2048",
            "warpscope:occupancy?regs=999",
            "warpscope:occupancy?arch=sm_42",
            "warpscope:nowhere",
            "warpscope:lesson?id=missing",
            "warpscope:placement?grid=4&colour=red",
            // Valid alone but not on T4: 100 KB dynamic is over its 64 KB opt-in limit.
            "warpscope:occupancy?arch=sm_75&dynamic_smem=100K",
        };
        for (const char* link : bad) {
            const auto message = window.openLink(QUrl(QString::fromLatin1(link)));
            QVERIFY2(message.has_value(), link);
            QVERIFY2(!message->isEmpty(), link);
            QCOMPARE(window.lastMessage(), *message);
            QCOMPARE(window.launchShape(), before);
            QVERIFY2(window.occupancyPanel()->inputs() == inputsBefore, link);
            QCOMPARE(window.occupancyPanel()->arch(), QStringLiteral("sm_90"));
        }
    }

    void everyLessonFigureWorks()
    {
        // Every lesson declares a home figure, and each figure (home and sections) opens without a
        // message, as the links do; the figure a reader reaches is the last one declared before.
        MainWindow window({.restoreSettings = false});
        window.show();
        QVERIFY(window.lessons().problems().isEmpty());
        int sectionFigures = 0;
        for (const app::Lesson& lesson : window.lessons().lessons()) {
            QVERIFY2(!lesson.homeFigure.isEmpty(), qPrintable(lesson.id + QStringLiteral(" has no home figure")));
            QStringList figures{lesson.homeFigure};
            for (const app::LessonSection& section : lesson.sections)
                if (!section.figure.isEmpty())
                    figures << section.figure;
            sectionFigures += static_cast<int>(figures.size()) - 1;
            for (const QString& link : figures) {
                const QString problem = openWithoutMessage(window, link);
                QVERIFY2(problem.isEmpty(), qPrintable(lesson.id + ": " + problem));
            }
            QCOMPARE(app::figureAtSection(lesson, -1), lesson.homeFigure);
            QString expected = lesson.homeFigure;
            for (int i = 0; i < lesson.sections.size(); ++i) {
                if (!lesson.sections[i].figure.isEmpty())
                    expected = lesson.sections[i].figure;
                QCOMPARE(app::figureAtSection(lesson, i), expected);
            }
        }
        QVERIFY(sectionFigures >= 32); // two or more sections a lesson on average
    }

    void openingALessonSetsUpItsFigureInTheCentre()
    {
        MainWindow window({.restoreSettings = false});
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto dock = [&](const char* name) { return window.findChild<QDockWidget*>(QString::fromLatin1(name)); };
        // The roofline lesson: the Profile view's roofline on a recorded H200 session, in the centre.
        QVERIFY(window.openLesson(QStringLiteral("roofline")));
        QCOMPARE(window.canvasView(), CanvasView::DockView);
        QCOMPARE(window.centreDock(), dock("ProfileDock"));
        QVERIFY(window.profilePanel()->isVisible());
        QVERIFY(window.profilePanel()->hasSession());
        QCOMPARE(window.profilePanel()->views()->currentTab(), viz::ProfileViews::Tab::Roofline);
        QVERIFY(window.profilePanel()->width() > 800); // the centre's width, not a dock's
        for (const char* name : {"OccupancyDock", "ProfileDock", "FormatsDock", "PrecisionLabDock", "StudyDock", "ModelsDock"})
            QVERIFY2(dock(name)->isHidden(), name); // docks the figure does not use are closed
        // The streams lesson: the streams model.
        QVERIFY(window.openLesson(QStringLiteral("streams")));
        QCOMPARE(window.centreDock(), dock("ModelsDock"));
        QCOMPARE(window.modelsTab(), viz::ModelsTab::Streams);
        QVERIFY(window.modelsDock()->isVisible());
        // The profile panel went back to its dock, closed.
        QCOMPARE(window.profilePanel()->window(), static_cast<QWidget*>(&window));
        QVERIFY(dock("ProfileDock")->isAncestorOf(window.profilePanel()));
        // The precision lesson: the lab.
        QVERIFY(window.openLesson(QStringLiteral("precision")));
        QCOMPARE(window.centreDock(), dock("PrecisionLabDock"));
        QCOMPARE(window.precisionLabTab(), app::PrecisionLabTab::MixedPrecision);
        QVERIFY(QTest::qWaitFor([&] { return !window.precisionLabBusy(); }, 60000));
        // The stepping lesson: the stepper, with the lesson's kernel recorded, and no Details line about
        // another launch.
        QSignalSpy recorded(window.executionPanel(), &viz::ExecutionPanel::runFinished);
        QVERIFY(window.openLesson(QStringLiteral("stepping")));
        QCOMPARE(window.canvasView(), CanvasView::Execution);
        QVERIFY(recorded.wait(60000));
        QCOMPARE(QString::fromStdString(window.executionPanel()->stepper()->run().kernelName), QStringLiteral("divergence_odd_even"));
        QVERIFY(dock("DetailsDock")->isHidden());
        // The hierarchy lesson: its launch on the canvas, with the Details line.
        QVERIFY(window.openLesson(QStringLiteral("hierarchy")));
        QCOMPARE(window.canvasView(), CanvasView::Hierarchy);
        QCOMPARE(window.launchShape().grid, (launch::Dim3{4, 2, 1}));
        QCOMPARE(window.launchShape().block, (launch::Dim3{96, 1, 1}));
        QVERIFY(dock("DetailsDock")->isVisible());
        // View > the dock of the view in the centre: it goes back to its dock.
        QVERIFY(window.openLesson(QStringLiteral("occupancy")));
        QCOMPARE(window.centreDock(), dock("OccupancyDock"));
        dock("OccupancyDock")->toggleViewAction()->trigger();
        QVERIFY(!window.centreDock());
        QVERIFY(dock("OccupancyDock")->isVisible());
        QVERIFY(dock("OccupancyDock")->isAncestorOf(window.occupancyPanel()));
    }

    void reachingASectionSetsUpItsFigure()
    {
        MainWindow window({.restoreSettings = false});
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openLesson(QStringLiteral("occupancy")));
        QTest::qWait(50);
        QCOMPARE(window.occupancyPanel()->arch(), QStringLiteral("sm_90")); // the home figure: 96 threads, 40 registers
        QCOMPARE(window.occupancyPanel()->inputs().registersPerThread, 40);
        // Scroll the "## Shared memory" heading to the top of the panel, as a reader would.
        QTextBrowser* view = window.lessonView();
        QTextDocument* document = view->document();
        QTextBlock heading;
        for (QTextBlock block = document->begin(); block.isValid(); block = block.next())
            if (block.blockFormat().headingLevel() == 2 && block.text() == QStringLiteral("Shared memory"))
                heading = block;
        QVERIFY(heading.isValid());
        const int top = static_cast<int>(document->documentLayout()->blockBoundingRect(heading).top());
        view->verticalScrollBar()->setValue(top);
        QTRY_COMPARE_WITH_TIMEOUT(window.occupancyPanel()->arch(), QStringLiteral("sm_80"), 3000);
        QCOMPARE(window.occupancyPanel()->inputs().staticSharedBytes, std::size_t{16 * 1024});
        QCOMPARE(window.occupancyPanel()->inputs().threadsPerBlock, 128);
        QVERIFY(window.appliedLessonFigure().contains(QStringLiteral("static_smem=16K")));
        // The reader changes the figure within the section: scrolling inside it keeps that change.
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:occupancy?regs=64"))));
        view->verticalScrollBar()->setValue(top + 10);
        QTest::qWait(400);
        QCOMPARE(window.occupancyPanel()->inputs().registersPerThread, 64);
        // Back at the top: the home figure again.
        view->verticalScrollBar()->setValue(0);
        QTRY_COMPARE_WITH_TIMEOUT(window.occupancyPanel()->arch(), QStringLiteral("sm_90"), 3000);
        QCOMPARE(window.occupancyPanel()->inputs().registersPerThread, 40);
    }

    void theWindowOpensAtALinkOrASession()
    {
        // `warpscope LINK` and `warpscope FILE.wsprof` (the desktop entry's %u): the window applies them.
        {
            MainWindow window({.restoreSettings = false});
            window.show();
            QSignalSpy recorded(window.executionPanel(), &viz::ExecutionPanel::runFinished);
            QVERIFY(!window.openArgument(QStringLiteral("warpscope:memory?kernel=copy_coalesced")));
            QCOMPARE(window.canvasView(), CanvasView::Execution);
            QVERIFY(window.executionPanel()->memoryViewShown());
            QVERIFY(recorded.wait(60000));
        }
        QTemporaryDir dir;
        QFile resource(QStringLiteral(":/recorded/h200/demo-kernels.wsprof"));
        QVERIFY(resource.open(QIODevice::ReadOnly));
        const QString copy = dir.filePath(QStringLiteral("my session.wsprof"));
        QFile file(copy);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(resource.readAll());
        file.close();
        for (const QString& argument : {copy, QUrl::fromLocalFile(copy).toString()}) {
            MainWindow window({.restoreSettings = false});
            window.show();
            QVERIFY2(!window.openArgument(argument), qPrintable(argument));
            QVERIFY(window.profilePanel()->hasSession());
            QCOMPARE(window.canvasView(), CanvasView::DockView);
        }
        // Bad ones: one line, exit 2, before any window opens (the process ends without a display).
        const QString notASession = dir.filePath(QStringLiteral("notes.wsprof"));
        QFile notes(notASession);
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.write("shopping list\n");
        notes.close();
        const std::pair<QString, QString> bad[] = {
            {QStringLiteral("warpscope:nowhere"), QStringLiteral("unknown view 'nowhere'")},
            {QStringLiteral("warpscope:step?kernel=copy_coalesced&block=100000"), QStringLiteral("outside copy_coalesced's grid")},
            {dir.filePath(QStringLiteral("missing.wsprof")), QStringLiteral("cannot open")},
            {notASession, QStringLiteral("not a warpscope session")},
        };
        for (const auto& [argument, why] : bad) {
            QProcess process;
            QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
            environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
            process.setProcessEnvironment(environment);
            process.start(QStringLiteral(WARPSCOPE_BINARY), {argument});
            QVERIFY(process.waitForFinished(60000));
            QCOMPARE(process.exitCode(), 2);
            QStringList lines;
            for (const QString& line : QString::fromUtf8(process.readAllStandardError()).split(QLatin1Char('\n'), Qt::SkipEmptyParts))
                if (line.startsWith(QStringLiteral("warpscope:")))
                    lines << line;
            QCOMPARE(lines.size(), 1);
            QVERIFY2(lines.front().contains(why), qPrintable(lines.front()));
        }
    }

    void everyLessonLinkWorks()
    {
        MainWindow window({.restoreSettings = false});
        window.show();
        static const QRegularExpression linkPattern(QStringLiteral("\\((warpscope:[^)\\s]+)\\)"));
        int links = 0;
        for (const app::Lesson& lesson : window.lessons().lessons()) {
            int inLesson = 0;
            for (const auto& match : linkPattern.globalMatch(lesson.markdown)) {
                const QString problem = openWithoutMessage(window, match.captured(1));
                QVERIFY2(problem.isEmpty(), qPrintable(lesson.id + ": " + problem));
                ++inLesson;
            }
            QVERIFY2(inLesson >= 5, qPrintable(lesson.id + QStringLiteral(" has fewer than 5 figure links")));
            links += inLesson;
        }
        QVERIFY(links >= 10);
    }

    void hoverAndClickReportTheThread()
    {
        MainWindow window({.restoreSettings = false});
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:hierarchy?grid=2,2&block=100")))); // partial warps
        settle(window); // the first frame fits the view
        auto* scene = window.hierarchyScene();
        QWidget* canvas = window.canvasWidget();
        // Zoom in on block 3 (blockIdx (1,1)) so lanes are drawn, then point at warp 1, lane 5.
        for (int i = 0; i < 3; ++i) {
            const QPoint at = screenPointOfLane(*scene, 3, 1, 5);
            QWheelEvent wheel(at, canvas->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                              Qt::NoScrollPhase, false);
            QApplication::sendEvent(canvas, &wheel);
            settle(window, 60);
        }
        QPoint target = screenPointOfLane(*scene, 3, 1, 5);
        QTest::mouseMove(canvas, target);
        settle(window);
        auto hovered = scene->hovered();
        QVERIFY(hovered.has_value());
        QCOMPARE(hovered->blockIdx, (launch::Dim3{1, 1, 0}));
        QCOMPARE(hovered->warpInBlock, 1);
        QCOMPARE(hovered->lane, 5);
        QCOMPARE(hovered->threadIdx, (launch::Dim3{37, 0, 0}));
        QVERIFY(hovered->globalLinear == 3 * 100 + 37);

        // The last warp of a 100-thread block has 4 lanes: lane 9 is idle.
        target = screenPointOfLane(*scene, 3, 3, 9);
        QTest::mouseMove(canvas, target);
        settle(window);
        hovered = scene->hovered();
        QVERIFY(hovered.has_value());
        QVERIFY(hovered->idle);

        target = screenPointOfLane(*scene, 3, 2, 31);
        QTest::mouseClick(canvas, Qt::LeftButton, Qt::NoModifier, target);
        settle(window);
        const auto selected = scene->selected();
        QVERIFY(selected.has_value());
        QCOMPARE(selected->threadInBlock, 95);
        // Qt delivers a quick second click as press, release, double-click, release: the
        // double-click event stands in for the second press and must select too.
        auto send = [&](QEvent::Type type, const QPoint& at) {
            const Qt::MouseButtons buttons = type == QEvent::MouseButtonRelease ? Qt::NoButton : Qt::LeftButton;
            QMouseEvent event(type, at, canvas->mapToGlobal(at), Qt::LeftButton, buttons, Qt::NoModifier);
            QApplication::sendEvent(canvas, &event);
            settle(window, 30);
        };
        const QPoint first = screenPointOfLane(*scene, 3, 0, 7), second = screenPointOfLane(*scene, 3, 0, 8);
        send(QEvent::MouseButtonPress, first);
        send(QEvent::MouseButtonRelease, first);
        QCOMPARE(scene->selected()->threadInBlock, 7);
        send(QEvent::MouseButtonDblClick, second);
        send(QEvent::MouseButtonRelease, second);
        QCOMPARE(scene->selected()->threadInBlock, 8);

        // '0' fits the view again.
        const double zoomed = scene->view().scale();
        QTest::keyClick(canvas, Qt::Key_0);
        settle(window);
        QVERIFY(scene->view().scale() < zoomed);
    }

    void largestGridsRenderInEveryView()
    {
        MainWindow window({.restoreSettings = false});
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // More than 2^31 waves, and more than 2^63 threads: both views must draw and stay usable.
        const char* links[] = {"warpscope:placement?grid=65535,65535,200&block=1024",
                               "warpscope:hierarchy?grid=2147483647,65535,65535&block=1024"};
        for (const char* link : links) {
            QVERIFY2(!window.openLink(QUrl(QString::fromLatin1(link))).has_value(), link);
            for (CanvasView view : {CanvasView::Hierarchy, CanvasView::Placement}) {
                window.showCanvasView(view);
                settle(window, 80);
                const QImage canvas = window.canvasWidget()->grab().toImage();
                QVERIFY2(distinctColours(canvas, canvas.rect()) >= 6, link);
            }
        }
        QVERIFY(window.placementScene()->plan().waves > (1LL << 31));
    }

    void occupancyPanelFollowsTheLaunch()
    {
        MainWindow window({.restoreSettings = false});
        window.show();
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:occupancy?arch=sm_90&block=96&regs=40"))));
        const auto& result = window.occupancyPanel()->result();
        QVERIFY(result.has_value());
        QCOMPARE(result->activeBlocksPerSm, 16);
        QCOMPARE(result->binding.size(), std::size_t(1));
        QCOMPARE(result->binding.front(), occupancy::Limiter::Registers);
        // A block size set in the panel becomes the launch's block.
        occupancy::OccupancyInput input = window.occupancyPanel()->inputs();
        input.threadsPerBlock = 512;
        window.occupancyPanel()->setInputs(QStringLiteral("sm_90"), input);
        QCOMPARE(window.launchShape().block, (launch::Dim3{512, 1, 1}));
    }

    void occupancyExplorerShowsIdleLanesAndOnlyUsefulSuggestions()
    {
        MainWindow window({.restoreSettings = false});
        window.show();
        // 100 threads = 4 warps, the last with 28 idle lanes: 100 % occupancy, 1,600 threads on 2,048 lanes.
        QVERIFY(!window.openLink(QUrl(QStringLiteral(
            "warpscope:occupancy?arch=sm_90&block=100&regs=32&static_smem=0&dynamic_smem=0&carveout=-1&barriers=1"))));
        auto* lanes = window.occupancyPanel()->findChild<QLabel*>(QStringLiteral("occupancyLanes"));
        QVERIFY(lanes != nullptr);
        QVERIFY2(lanes->text().contains(QStringLiteral("1,600 threads on 2,048 lanes")), qPrintable(lanes->text()));
        QVERIFY2(lanes->text().contains(QStringLiteral("28 idle lanes, which still take a warp slot")), qPrintable(lanes->text()));
        // 96 threads x 32 registers on H100: the explorer suggests 128 or 256 threads, never 24 registers.
        QVERIFY(!window.openLink(QUrl(QStringLiteral(
            "warpscope:occupancy?arch=sm_90&block=96&regs=32&static_smem=0&dynamic_smem=0&carveout=-1&barriers=1"))));
        const auto& result = window.occupancyPanel()->result();
        QVERIFY(result.has_value());
        QCOMPARE(result->suggestions.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(result->explanation).contains(QStringLiteral("use 128 or 256 threads per block")));
        QVERIFY(!QString::fromStdString(result->explanation).contains(QStringLiteral("24 registers")));
        QVERIFY(!lanes->text().contains(QStringLiteral("idle")));
    }

    void screenshotCommandWritesANonBlankPng_data()
    {
        QTest::addColumn<QString>("view");
        QTest::addColumn<QString>("lesson");
        QTest::newRow("hierarchy") << "hierarchy" << "hierarchy";
        QTest::newRow("placement") << "placement" << "hierarchy";
        QTest::newRow("occupancy") << "occupancy" << "occupancy";
    }

    void screenshotCommandWritesANonBlankPng()
    {
        QFETCH(QString, view);
        QFETCH(QString, lesson);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("shot.png"));
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(WARPSCOPE_BINARY),
                      {QStringLiteral("screenshot"), QStringLiteral("--out"), out, QStringLiteral("--view"), view,
                       QStringLiteral("--lesson"), lesson, QStringLiteral("--size"), QStringLiteral("1400x900")});
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitCode(), 0);
        const QImage image(out);
        QCOMPARE(image.size(), QSize(1400, 900));
        QVERIFY(distinctColours(image, image.rect()) >= 40);
        // The lesson panel (left) holds text: some, but not mostly, dark pixels.
        const QRect lessonArea(20, 250, 300, 400);
        const double dark = darkShare(image, lessonArea);
        QVERIFY2(dark > 0.01 && dark < 0.5, qPrintable(QStringLiteral("dark share %1").arg(dark)));
    }

    void aScreenshotThatCannotBeWrittenSaysWhy()
    {
        // The PNG goes through QSaveFile: a target it cannot replace (here a folder) is named with the
        // reason, exit 1, and left as it was. (A folder that does not exist is bad input, exit 2.)
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("shot.png"));
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("shot.png")));
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(WARPSCOPE_BINARY), {QStringLiteral("screenshot"), QStringLiteral("--out"), out,
                                                         QStringLiteral("--size"), QStringLiteral("800x600")});
        QVERIFY(process.waitForFinished(60000));
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QCOMPARE(process.exitCode(), 1);
        QVERIFY2(err.contains(QStringLiteral("warpscope screenshot: cannot write ") + out + QStringLiteral(": ")), qPrintable(err));
        QVERIFY(QFileInfo(out).isDir());
    }

    void screenshotUnderXvfbUsesOpenGl()
    {
        const QString xvfbRun = QStandardPaths::findExecutable(QStringLiteral("xvfb-run"));
        if (xvfbRun.isEmpty())
            QSKIP("xvfb-run is not installed (scripts/setup.sh installs it): the OpenGL canvas path is not checked");
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("gl.png"));
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WARPSCOPE_SOFTWARE_CANVAS")); // this case is about the GL path
        if (const QString preload = keepGlDriverLoaded(); !preload.isEmpty())
            env.insert(QStringLiteral("WARPSCOPE_TEST_LD_PRELOAD"), preload); // for the app only, not for Xvfb
        process.setProcessEnvironment(env);
        // Through sh, so a preload reaches the app but not Xvfb; "$@" passes the arguments as they are.
        process.start(xvfbRun, {QStringLiteral("-a"), QStringLiteral("-s"), QStringLiteral("-screen 0 1600x1000x24"),
                                QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                                QStringLiteral("if [ -n \"$WARPSCOPE_TEST_LD_PRELOAD\" ]; then export LD_PRELOAD=\"$WARPSCOPE_TEST_LD_PRELOAD\"; fi; "
                                               "exec \"$@\""),
                                QStringLiteral("sh"), QStringLiteral(WARPSCOPE_BINARY), QStringLiteral("screenshot"),
                                QStringLiteral("--out"), out, QStringLiteral("--size"), QStringLiteral("1400x900")});
        QVERIFY(process.waitForFinished(90000));
        const QString output = QString::fromLocal8Bit(process.readAllStandardOutput());
        QVERIFY2(process.exitCode() == 0, qPrintable(QString::fromLocal8Bit(process.readAllStandardError())));
        QVERIFY2(output.contains(QStringLiteral("canvas OpenGL ")), qPrintable(output));
        const QImage image(out);
        QCOMPARE(image.size(), QSize(1400, 900));
        QVERIFY(distinctColours(image, image.rect()) >= 40);
    }

    // The Details dock describes the Hierarchy and Placement launch, and says so: beside the Execution
    // view, whose kernel has a launch of its own, it must not read as that kernel's launch.
    void detailsNameTheLaunchTheyDescribe()
    {
        MainWindow window({.restoreSettings = false});
        window.resize(1300, 850);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:hierarchy?grid=3,1&block=64,1"))));
        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("DetailsDock"));
        QVERIFY(dock);
        auto* label = qobject_cast<QLabel*>(dock->widget());
        QVERIFY(label);
        QVERIFY2(label->text().startsWith(QStringLiteral("<b>Hierarchy and Placement launch</b> grid (3, 1, 1) × block (64, 1, 1) = 3 blocks, 6 warps, 192 threads.")),
                 qPrintable(label->text()));
    }

    void theFiguresShowTheSteppedLaunch()
    {
        // One launch: after the stepper records copy_coalesced (grid 4096 x block 256), the hierarchy,
        // the placement, the occupancy explorer and the Details line describe that launch, and say so.
        MainWindow window({.restoreSettings = false, .pinnedLayout = true}); // the Details dock stays in view
        window.resize(1366, 768);
        window.show();
        QSignalSpy recorded(window.executionPanel(), &viz::ExecutionPanel::runFinished);
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:step?kernel=copy_coalesced&block=0&warp=0&at=12"))));
        QVERIFY(recorded.wait(60000));
        QCOMPARE(window.launchShape().grid, (launch::Dim3{4096, 1, 1}));
        QCOMPARE(window.launchShape().block, (launch::Dim3{256, 1, 1}));
        QCOMPARE(window.occupancyPanel()->inputs().threadsPerBlock, 256);
        // The registers ptxas gives copy_coalesced for sm_90 (32, the simulator's assumption, without ptxas).
        const viz::StepperRun& run = window.executionPanel()->stepper()->run();
        const int registers = run.ptxas ? run.ptxas->registers : 32;
        QCOMPARE(run.registersPerThread, registers);
        QCOMPARE(window.occupancyPanel()->inputs().registersPerThread, registers);
        QCOMPARE(window.occupancyPanel()->launchNote(), QStringLiteral("The stepped launch's block: copy_coalesced with 256 threads, "
                                                                       "%1 registers per thread and 0 B of shared memory, as the "
                                                                       "Execution view ran it.").arg(registers));
        // On the H100 preset the stepper ran as: 8 blocks of 256 threads and at most 32 registers per SM
        // (2,048 threads, at most 65,536 registers), 132 x 8 = 1,056 slots, so 4,096 blocks take 4 waves.
        QVERIFY(registers <= 32);
        QCOMPARE(window.occupancyPanel()->arch(), QStringLiteral("sm_90"));
        QCOMPARE(window.placementScene()->plan().waves, 4);
        auto* label = qobject_cast<QLabel*>(window.findChild<QDockWidget*>(QStringLiteral("DetailsDock"))->widget());
        QVERIFY2(label->text().startsWith(QStringLiteral("<b>Launch of copy_coalesced (stepped in Execution, shown in Hierarchy, "
                                                         "Placement and Occupancy)</b> grid (4096, 1, 1) × block (256, 1, 1)")),
                 qPrintable(label->text()));
        // A kernel with shared memory: transpose_padded's tile is 32 x 33 floats, 4,224 B of static shared memory.
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:step?kernel=transpose_padded&block=0&warp=0&at=0"))));
        QVERIFY(recorded.wait(60000));
        QCOMPARE(window.occupancyPanel()->inputs().staticSharedBytes, std::size_t{4224});
        QVERIFY2(window.occupancyPanel()->launchNote().contains(QStringLiteral("4,224 B of shared memory, as the Execution view")),
                 qPrintable(window.occupancyPanel()->launchNote()));
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:step?kernel=copy_coalesced&block=0&warp=0&at=12"))));
        QVERIFY(recorded.wait(60000));
        // A launch typed in the bar is the hierarchy's own: the line says it is not the stepped one.
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:hierarchy?grid=3&block=64"))));
        window.showCanvasView(CanvasView::Execution);
        QVERIFY2(label->text().startsWith(QStringLiteral("<b>Hierarchy and Placement launch (not the stepped copy_coalesced, "
                                                         "grid (4096, 1, 1) × block (256, 1, 1), %1 registers per thread)</b>")
                                              .arg(registers)),
                 qPrintable(label->text()));
        // The stepped launch again, but the explorer's registers changed: no longer "shown in Occupancy".
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:hierarchy?grid=4096&block=256"))));
        QVERIFY(label->text().startsWith(QStringLiteral("<b>Launch of copy_coalesced")));
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:occupancy?regs=64"))));
        window.showCanvasView(CanvasView::Execution);
        QVERIFY2(label->text().startsWith(QStringLiteral("<b>Hierarchy and Placement launch (not the stepped")), qPrintable(label->text()));
        QCOMPARE(window.occupancyPanel()->launchNote(), QStringLiteral("Not the stepped launch (copy_coalesced ran blocks of 256 "
                                                                       "threads, %1 registers per thread and 0 B of shared memory): "
                                                                       "these inputs are your own.").arg(registers));
    }

    void layoutPersistsAcrossSessions()
    {
        QSettings().clear();
        {
            MainWindow window({.restoreSettings = true});
            window.resize(1300, 850);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(!window.layoutPinned()); // the lesson leads by default
            window.pinLayoutAction()->trigger(); // View > Pin Layout: the docks are the learner's
            QVERIFY(window.layoutPinned());
            auto* details = window.findChild<QDockWidget*>(QStringLiteral("DetailsDock"));
            QVERIFY(details);
            details->hide();
            window.close(); // saves geometry and dock state
        }
        {
            MainWindow window({.restoreSettings = true});
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            auto* details = window.findChild<QDockWidget*>(QStringLiteral("DetailsDock"));
            QVERIFY(details);
            QVERIFY(details->isHidden());
            QCOMPARE(window.size(), QSize(1300, 850));
            QVERIFY(window.layoutPinned());
            QVERIFY(window.pinLayoutAction()->isChecked());
            // Pinned, a lesson's docked figure stays in its dock.
            QVERIFY(window.openLesson(QStringLiteral("streams")));
            QVERIFY(!window.centreDock());
            auto* models = window.findChild<QDockWidget*>(QStringLiteral("ModelsDock"));
            QVERIFY(models && models->isVisible());
            window.setLayoutPinned(false);
            window.close();
        }
        {
            MainWindow window({.restoreSettings = true});
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(!window.layoutPinned()); // unpinning is remembered too
        }
        QSettings().clear();
    }

    void aboutNamesTheVersionsInUse()
    {
        const QString text = app::aboutText(QStringLiteral("test renderer"));
        QVERIFY(text.contains(QString::fromLatin1(qVersion())));
        QVERIFY(text.contains(QStringLiteral(IMGUI_VERSION)));
        QVERIFY(text.contains(QStringLiteral("cuda_occupancy.h")));
        QVERIFY(text.contains(QStringLiteral("CUDA toolkit")));
        QVERIFY(!text.contains(QStringLiteral("not found at build time")));
    }

    void lessonFormatProblemsAreReported()
    {
        QTemporaryDir dir;
        auto write = [&](const QString& name, const QByteArray& text) {
            QFile file(dir.filePath(name));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(text);
        };
        write(QStringLiteral("01-good.md"), "# Good\n\ntext\n");
        write(QStringLiteral("02-untitled.md"), "no heading here\n");
        write(QStringLiteral("Bad Name.md"), "# Bad\n");
        write(QStringLiteral("03-blank-title.md"), "#  \t\n\ntext\n"); // found by fuzz_lesson: it loaded with an empty title
        // Figures: a good home figure, a section's, one that does not parse, one that is a lesson, a second
        // one in a section, and one inside a code block (an example, not a figure).
        write(QStringLiteral("04-figures.md"),
              "# Figures\n\n{{figure: warpscope:hierarchy?grid=2&block=64}}\n\ntext\n\n"
              "## One\n\n{{figure: warpscope:occupancy?regs=999}}\n\n"
              "## Two\n\n{{figure: warpscope:placement?grid=8}}\n{{figure: warpscope:placement?grid=9}}\n\n"
              "## Three\n\n```\n{{figure: warpscope:nowhere}}\n```\n{{figure: warpscope:lesson?id=good}}\n");
        const auto library = app::LessonLibrary::loadFrom(dir.path());
        QCOMPARE(library.lessons().size(), 2);
        QCOMPARE(library.lessons().front().title, QStringLiteral("Good"));
        QCOMPARE(library.problems().size(), 6);
        const app::Lesson& figures = library.lessons().at(1);
        QCOMPARE(figures.homeFigure, QStringLiteral("warpscope:hierarchy?grid=2&block=64"));
        QCOMPARE(figures.sections.size(), 3);
        QCOMPARE(figures.sections[0].figure, QString()); // refused: regs 999
        QCOMPARE(figures.sections[1].figure, QStringLiteral("warpscope:placement?grid=8"));
        QCOMPARE(figures.sections[2].figure, QString());
        QCOMPARE(app::figureAtSection(figures, 0), figures.homeFigure);
        QCOMPARE(app::figureAtSection(figures, 2), QStringLiteral("warpscope:placement?grid=8"));
        const QString problems = library.problems().join('\n');
        QVERIFY2(problems.contains(QStringLiteral("04-figures.md:9: figure 'warpscope:occupancy?regs=999': ")), qPrintable(problems));
        QVERIFY2(problems.contains(QStringLiteral("04-figures.md:14: a second figure in section 'Two'")), qPrintable(problems));
        QVERIFY2(problems.contains(QStringLiteral("04-figures.md:21: figure 'warpscope:lesson?id=good': a figure is a view")), qPrintable(problems));
        QVERIFY(!problems.contains(QStringLiteral("nowhere")));
        // The panel shows a section's figure as a link, and not the home figure's line.
        const QString shown = app::renderedLessonMarkdown(figures.markdown);
        QVERIFY(!shown.contains(QStringLiteral("{{figure: warpscope:hierarchy")));
        QVERIFY(shown.contains(QStringLiteral("[Set up this section's figure](warpscope:placement?grid=8)")));
        QVERIFY(shown.contains(QStringLiteral("{{figure: warpscope:nowhere}}"))); // code stays as written
        QVERIFY(library.problems().join('\n').contains(QStringLiteral("02-untitled.md: no title")));
        QVERIFY(library.problems().join('\n').contains(QStringLiteral("03-blank-title.md: no title")));
        QVERIFY(library.problems().join('\n').contains(QStringLiteral("NN-id.md")));
    }

    void aNewLessonOpensAtItsTitle()
    {
        MainWindow window({.restoreSettings = false});
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* view = window.findChild<QTextBrowser*>();
        QVERIFY(view);
        QVERIFY(window.openLesson(QStringLiteral("hierarchy")));
        QTest::qWait(20);
        view->verticalScrollBar()->setValue(view->verticalScrollBar()->maximum()); // read to the end
        QVERIFY(view->verticalScrollBar()->value() > 0);
        QVERIFY(window.openLesson(QStringLiteral("multi-gpu")));
        QTest::qWait(20);
        QCOMPARE(view->verticalScrollBar()->value(), 0);
    }

    void rawHtmlInALessonIsShownAsText()
    {
        // A lesson may come from someone else (WARPSCOPE_LESSONS_DIR): its HTML is text, never markup,
        // so it can neither load a local file as an image nor restyle the page.
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("01-hostile.md")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("# Hostile\n\nbefore <b>bold</b> <img src=\"file:///etc/hostname\"> after\n");
        file.close();
        qputenv("WARPSCOPE_LESSONS_DIR", dir.path().toUtf8());
        MainWindow window({.restoreSettings = false});
        qunsetenv("WARPSCOPE_LESSONS_DIR");
        QVERIFY(window.openLesson(QStringLiteral("hostile")));
        auto* view = window.findChild<QTextBrowser*>();
        QVERIFY(view);
        QVERIFY2(view->toPlainText().contains(QStringLiteral("<b>bold</b>")), qPrintable(view->toPlainText()));
        QVERIFY(view->toPlainText().contains(QStringLiteral("<img src=\"file:///etc/hostname\">")));
        QVERIFY(!view->toHtml().contains(QStringLiteral("<img")));
    }

    // The memory lesson shows the memory ladder the probe measured on the learner's GPU, from the
    // open session (a fixture written here, not a measurement), and says how to measure it when no
    // open session has one. It follows the session as it opens, where the reader was.
    void memoryLessonShowsTheLadderMeasuredOnYourGpu()
    {
        MainWindow window({.restoreSettings = false});
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openLesson(QStringLiteral("memory")));
        auto* view = window.findChild<QTextBrowser*>();
        QVERIFY(view);
        QVERIFY2(view->toPlainText().contains(QStringLiteral("no open session has a memory ladder yet")), qPrintable(view->toPlainText()));
        QVERIFY(!view->toPlainText().contains(QStringLiteral("{{measured")));

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ladder.wsprof"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"json({"format":"warpscope-session","version":1,"producer":"gui test fixture (not a measurement)","created":"2026-01-02T03:04:05Z","host":"fixture"}
{"type":"device","ordinal":0,"name":"Fixture GPU","chip":"FIXTURE","compute_capability":[9,0],"sm_count":132}
{"type":"hierarchy","sm_clock_mhz":1980,"levels":[{"level":"shared","latency_cycles":29.6,"latency_ns":14.9,"bandwidth_gbps":0,"footprint_bytes":4096,"method":"fixture"},{"level":"l2","latency_cycles":263,"latency_ns":132.8,"bandwidth_gbps":11000,"footprint_bytes":8388608,"method":"fixture"},{"level":"dram","latency_cycles":702,"latency_ns":354.5,"bandwidth_gbps":4010,"footprint_bytes":1073741824,"method":"fixture"}]}
)json");
        file.close();
        view->verticalScrollBar()->setValue(view->verticalScrollBar()->maximum() / 2);
        const int scroll = view->verticalScrollBar()->value();
        QVERIFY(window.profilePanel()->openSessionFile(path));
        const QString text = view->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("Measured on your GPU (Fixture GPU, by warpscope-probe; SM clock 1,980 MHz")), qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("no open session has a memory ladder yet")));
        // The table's cells, in the order the lesson lists the levels; L1 and the TLB were not measured.
        QTextCursor found = view->document()->find(QStringLiteral("HBM (DRAM)"));
        QVERIFY(!found.isNull());
        QTextTable* table = found.currentTable();
        QVERIFY(table != nullptr);
        QCOMPARE(table->rows(), 4);
        const auto cell = [table](int row, int column) {
            QTextTableCell c = table->cellAt(row, column);
            QTextCursor cursor = c.firstCursorPosition();
            cursor.setPosition(c.lastCursorPosition().position(), QTextCursor::KeepAnchor);
            return cursor.selectedText();
        };
        QCOMPARE(cell(1, 0), QStringLiteral("Shared memory"));
        QCOMPARE(cell(1, 1), QStringLiteral("30")); // 29.6 cycles, whole cycles
        QCOMPARE(cell(1, 3), QStringLiteral("–"));  // not measured
        QCOMPARE(cell(2, 0), QStringLiteral("L2 hit"));
        QCOMPARE(cell(2, 2), QStringLiteral("132.8"));
        QCOMPARE(cell(3, 1), QStringLiteral("702"));
        QCOMPARE(cell(3, 3), QStringLiteral("4,010"));
        QCOMPARE(view->verticalScrollBar()->value(), scroll);
    }
};

int main(int argc, char** argv)
{
    app::prepareApplication();
    QApplication application(argc, argv);
    WindowTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "window_test.moc"
