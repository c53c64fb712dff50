// Views that fit and text that is never cut (issue 14, section 3), at the 1280 x 800 the review used:
// dock tabs show whole titles; no lesson scrolls sideways (code blocks wrap); the Details dock is its
// two lines and folds to its title; the hierarchy figure is fitted between its launch overlay and its
// legend, never under them; the mixed-precision figures keep their legends outside the curves, in
// colours that stay apart for colour-blind readers; INT8's 255 grid levels are a strip under the
// counts; an empty figure's note wraps to its width and says when a run is under way; the placement
// overlay shows every line above the SMs; the occupancy explorer stacks its fields and plots in a
// narrow dock instead of cutting them at the edge; the docks on the right keep one width whichever is
// raised; lesson names never scroll sideways; the 2:4 pattern's caption is whole and its plots begin on
// the first screen; the number-format table fits its dock; the execution view's reconvergence stack
// stays inside its column.
#include "gui_test_support.h"
#include "canvas/view_transform.h"
#include "common/plot_style.h"
#include "execution/execution_panel.h"
#include "execution/execution_scene.h"
#include "hierarchy/hierarchy_scene.h"
#include "memory/memory_scene.h"
#include "models/memory_budget_panel.h"
#include "models/models_dock.h"
#include "occupancy/occupancy_panel.h"
#include "placement/placement_scene.h"
#include "profile/profile_panel.h"
#include "profile/profile_views.h"
#include "precision/amp/amp_panel.h"
#include "precision/amp/amp_plots.h"
#include "precision/quant/quant_panel.h"
#include "precision/quant/quant_plots.h"
#include "precision/sparsity/sparsity_pattern_view.h"
#include "study/study_dock.h"
#include "window/application_setup.h"
#include "window/main_window.h"
#include "window/tooltip_wrapper.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFontMetrics>
#include <QHelpEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QScrollArea>
#include <QScrollBar>
#include <QStandardPaths>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QTabBar>
#include <QTableWidget>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTextLayout>
#include <QTextOption>
#include <QToolTip>
#include <QUrl>

#include <array>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <utility>
#include <vector>

using namespace warpscope;
using warpscope::app::MainWindow;
using numerics::AmpMode;

namespace {

constexpr int kWorkTimeoutMs = 60000;

void settle(QWidget& widget, int milliseconds = 200) { warpscope::gui_test::settle(widget, milliseconds); }

using warpscope::gui_test::saveShot;

struct SmallWindow {
    SmallWindow()
    {
        window.resize(1280, 800);
        window.show();
        QTest::qWaitForWindowExposed(&window);
        settle(window);
    }
    MainWindow window{{.restoreSettings = false, .pinnedLayout = true}}; // the docks as arranged: these tests measure them
};

// The execution view with its default kernel recorded and a frame drawn (warps or the memory
// hierarchy); null if the recording did not finish.
viz::ExecutionPanel* recordedExecution(SmallWindow& shown, bool memoryView)
{
    shown.window.showCanvasView(app::CanvasView::Execution);
    viz::ExecutionPanel* panel = shown.window.executionPanel();
    if (panel->stepper() == nullptr)
        panel->run();
    if (!QTest::qWaitFor([&] { return panel->stepper() != nullptr; }, kWorkTimeoutMs))
        return nullptr;
    panel->showMemoryView(memoryView);
    settle(shown.window, 400);
    shown.window.grab(); // a frame of the canvas
    settle(shown.window, 200);
    return panel;
}

// CIE L*a*b* of an sRGB colour, after a colour-vision simulation in linear RGB (none, or Viénot,
// Brettel and Mollon 1999 for deuteranopia and protanopia).
enum class Vision { Normal, Deuteranopia, Protanopia };

std::array<double, 3> labOf(const QColor& colour, Vision vision)
{
    auto linear = [](double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
    double r = linear(colour.redF()), g = linear(colour.greenF()), b = linear(colour.blueF());
    if (vision == Vision::Deuteranopia) {
        const double rg = 0.29275 * r + 0.70725 * g;
        b = -0.02234 * r + 0.02234 * g + b;
        r = g = rg;
    } else if (vision == Vision::Protanopia) {
        const double rg = 0.11238 * r + 0.88762 * g;
        b = 0.00401 * r - 0.00401 * g + b;
        r = g = rg;
    }
    const double x = 0.4124 * r + 0.3576 * g + 0.1805 * b, y = 0.2126 * r + 0.7152 * g + 0.0722 * b,
                 z = 0.0193 * r + 0.1192 * g + 0.9505 * b;
    auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; };
    return {116.0 * f(y) - 16.0, 500.0 * (f(x / 0.95047) - f(y)), 200.0 * (f(y) - f(z / 1.08883))};
}

double deltaE(const QColor& a, const QColor& b, Vision vision)
{
    const auto p = labOf(a, vision), q = labOf(b, vision);
    return std::sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2]));
}

} // namespace

class LayoutTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    // QMainWindow's dock tab bars elided "Profile" to "P…": they now keep whole titles.
    void dockTabsShowWholeTitles()
    {
        SmallWindow shown;
        const QList<QTabBar*> bars = shown.window.findChildren<QTabBar*>(QString(), Qt::FindDirectChildrenOnly);
        QVERIFY(!bars.isEmpty());
        QStringList titles;
        for (QTabBar* bar : bars) {
            QCOMPARE(bar->elideMode(), Qt::ElideNone);
            QVERIFY(bar->usesScrollButtons());
            for (int i = 0; i < bar->count(); ++i)
                titles << bar->tabText(i);
        }
        for (const char* title : {"Occupancy", "Profile", "Number Formats", "Precision Lab", "Study", "Performance Models"})
            QVERIFY2(titles.contains(QString::fromLatin1(title)), title);
        saveShot(shown.window, QStringLiteral("layout-1280"));
    }

    // Every lesson fits its panel's width at 1280 x 800: no horizontal scroll bar, code blocks wrapped.
    void noLessonScrollsSideways()
    {
        SmallWindow shown;
        auto* view = shown.window.findChild<QDockWidget*>(QStringLiteral("LessonsDock"))->findChild<QTextBrowser*>();
        QVERIFY(view != nullptr);
        int codeBlocks = 0;
        for (const app::Lesson& lesson : shown.window.lessons().lessons()) {
            QVERIFY(shown.window.openLesson(lesson.id));
            QApplication::processEvents();
            for (QTextBlock block = view->document()->begin(); block.isValid(); block = block.next()) {
                QVERIFY(!block.blockFormat().nonBreakableLines());
                codeBlocks += block.blockFormat().hasProperty(QTextFormat::BlockCodeFence) ? 1 : 0;
            }
            QVERIFY2(view->horizontalScrollBar()->maximum() == 0,
                     qPrintable(QStringLiteral("%1 scrolls sideways by %2 px").arg(lesson.id).arg(view->horizontalScrollBar()->maximum())));
        }
        QVERIFY(codeBlocks > 10); // the lessons do hold code blocks
    }

    // The Details dock holds its two lines, not about 100 px; folded, only its title bar.
    void detailsFitsItsLinesAndFolds()
    {
        SmallWindow shown;
        auto* dock = shown.window.findChild<QDockWidget*>(QStringLiteral("DetailsDock"));
        QVERIFY(dock != nullptr && dock->titleBarWidget() != nullptr);
        const int line = QFontMetrics(dock->font()).lineSpacing();
        const int title = dock->titleBarWidget()->height();
        QVERIFY2(dock->height() <= title + 3 * line + 12, qPrintable(QString::number(dock->height())));
        shown.window.setDetailsFolded(true);
        settle(shown.window);
        QVERIFY(shown.window.detailsFolded());
        QVERIFY2(dock->height() <= title + 4, qPrintable(QString::number(dock->height())));
        shown.window.setDetailsFolded(false);
        settle(shown.window);
        QVERIFY(!shown.window.detailsFolded());
        QVERIFY(dock->height() >= title + 2 * line);
    }

    // The launch overlay and the legend sit outside the figure's area; every block is inside it.
    void hierarchyFigureStaysClearOfItsOverlays()
    {
        SmallWindow shown;
        QVERIFY(!shown.window.openLink(QUrl(QStringLiteral("warpscope:hierarchy?grid=2,2&block=16,16"))).has_value());
        settle(shown.window, 400);
        const viz::HierarchyScene* scene = shown.window.hierarchyScene();
        const viz::Rect area = scene->lastFigureArea();
        QVERIFY(scene->overlayBottom() > 0);
        QVERIFY2(scene->overlayBottom() <= area.y, qPrintable(QStringLiteral("%1 > %2").arg(scene->overlayBottom()).arg(area.y)));
        for (std::int64_t block = 0; block < 4; ++block) {
            const viz::Rect rect = scene->view().toScreen(scene->layout().blockRect(block));
            QVERIFY2(rect.y >= area.y - 0.5 && rect.bottom() <= area.bottom() + 0.5,
                     qPrintable(QStringLiteral("block %1 at %2..%3 outside %4..%5").arg(block).arg(rect.y).arg(rect.bottom()).arg(area.y).arg(area.bottom())));
        }
        saveShot(shown.window, QStringLiteral("layout-hierarchy"));
    }

    // The loss and loss-scale legends are rows of their own under the axes; the modes' colours stay
    // apart in normal, deuteranope and protanope vision, FP16 dynamic against BF16 most of all.
    void mixedPrecisionLegendsAndColours()
    {
        SmallWindow shown;
        QVERIFY(!shown.window.openLink(QUrl(QStringLiteral("warpscope:amp?modes=fp32,fp16,fp16-dynamic,bf16&steps=300&growth=20&seed=1"))));
        QTRY_VERIFY_WITH_TIMEOUT(!shown.window.precisionLabBusy(), kWorkTimeoutMs);
        settle(shown.window);
        viz::AmpPanel* panel = shown.window.ampPanel();
        QVERIFY(panel->lossPlot()->graphFor(AmpMode::BF16) != nullptr);
        for (QCustomPlot* plot : {static_cast<QCustomPlot*>(panel->lossPlot()), static_cast<QCustomPlot*>(panel->scalePlot())}) {
            QVERIFY(plot->legend->layout() == plot->plotLayout());
            QVERIFY(!plot->legend->outerRect().intersects(plot->axisRect()->rect()));
        }
        saveShot(shown.window, QStringLiteral("layout-amp"));
        const AmpMode modes[] = {AmpMode::FP32, AmpMode::FP16, AmpMode::FP16Static, AmpMode::FP16Dynamic, AmpMode::BF16};
        for (bool dark : {false, true}) {
            QPalette palette;
            palette.setColor(QPalette::Base, dark ? QColor(0x2a, 0x2a, 0x2a) : QColor(Qt::white));
            for (Vision vision : {Vision::Normal, Vision::Deuteranopia, Vision::Protanopia}) {
                QVERIFY(deltaE(viz::ampModeColor(AmpMode::FP16Dynamic, palette), viz::ampModeColor(AmpMode::BF16, palette), vision) >= 60.0);
                for (std::size_t i = 0; i < std::size(modes); ++i)
                    for (std::size_t j = i + 1; j < std::size(modes); ++j)
                        QVERIFY2(deltaE(viz::ampModeColor(modes[i], palette), viz::ampModeColor(modes[j], palette), vision) >= 10.0,
                                 qPrintable(QStringLiteral("modes %1 and %2").arg(i).arg(j)));
            }
        }
    }

    // INT8's 255 levels: one tick each, all under the counts' zero line, where they cannot hide a tail.
    void int8GridLevelsAreAStripUnderTheCounts()
    {
        SmallWindow shown;
        QVERIFY(!shown.window.openLink(QUrl(QStringLiteral("warpscope:quant?dist=gaussian&format=int8&scheme=symmetric&granularity=tensor&calib=max&n=20000&seed=1&rows=1"))));
        QTRY_VERIFY_WITH_TIMEOUT(!shown.window.precisionLabBusy(), kWorkTimeoutMs);
        viz::QuantValuePlot* plot = shown.window.quantPanel()->valuePlot();
        const QCPGraph* grid = plot->gridGraph();
        QCOMPARE(grid->dataCount(), 255);
        for (auto it = grid->data()->constBegin(); it != grid->data()->constEnd(); ++it)
            QVERIFY(it->value < 0 && it->value > plot->yAxis->range().lower);
        QVERIFY(grid->pen().widthF() < 1.0);
        QVector<double> ticks;
        QVector<QString> labels;
        plot->yAxis->ticker()->generate(plot->yAxis->range(), QLocale(), QLatin1Char('g'), 6, ticks, nullptr, &labels);
        for (double tick : ticks)
            QVERIFY(tick >= 0); // no negative counts on the axis
        saveShot(shown.window, QStringLiteral("layout-quant"));
    }

    // In a narrow figure the empty loss-scale note breaks into lines that fit; during a run it says so.
    // The empty figure's axes keep the figure's width (an empty legend under them once shrank them).
    void emptyFigureNotesWrapAndFollowTheRun()
    {
        viz::AmpScalePlot plot;
        plot.resize(320, 260);
        plot.show();
        QTest::qWaitForWindowExposed(&plot);
        plot.setRuns(nullptr);
        plot.replot();
        QVERIFY2(plot.axisRect()->outerRect().width() >= plot.width() * 0.85,
                 qPrintable(QStringLiteral("%1 of %2").arg(plot.axisRect()->outerRect().width()).arg(plot.width())));
        QCPItemText* note = nullptr;
        for (int i = 0; i < plot.itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(plot.item(i)); text != nullptr && text->visible())
                note = text;
        QVERIFY(note != nullptr);
        QVERIFY(plot.noteText().startsWith(QStringLiteral("The loss scale")));
        const QFontMetrics metrics(note->font());
        const QStringList lines = note->text().split(QLatin1Char('\n'));
        QVERIFY(lines.size() >= 2);
        for (const QString& line : lines)
            QVERIFY2(metrics.horizontalAdvance(line) <= plot.axisRect()->width(), qPrintable(line));
        plot.setRunning(true);
        QVERIFY(plot.noteText().startsWith(QStringLiteral("Training")));
        plot.setRunning(false);
        QVERIFY(plot.noteText().startsWith(QStringLiteral("The loss scale")));
    }

    // The placement overlay grows to its wrapped lines (the model note with the occupancy sentence was
    // cut at "Blocks per SM from"), and the SMs are fitted below it.
    void placementOverlayShowsEveryLineAboveTheSms()
    {
        SmallWindow shown;
        QVERIFY(!shown.window.openLink(QUrl(QStringLiteral("warpscope:placement?grid=1000&block=100"))).has_value());
        settle(shown.window, 400);
        const viz::PlacementScene* scene = shown.window.placementScene();
        // The scene repaints until the SMs stop moving below the overlay: a few frames, which a
        // sanitized build draws slowly.
        QTRY_VERIFY_WITH_TIMEOUT(!scene->animating(), kWorkTimeoutMs);
        QVERIFY(scene->overlayBottom() > 0);
        QVERIFY(!scene->overlayClipped());
        const viz::Rect area = scene->lastSmArea();
        QVERIFY2(scene->overlayBottom() <= area.y, qPrintable(QStringLiteral("%1 > %2").arg(scene->overlayBottom()).arg(area.y)));
        for (int sm = 0; sm < scene->layout().smCount(); ++sm) {
            const viz::Rect rect = scene->view().toScreen(scene->layout().smRect(sm));
            QVERIFY2(rect.y >= area.y - 0.5, qPrintable(QStringLiteral("SM %1 at %2 above %3").arg(sm).arg(rect.y).arg(area.y)));
        }
        saveShot(shown.window, QStringLiteral("layout-placement"));
    }

    // Beside the stepper the occupancy dock is narrow: its fields and plots stack in one column, so
    // nothing in it is wider than the dock (the second column and the explanation were cut at its edge).
    void occupancyExplorerStacksInANarrowDock()
    {
        SmallWindow shown;
        shown.window.showCanvasView(app::CanvasView::Execution);
        settle(shown.window, 400);
        viz::OccupancyPanel* panel = shown.window.occupancyPanel();
        QVERIFY(panel->isVisible());
        QVERIFY2(panel->width() < 470, qPrintable(QString::number(panel->width())));
        auto* inner = panel->findChild<QScrollArea*>();
        QVERIFY(inner != nullptr && inner->widget() != nullptr);
        QVERIFY2(inner->widget()->width() <= inner->viewport()->width(),
                 qPrintable(QStringLiteral("%1 > %2").arg(inner->widget()->width()).arg(inner->viewport()->width())));
        for (const QLabel* label : inner->widget()->findChildren<QLabel*>())
            if (label->isVisible())
                QVERIFY2(label->mapTo(inner->widget(), QPoint(label->width(), 0)).x() <= inner->viewport()->width(),
                         qPrintable(label->text().left(60)));
        saveShot(shown.window, QStringLiteral("layout-occupancy-narrow"));
        // Widened again: two columns of plots.
        shown.window.focusOccupancy();
        settle(shown.window, 400);
        QVERIFY(panel->width() >= 470);
        const QList<QCustomPlot*> plots = inner->widget()->findChildren<QCustomPlot*>();
        QCOMPARE(plots.size(), 4);
        QCOMPARE(plots.at(0)->y(), plots.at(1)->y());
    }

    // The roofline's note under the plot is whole at 1280 x 800 (its last line, on the missing L2
    // roof, was cut off): the part under the plot is at least as tall as the note wrapped to its width.
    void rooflineNoteIsWhole()
    {
        SmallWindow shown;
        shown.window.focusProfiler();
        app::ProfilePanel* panel = shown.window.profilePanel();
        int demo = -1;
        for (int i = 0; i < panel->recordedSessions().size(); ++i)
            if (panel->recordedSessions().at(i).path.endsWith(QStringLiteral("h200/demo-kernels.wsprof")))
                demo = i;
        QVERIFY(demo >= 0 && panel->openRecordedSession(demo));
        shown.window.profilePanel()->views()->showTab(viz::ProfileViews::Tab::Roofline);
        settle(shown.window, 300);
        auto* note = shown.window.findChild<QLabel*>(QStringLiteral("rooflineNote"));
        QVERIFY(note != nullptr && note->isVisible());
        QVERIFY(note->text().contains(QStringLiteral("No L2 roof")));
        QVERIFY2(note->height() >= note->heightForWidth(note->width()),
                 qPrintable(QStringLiteral("%1 < %2").arg(note->height()).arg(note->heightForWidth(note->width()))));
        saveShot(shown.window, QStringLiteral("layout-roofline"));
    }

    // Raised by menu or link, every dock on the right has the same width (the occupancy dock was
    // narrower than the others from 1600 px, so the dock jumped between views), at 1280 x 800 too.
    void rightDocksKeepOneWidth()
    {
        for (const QSize size : {QSize(1280, 800), QSize(1600, 1000)}) {
            MainWindow window{{.restoreSettings = false, .pinnedLayout = true}};
            window.resize(size);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            settle(window);
            const std::vector<std::pair<const char*, std::function<void()>>> raise = {
                {"OccupancyDock", [&] { window.focusOccupancy(); }},
                {"ProfileDock", [&] { window.focusProfiler(); }},
                {"FormatsDock", [&] { window.focusFormats(); }},
                {"PrecisionLabDock", [&] { window.focusPrecisionLab(app::PrecisionLabTab::Quantization); }},
                {"StudyDock", [&] { window.focusStudy(app::StudyTab::Flashcards); }},
                {"ModelsDock", [&] { window.focusModels(viz::ModelsTab::Streams); }},
                {"OccupancyDock", [&] { window.focusOccupancy(); }},
            };
            std::vector<int> widths;
            for (const auto& [name, focus] : raise) {
                focus();
                settle(window, 150);
                auto* dock = window.findChild<QDockWidget*>(QString::fromLatin1(name));
                QVERIFY2(dock != nullptr && dock->isVisible(), name);
                widths.push_back(dock->width());
            }
            QVERIFY(window.rightDockWidth() >= 480);
            for (std::size_t i = 0; i < widths.size(); ++i)
                QVERIFY2(std::abs(widths[i] - widths.front()) <= 2,
                         qPrintable(QStringLiteral("%1 at %2x%3: %4 px, the occupancy dock %5 px")
                                        .arg(QString::fromLatin1(raise[i].first)).arg(size.width()).arg(size.height())
                                        .arg(widths[i]).arg(widths.front())));
        }
    }

    // The lesson list shows at least five names, never scrolls sideways, and a name too long for the
    // panel ends in "…" with the whole name on hover.
    void lessonNamesFitTheirList()
    {
        SmallWindow shown;
        auto* list = shown.window.findChild<QListWidget*>(QStringLiteral("lessonList"));
        QVERIFY(list != nullptr && list->isVisible());
        QCOMPARE(list->horizontalScrollBarPolicy(), Qt::ScrollBarAlwaysOff);
        QVERIFY(!list->horizontalScrollBar()->isVisible());
        QCOMPARE(list->textElideMode(), Qt::ElideRight);
        QCOMPARE(list->count(), static_cast<int>(shown.window.lessons().lessons().size()));
        for (int i = 0; i < list->count(); ++i) {
            QCOMPARE(list->item(i)->toolTip(), shown.window.lessons().lessons().at(i).title);
            // A row is as wide as the list, never as its name (a longer name is elided, not cut).
            QVERIFY2(list->visualItemRect(list->item(i)).right() < list->viewport()->width(), qPrintable(list->item(i)->text()));
        }
        QCOMPARE(list->horizontalScrollBar()->maximum(), 0);
        const int rows = list->viewport()->height() / list->visualItemRect(list->item(0)).height();
        QVERIFY2(rows >= 5, qPrintable(QString::number(rows)));
        saveShot(shown.window, QStringLiteral("layout-lessons"));
    }

    // The 2:4 tab in the narrow dock: the caption under the pattern in whole lines, and the two
    // plots side by side under it, beginning on the first screen (they were a screen further down).
    void sparsityCaptionIsWholeAndItsPlotsOnTheFirstScreen()
    {
        SmallWindow shown;
        shown.window.focusPrecisionLab(app::PrecisionLabTab::Sparsity);
        QTRY_VERIFY_WITH_TIMEOUT(!shown.window.precisionLabBusy(), kWorkTimeoutMs);
        settle(shown.window, 300);
        auto* pattern = shown.window.findChild<viz::SparsityPatternView*>();
        QVERIFY(pattern != nullptr && pattern->isVisible() && pattern->pattern() != nullptr);
        const QRect caption = pattern->captionRect();
        const QFontMetrics metrics(viz::plotFont(pattern->font())); // the font the figure draws in
        QVERIFY2(metrics.horizontalAdvance(pattern->caption()) > caption.width(), "the caption is meant to need lines here");
        QVERIFY(caption.right() < pattern->width());
        QVERIFY2(caption.bottom() < pattern->height(), qPrintable(QStringLiteral("%1 >= %2").arg(caption.bottom()).arg(pattern->height())));
        QVERIFY(caption.height() >= metrics.boundingRect(QRect(0, 0, caption.width(), 1 << 20), Qt::TextWordWrap, pattern->caption()).height());
        QVERIFY(caption.height() >= 2 * metrics.height());
        auto* bytes = shown.window.findChild<QWidget*>(QStringLiteral("sparsityBytesPlot"));
        auto* accuracy = shown.window.findChild<QWidget*>(QStringLiteral("sparsityAccuracyPlot"));
        QVERIFY(bytes != nullptr && accuracy != nullptr);
        QCOMPARE(bytes->mapTo(&shown.window, QPoint()).y(), accuracy->mapTo(&shown.window, QPoint()).y());
        QScrollArea* scroll = nullptr;
        for (QWidget* w = bytes->parentWidget(); w != nullptr && scroll == nullptr; w = w->parentWidget())
            scroll = qobject_cast<QScrollArea*>(w);
        QVERIFY(scroll != nullptr);
        QCOMPARE(scroll->horizontalScrollBar()->maximum(), 0);
        const int top = bytes->mapTo(scroll->viewport(), QPoint()).y();
        QVERIFY2(top + 60 <= scroll->viewport()->height(),
                 qPrintable(QStringLiteral("plots begin at %1 of %2").arg(top).arg(scroll->viewport()->height())));
        QVERIFY(pattern->cellSize() >= 7); // still a figure to click in
        saveShot(shown.window, QStringLiteral("layout-sparsity"));
    }

    // The number-format table fits its dock at 1280 x 800: no sideways scrolling, every header whole,
    // and each value (FP32's 0.1 in 28 digits) in as many lines as it needs, none cut.
    void formatTableFitsItsDock()
    {
        SmallWindow shown;
        shown.window.focusFormats();
        settle(shown.window, 300);
        auto* table = shown.window.findChild<QTableWidget*>(QStringLiteral("formatComparison"));
        QVERIFY(table != nullptr && table->isVisible());
        QHeaderView* header = table->horizontalHeader();
        int total = 0;
        for (int c = 0; c < table->columnCount(); ++c) {
            const QString title = table->horizontalHeaderItem(c)->text();
            QVERIFY2(header->sectionSize(c) >= header->fontMetrics().horizontalAdvance(title) + 8,
                     qPrintable(QStringLiteral("%1: %2 px").arg(title).arg(header->sectionSize(c))));
            total += header->sectionSize(c);
        }
        QVERIFY2(total <= table->viewport()->width(), qPrintable(QStringLiteral("%1 > %2").arg(total).arg(table->viewport()->width())));
        QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
        for (int r = 0; r < table->rowCount(); ++r)
            for (int c = 0; c < table->columnCount(); ++c) {
                // Laid out as the delegates do (the stored value breaks anywhere, the rest at spaces),
                // in the cell less its two 3 px text margins.
                const QTableWidgetItem* item = table->item(r, c);
                QTextLayout layout(item->text(), item->font());
                QTextOption option;
                option.setWrapMode(table->horizontalHeaderItem(c)->text() == QStringLiteral("Stored value") ? QTextOption::WrapAnywhere : QTextOption::WrapAtWordBoundaryOrAnywhere);
                layout.setTextOption(option);
                layout.beginLayout();
                qreal height = 0;
                for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
                    line.setLineWidth(header->sectionSize(c) - 6);
                    height += line.height();
                }
                layout.endLayout();
                const QRect needed(0, 0, header->sectionSize(c), static_cast<int>(std::ceil(height)));
                QVERIFY2(needed.height() <= table->rowHeight(r),
                         qPrintable(QStringLiteral("row %1 column %2 '%3' needs %4 px of %5").arg(r).arg(c).arg(item->text())
                                        .arg(needed.height()).arg(table->rowHeight(r))));
            }
        QVERIFY(table->y() + table->height() <= table->parentWidget()->height());
        saveShot(shown.window, QStringLiteral("layout-formats"));
    }

    // The execution view at 1280 x 800: the reconvergence stack's column beside the memory access is
    // narrow; its header, entries and mask cells stay inside it (they ran past its edge, cut).
    void executionStackFitsItsColumn()
    {
        SmallWindow shown;
        viz::ExecutionPanel* panel = recordedExecution(shown, false);
        QVERIFY(panel != nullptr);
        const viz::ExecutionScene* scene = panel->scene();
        QVERIFY2(scene->lastStackColumnWidth() > 0, "the stack was drawn");
        QVERIFY2(scene->lastStackColumnWidth() < 32 * 6 + 120, qPrintable(QString::number(scene->lastStackColumnWidth()))); // narrow here
        QVERIFY2(scene->lastStackOverflow() <= 0.5f, qPrintable(QStringLiteral("%1 px past a column of %2")
                                                                     .arg(scene->lastStackOverflow()).arg(scene->lastStackColumnWidth())));
        // The header ("step 0 of 136") ran into the next line's caption, and the legend and the
        // register caption ran past the panel's edge: they wrap now.
        QVERIFY2(scene->lastLineOverflow() == 0.0f, qPrintable(QStringLiteral("%1 px past the panel").arg(scene->lastLineOverflow())));
        // The launch fields show a whole grid expression.
        const auto* grid = panel->findChild<QLineEdit*>(QStringLiteral("gridField"));
        QVERIFY(grid != nullptr);
        QVERIFY2(grid->width() >= grid->fontMetrics().horizontalAdvance(QStringLiteral("cdiv(n,256)")) + 8,
                 qPrintable(QString::number(grid->width())));
        // ... and the whole panel still fits beside the docks, without a sideways scroll bar.
        QVERIFY2(panel->minimumSizeHint().width() <= panel->width(),
                 qPrintable(QStringLiteral("needs %1 px, has %2").arg(panel->minimumSizeHint().width()).arg(panel->width())));
        saveShot(shown.window, QStringLiteral("layout-execution"));
    }

    // The memory hierarchy beside the docks at 1280 x 800: the SM's four sub-partitions go in two
    // rows so "scheduler" and "16 K regs" are whole (they were cut in boxes 54 px wide), and the
    // legend wraps instead of running past the panel.
    void memoryHierarchyFitsBesideTheDocks()
    {
        SmallWindow shown;
        viz::ExecutionPanel* panel = recordedExecution(shown, true);
        QVERIFY(panel != nullptr);
        const viz::MemoryScene* scene = panel->memoryScene();
        QVERIFY2(scene->lastLineOverflow() == 0.0f, qPrintable(QStringLiteral("%1 px past the panel").arg(scene->lastLineOverflow())));
        QVERIFY(scene->partitionsInTwoRows());
        saveShot(shown.window, QStringLiteral("layout-memory"));
    }

    // The memory budget in the right dock of a 1280 x 800 window: its fields go two pairs a row,
    // its long choices shorten and the table goes under the plot, so nothing scrolls sideways (the
    // fields, the summary, the legend and the table were cut at the dock's edge).
    void memoryBudgetFitsItsDock()
    {
        SmallWindow shown;
        QVERIFY(!shown.window.openLink(QUrl(QStringLiteral("warpscope:memory-budget"))).has_value());
        settle(shown.window, 300);
        auto* panel = shown.window.findChild<viz::MemoryBudgetPanel*>();
        QVERIFY(panel != nullptr && panel->isVisible());
        QVERIFY2(panel->width() < 820, qPrintable(QString::number(panel->width()))); // the narrow layout is what is checked
        auto* scroll = panel->findChild<QScrollArea*>();
        QVERIFY(scroll != nullptr);
        QCOMPARE(scroll->horizontalScrollBar()->maximum(), 0);
        const QRect table = panel->componentTable()->geometry();
        const QRect plot = panel->plot()->geometry();
        QVERIFY2(table.top() >= plot.bottom(), "the table sits under the plot");
        saveShot(shown.window, QStringLiteral("layout-memory-budget"));
    }

    // In the default 1600 x 1000 window the fields go three pairs a row, and the combos with long
    // choices get the room the short number fields do not need: every choice shows whole (the
    // precision and ZeRO choices were cut, "Mixed (16-bit, FP32 maste", while the number fields
    // beside them stood half empty).
    void memoryBudgetChoicesShowWholeInAWideDock()
    {
        MainWindow window{{.restoreSettings = false}};
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(!window.openLink(QUrl(QStringLiteral("warpscope:memory-budget"))).has_value());
        settle(window, 300);
        auto* panel = window.findChild<viz::MemoryBudgetPanel*>();
        QVERIFY(panel != nullptr && panel->isVisible());
        QVERIFY2(panel->width() >= 820, qPrintable(QString::number(panel->width()))); // the wide layout is what is checked
        const QList<QComboBox*> combos = panel->findChildren<QComboBox*>();
        QVERIFY(combos.size() >= 3);
        for (QComboBox* combo : combos) {
            for (int i = 0; i < combo->count(); ++i) {
                combo->setCurrentIndex(i);
                QStyleOptionComboBox option;
                option.initFrom(combo);
                option.editable = combo->isEditable();
                const QRect text = combo->style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, combo);
                const int needed = combo->fontMetrics().horizontalAdvance(combo->itemText(i));
                QVERIFY2(needed <= text.width(), qPrintable(QStringLiteral("%1: \"%2\" needs %3 px of %4")
                                                                 .arg(combo->objectName(), combo->itemText(i))
                                                                 .arg(needed)
                                                                 .arg(text.width())));
            }
        }
        auto* scroll = panel->findChild<QScrollArea*>();
        QVERIFY(scroll != nullptr);
        QCOMPARE(scroll->horizontalScrollBar()->maximum(), 0);
    }

    // A long plain tooltip wraps (one ran about 1,330 px on one line); short ones and rich ones are
    // Qt's own; a cell's tooltip in an item view wraps too; text that looks like markup stays text.
    void longToolTipsWrap()
    {
        const QFontMetrics metrics(QToolTip::font());
        const int wrapped = metrics.averageCharWidth() * 80 + 40; // Qt wraps rich tooltips near 80 characters
        auto tipLabel = []() -> QWidget* {
            for (QWidget* top : QApplication::topLevelWidgets())
                if (top->objectName() == QStringLiteral("qtooltip_label") && top->isVisible())
                    return top;
            return nullptr;
        };
        auto hover = [](QWidget* target, QPoint at) {
            QHelpEvent help(QEvent::ToolTip, at, target->mapToGlobal(at));
            QApplication::sendEvent(target, &help);
        };
        QString sentence = QStringLiteral("The occupancy limiter is the resource & the rule that allows the fewest blocks per SM (x < y). ");
        const QString longTip = sentence.repeated(4).trimmed();
        QVERIFY(metrics.horizontalAdvance(longTip) > 2 * app::kToolTipWrapWidth);

        QWidget page;
        page.resize(600, 300);
        auto* label = new QLabel(QStringLiteral("hover me"), &page);
        label->setGeometry(10, 10, 200, 30);
        label->setToolTip(longTip);
        auto* shortLabel = new QLabel(QStringLiteral("and me"), &page);
        shortLabel->setGeometry(10, 50, 200, 30);
        shortLabel->setToolTip(QStringLiteral("warps per SM"));
        auto* table = new QTableWidget(1, 1, &page);
        table->setGeometry(10, 90, 400, 150);
        auto* item = new QTableWidgetItem(QStringLiteral("cell"));
        item->setToolTip(longTip);
        table->setItem(0, 0, item);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));

        hover(label, QPoint(5, 5));
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().startsWith(QStringLiteral("<p")), qPrintable(QToolTip::text()));
        QVERIFY2(QToolTip::text().contains(QStringLiteral("(x &lt; y)")), "the tooltip's text is escaped");
        QVERIFY2(QToolTip::text().contains(QStringLiteral("&amp;")), "the tooltip's text is escaped");
        QWidget* tip = tipLabel();
        QVERIFY(tip != nullptr);
        QVERIFY2(tip->width() <= wrapped, qPrintable(QStringLiteral("%1 px wide").arg(tip->width())));
        QVERIFY2(tip->height() >= 3 * metrics.height(), qPrintable(QStringLiteral("%1 px tall").arg(tip->height())));
        QToolTip::hideText();

        hover(shortLabel, QPoint(5, 5));
        QTRY_VERIFY(QToolTip::isVisible());
        QCOMPARE(QToolTip::text(), QStringLiteral("warps per SM"));
        QToolTip::hideText();

        const QRect cell = table->visualItemRect(item);
        hover(table->viewport(), cell.center());
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().startsWith(QStringLiteral("<p")), qPrintable(QToolTip::text()));
        QVERIFY2(tipLabel() != nullptr && tipLabel()->width() <= wrapped, "the cell's tooltip wraps");
        QToolTip::hideText();

        // The window's own long tooltips (the occupancy explorer has several) wrap when shown.
        SmallWindow shown;
        QWidget* widest = nullptr;
        for (QWidget* widget : shown.window.findChildren<QWidget*>()) {
            if (!widget->isVisible() || Qt::mightBeRichText(widget->toolTip()))
                continue;
            if (widest == nullptr || metrics.horizontalAdvance(widget->toolTip()) > metrics.horizontalAdvance(widest->toolTip()))
                widest = widget;
        }
        QVERIFY(widest != nullptr);
        QVERIFY2(metrics.horizontalAdvance(widest->toolTip()) > app::kToolTipWrapWidth, qPrintable(widest->toolTip()));
        hover(widest, QPoint(2, 2));
        QTRY_VERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().startsWith(QStringLiteral("<p")), qPrintable(QToolTip::text()));
        QVERIFY2(tipLabel() != nullptr && tipLabel()->width() <= wrapped,
                 qPrintable(QStringLiteral("%1: %2 px").arg(widest->toolTip()).arg(tipLabel() ? tipLabel()->width() : -1)));
        QToolTip::hideText();
    }
};

QTEST_MAIN(LayoutTest)
#include "layout_test.moc"
