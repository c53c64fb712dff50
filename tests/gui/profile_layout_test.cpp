// The Profile view's tabs fit where a learner has them (issue 27, section 2): the recorded H200 demo
// session at the widths the view gets in a 1280 x 800 or 1366 x 768 window, as a dock of about 60 % of
// the window (760 and 820 pixels) or as the whole centre (1000): the predicted-vs-measured table shows
// every column, its notes whole; the bandwidth captions wrap at words instead of being cut; no ncu
// name in the metrics table ends in "…"; the roofline's table has every cell whole. Shots for a look by eye with WARPSCOPE_GUI_TEST_SHOTS.
#include "gui_test_support.h"
#include "profile/profile_bandwidth_panel.h"
#include "profile/profile_metrics_table.h"
#include "profile/profile_prediction_panel.h"
#include "profile/profile_roofline_plot.h"
#include "profile/profile_views.h"
#include "session/session_io.h"
#include "window/application_setup.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QStandardPaths>
#include <QStyle>
#include <QTableWidget>
#include <QTest>
#include <QTreeWidget>

#include <climits>

using namespace warpscope;
using viz::ProfileViews;

namespace {

session::Session demoSession()
{
    const auto read = session::readSessionFile(WARPSCOPE_FIXTURES_DIR "/../../assets/recorded/h200/demo-kernels.wsprof");
    if (!read.problems.empty())
        qFatal("%s", read.problems.front().c_str());
    return read.session;
}

struct ShownViews {
    explicit ShownViews(int width, ProfileViews::Tab tab)
    {
        views.resize(width, 640);
        views.setSession(demoSession(), {}, QStringLiteral("demo-kernels.wsprof"));
        views.showTab(tab);
        views.show();
        if (!QTest::qWaitForWindowExposed(&views))
            qFatal("not exposed");
        gui_test::settle(views, 150);
    }
    ProfileViews views;
};

} // namespace

class ProfileLayoutTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    void widths_data()
    {
        QTest::addColumn<int>("width");
        QTest::newRow("1280x800, dock at 60 %") << 760;
        QTest::newRow("1366x768, dock at 60 %") << 820;
        QTest::newRow("1280x800, the centre") << 1000;
    }

    void predictionShowsEveryColumnAndWholeNotes_data() { widths_data(); }
    void predictionShowsEveryColumnAndWholeNotes()
    {
        QFETCH(int, width);
        ShownViews shown(width, ProfileViews::Tab::Prediction);
        QTableWidget* table = shown.views.predictionPanel()->table();
        gui_test::saveShot(shown.views, QStringLiteral("profile-prediction-%1").arg(width));
        const int viewport = table->viewport()->width();
        QVERIFY(!table->horizontalScrollBar()->isVisible());
        for (int column = 0; column < table->columnCount(); ++column) {
            if (table->isColumnHidden(column))
                continue;
            const int right = table->horizontalHeader()->sectionViewportPosition(column) + table->columnWidth(column);
            QVERIFY2(right <= viewport, qPrintable(QStringLiteral("column %1 ends at %2 of %3").arg(column).arg(right).arg(viewport)));
            // A header is not cut either.
            const QHeaderView* header = table->horizontalHeader();
            const int headerText = header->fontMetrics().horizontalAdvance(table->horizontalHeaderItem(column)->text()) +
                                   2 * header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
            QVERIFY2(headerText <= table->columnWidth(column), qPrintable(table->horizontalHeaderItem(column)->text()));
        }
        // Every cell's text fits its column (a note or a title: its span, wrapped for a note).
        const QFontMetrics metrics(table->font());
        for (int r = 0; r < table->rowCount(); ++r)
            for (int column = 0; column < table->columnCount(); ++column) {
                const QTableWidgetItem* item = table->item(r, column);
                if (item == nullptr || item->text().isEmpty())
                    continue;
                int span = 0;
                for (int c = column; c < column + table->columnSpan(r, column); ++c)
                    span += table->isColumnHidden(c) ? 0 : table->columnWidth(c);
                QFont font = item->font();
                const QFontMetrics itemMetrics(font);
                const QRect wrapped = itemMetrics.boundingRect(QRect(0, 0, span - 8, INT_MAX / 2), Qt::TextWordWrap, item->text());
                QVERIFY2(wrapped.width() <= span - 8 && wrapped.height() <= table->rowHeight(r),
                         qPrintable(QStringLiteral("row %1 column %2: '%3' needs %4 x %5, has %6 x %7")
                                        .arg(r).arg(column).arg(item->text()).arg(wrapped.width()).arg(wrapped.height())
                                        .arg(span - 8).arg(table->rowHeight(r))));
            }
    }

    void bandwidthCaptionsWrapAtWords_data() { widths_data(); }
    void bandwidthCaptionsWrapAtWords()
    {
        QFETCH(int, width);
        ShownViews shown(width, ProfileViews::Tab::Bandwidth);
        gui_test::saveShot(shown.views, QStringLiteral("profile-bandwidth-%1").arg(width));
        const QList<QLabel*> captions = shown.views.bandwidthPanel()->findChildren<QLabel*>(QStringLiteral("bandwidthCaption"));
        QCOMPARE(captions.size(), 2 * 19); // DRAM and L2 for each of the 19 kernels
        for (const QLabel* caption : captions) {
            QVERIFY(caption->wordWrap());
            QVERIFY2(caption->height() >= caption->heightForWidth(caption->width()), qPrintable(caption->text()));
            // Its longest word fits its width: wrapping never has to break inside a word.
            int longest = 0;
            for (const QString& word : caption->text().split(QLatin1Char(' ')))
                longest = std::max(longest, caption->fontMetrics().horizontalAdvance(word));
            QVERIFY(longest <= caption->width());
        }
    }

    // The roofline's table under the plot: every cell's text whole in its column (a warm-cache mark
    // included), and the plot taller than the note and table.
    void rooflineTableCellsAreWhole_data() { widths_data(); }
    void rooflineTableCellsAreWhole()
    {
        QFETCH(int, width);
        ShownViews shown(width, ProfileViews::Tab::Roofline);
        gui_test::saveShot(shown.views, QStringLiteral("profile-roofline-%1").arg(width));
        const QTableWidget* table = shown.views.rooflinePlot()->findChild<QTableWidget*>();
        QVERIFY(table != nullptr);
        QVERIFY(!table->horizontalScrollBar()->isVisible());
        // The style draws a cell's text inside a margin of PM_FocusFrameHMargin + 1 on each side.
        const int margin = table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table) + 1;
        for (int r = 0; r < table->rowCount(); ++r)
            for (int column = 0; column < table->columnCount(); ++column) {
                const QTableWidgetItem* item = table->item(r, column);
                if (item == nullptr || table->columnSpan(r, column) > 1)
                    continue;
                const int needed = QFontMetrics(item->font()).horizontalAdvance(item->text()) + 2 * margin;
                QVERIFY2(needed <= table->columnWidth(column),
                         qPrintable(QStringLiteral("'%1' needs %2 px, its column has %3").arg(item->text()).arg(needed).arg(table->columnWidth(column))));
            }
    }

    void metricNamesAreWhole_data() { widths_data(); }
    void metricNamesAreWhole()
    {
        QFETCH(int, width);
        ShownViews shown(width, ProfileViews::Tab::Metrics);
        QTreeWidget* tree = shown.views.metricsTable()->tree();
        gui_test::saveShot(shown.views, QStringLiteral("profile-metrics-%1").arg(width));
        QCOMPARE(tree->textElideMode(), Qt::TextElideMode::ElideNone);
        const int column = viz::ProfileMetricsTable::NameColumn;
        QVERIFY(tree->header()->sectionViewportPosition(column) + tree->columnWidth(column) <= tree->viewport()->width());
        int names = 0, wrapped = 0;
        for (QTreeWidgetItemIterator it(tree); *it; ++it) {
            const QString name = (*it)->text(column);
            if (name.isEmpty() || (*it)->isFirstColumnSpanned() || (*it)->isHidden())
                continue;
            ++names;
            const QRect cell = tree->visualItemRect(*it);
            const int available = tree->columnWidth(column) - 8;
            const QRect needed = tree->fontMetrics().boundingRect(QRect(0, 0, available, INT_MAX / 2),
                                                                  Qt::TextWrapAnywhere, name);
            wrapped += needed.height() > tree->fontMetrics().height() ? 1 : 0;
            QVERIFY2(needed.height() <= cell.height(),
                     qPrintable(QStringLiteral("%1 needs %2 px, its row has %3").arg(name).arg(needed.height()).arg(cell.height())));
        }
        QVERIFY(names > 300);
        qInfo("%d metric names, %d on two lines at %d px", names, wrapped, width);
    }
};

QTEST_MAIN(ProfileLayoutTest)
#include "profile_layout_test.moc"
