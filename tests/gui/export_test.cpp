// CSV and figure export: tableCsv against hand-written RFC 4180 text (commas, quotes, newlines, a
// tree's sections), the metrics table of a fixture session with a row per metric the session holds,
// figures rendered to PNG, SVG (parsed as XML, drawn back with QSvgRenderer) and PDF, failed writes
// that keep the earlier file, the context menus of every table and figure in the window,
// `warpscope screenshot --out FILE.svg|FILE.pdf` (a bad suffix: one line, exit 2), the quantization
// statistics as CSV against the quantizer's own numbers, and the Execution view's Perfetto timeline
// against the simulator's trace of the same launch.
#include "common/export_actions.h"
#include "execution/execution_panel.h"
#include "execution/timeline_export.h"
#include "formats/format_range_bar.h"
#include "models/pipeline_panel.h"
#include "models/streams_panel.h"
#include "gpu/gpu_preset.h"
#include "kernel_target.h"
#include "numerics/distributions.h"
#include "numerics/quant_config.h"
#include "numerics/quantizer.h"
#include "precision/quant/quant_panel.h"
#include "precision/quant/quant_stats_csv.h"
#include "sim/perfetto_trace.h"
#include "sim/simulator.h"
#include "sim/timing_model.h"
#include "precision/sparsity/sparsity_pattern_view.h"
#include "profile/profile_format.h"
#include "profile/profile_metrics_table.h"
#include "profile/session_file.h"
#include "window/application_setup.h"
#include "window/main_window.h"

#include <qcustomplot.h>

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QColor>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QLabel>
#include <QPainter>
#include <QPen>
#include <QProcess>
#include <QSet>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QVector>
#include <QXmlStreamReader>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace warpscope;

namespace {

QString fixture(const QString& name)
{
    return QStringLiteral(WARPSCOPE_FIXTURES_DIR "/sessions/") + name;
}

// A reader written for this test from RFC 4180 (not the exporter's code): records end with CRLF, a
// quoted field may hold commas, CR/LF and doubled quotes.
std::vector<QStringList> parseCsv(const QString& text)
{
    std::vector<QStringList> records;
    QStringList record;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) {
                field += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            record.append(field);
            field.clear();
        } else if (c == QLatin1Char('\r') && i + 1 < text.size() && text[i + 1] == QLatin1Char('\n')) {
            record.append(field);
            field.clear();
            records.push_back(record);
            record.clear();
            ++i;
        } else {
            field += c;
        }
    }
    return records;
}

QStringList actionTexts(const QWidget* widget)
{
    QStringList texts;
    for (const QAction* action : widget->actions())
        texts.append(action->text());
    return texts;
}

bool hasFigureExport(const QWidget* widget)
{
    return widget->contextMenuPolicy() == Qt::ActionsContextMenu &&
           actionTexts(widget).contains(QStringLiteral("Save Figure As\u2026"));
}

// The root element's name, or an error, of an XML document.
QString xmlRoot(const QByteArray& xml)
{
    QXmlStreamReader reader(xml);
    QString root;
    while (!reader.atEnd()) {
        reader.readNext();
        if (reader.isStartElement() && root.isEmpty())
            root = reader.name().toString();
    }
    return reader.hasError() ? QStringLiteral("error: ") + reader.errorString() : root;
}

int distinctColours(const QImage& image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            colours.insert(image.pixel(x, y) & 0xF0F0F0);
    return static_cast<int>(colours.size());
}

// An SVG drawn back into an image of its own size, on white.
QImage drawSvg(const QByteArray& svg, QSize size)
{
    QSvgRenderer renderer(svg);
    QImage image(size, QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    renderer.render(&painter);
    return image;
}

// A line plot with a title and axis labels, as the panels' figures are.
std::unique_ptr<QCustomPlot> samplePlot()
{
    auto plot = std::make_unique<QCustomPlot>();
    QCPGraph* graph = plot->addGraph();
    QVector<double> x, y;
    for (int i = 0; i <= 40; ++i) {
        x.append(i);
        y.append(i * i);
    }
    graph->setData(x, y);
    graph->setPen(QPen(QColor(30, 90, 200), 2));
    plot->xAxis->setLabel(QStringLiteral("threads per block"));
    plot->yAxis->setLabel(QStringLiteral("active warps"));
    plot->rescaleAxes();
    plot->resize(420, 300);
    plot->show();
    plot->replot();
    return plot;
}

void saveForPeople(const QByteArray& bytes, const QString& name)
{
    const QString folder = qEnvironmentVariable("WARPSCOPE_GUI_TEST_SHOTS");
    if (folder.isEmpty())
        return;
    QFile file(QDir(folder).filePath(name));
    if (file.open(QIODevice::WriteOnly))
        file.write(bytes);
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeBytes(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

// What a Chrome trace holds, read with Qt's JSON parser (not the writer's code).
struct ParsedTrace {
    QString error;                  // empty when it parsed and has a traceEvents array
    int instructionSlices = 0;      // "X" events of category "instruction"
    std::set<std::pair<int, int>> warpTracks; // (pid, tid) of the warps' tracks
    std::set<int> sms;              // pids
    QJsonObject metadata;
};

ParsedTrace parseTrace(const QByteArray& json)
{
    ParsedTrace parsed;
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError) {
        parsed.error = error.errorString();
        return parsed;
    }
    if (!document.isObject() || !document.object().value(QStringLiteral("traceEvents")).isArray()) {
        parsed.error = QStringLiteral("no traceEvents array");
        return parsed;
    }
    for (const QJsonValue& value : document.object().value(QStringLiteral("traceEvents")).toArray()) {
        const QJsonObject event = value.toObject();
        const QString phase = event.value(QStringLiteral("ph")).toString();
        if (phase == QLatin1String("X") && event.value(QStringLiteral("cat")).toString() == QLatin1String("instruction"))
            ++parsed.instructionSlices;
        if (phase == QLatin1String("M") && event.value(QStringLiteral("name")).toString() == QLatin1String("thread_name"))
            parsed.warpTracks.insert({event.value(QStringLiteral("pid")).toInt(), event.value(QStringLiteral("tid")).toInt()});
        parsed.sms.insert(event.value(QStringLiteral("pid")).toInt());
    }
    parsed.metadata = document.object().value(QStringLiteral("metadata")).toObject();
    return parsed;
}

// The same launch as the Execution view's export, built here from the core API: the demo kernel on
// the H100 preset, tracing the blocks the simulator places on block `chosen`'s SM that fit there at
// once (blocks go to SM b mod SMs in order; residentBlocksPerSm from the timing model).
struct CoreTimeline {
    std::vector<std::uint64_t> blocks;
    std::uint64_t issued = 0;             // issue events in the trace
    std::uint64_t warpInstructions = 0;   // the whole launch's, from KernelStats
    std::string perfetto;                 // writePerfettoTrace's bytes
    sim::PerfettoTraceCounts counts;
};

CoreTimeline coreTimeline(const std::string& demo, const std::string& grid, std::uint64_t chosen)
{
    kernels::TargetRequest target;
    target.target = demo;
    target.grid = grid;
    target.maxBufferBytes = sim::SimOptions{}.maxBufferBytes;
    const kernels::ResolvedTarget resolved = kernels::resolveTarget(target);
    const gpu::GpuPreset preset = *gpu::findPreset("sm_90");
    sim::LaunchRequest request = kernels::targetLaunchRequest(resolved, preset);
    const int resident = sim::residentBlocksPerSm(preset, *resolved.function, request.block.volume(), request.dynamicSharedBytes,
                                                  request.options.registersPerThread);
    CoreTimeline timeline;
    const auto sms = static_cast<std::uint64_t>(preset.smCount);
    for (std::uint64_t b = chosen % sms; b < static_cast<std::uint64_t>(request.grid.volume()) &&
                                         timeline.blocks.size() < static_cast<std::size_t>(resident);
         b += sms)
        timeline.blocks.push_back(b);
    request.options.trace.blocks = timeline.blocks;
    const sim::SimResult result = sim::simulate(request);
    for (const sim::TraceEvent& event : result.trace.events)
        timeline.issued += event.kind == sim::TraceEventKind::Issue ? 1 : 0;
    timeline.warpInstructions = result.stats.warpInstructions;
    std::ostringstream out;
    timeline.counts = sim::writePerfettoTrace(out, result.trace, *resolved.function,
                                              {resolved.kernelName, std::string(preset.name), preset.timing.coreClockMHz,
                                               resolved.launch.grid});
    timeline.perfetto = out.str();
    return timeline;
}

} // namespace

class ExportTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    void csvQuotesCommasQuotesAndNewlines()
    {
        QStandardItemModel model(3, 3);
        model.setHorizontalHeaderLabels({QStringLiteral("Name"), QStringLiteral("Value, unit"), QStringLiteral("Note")});
        const char* cells[3][3] = {{"plain", "1,234", "say \"hi\""},
                                   {"two\nlines", "", "\u00b5s and \u2212"},
                                   {"  spaced ", "\"", "a\r\nb"}};
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c)
                model.setItem(r, c, new QStandardItem(QString::fromUtf8(cells[r][c])));
        const QString expected = QString::fromUtf8("Name,\"Value, unit\",Note\r\n"
                                                   "plain,\"1,234\",\"say \"\"hi\"\"\"\r\n"
                                                   "\"two\nlines\",,\u00b5s and \u2212\r\n"
                                                   "  spaced ,\"\"\"\",\"a\r\nb\"\r\n");
        QCOMPARE(viz::tableCsv(model), expected);
        QCOMPARE(viz::csvField(QStringLiteral("x")), QStringLiteral("x"));
        QCOMPARE(viz::csvField(QStringLiteral("a\"b")), QStringLiteral("\"a\"\"b\""));
        // The reader written here from the RFC gets the cells back.
        const auto records = parseCsv(expected);
        QCOMPARE(records.size(), std::size_t{4});
        QCOMPARE(records[1][2], QStringLiteral("say \"hi\""));
        QCOMPARE(records[2][0], QStringLiteral("two\nlines"));
        QCOMPARE(records[3][2], QStringLiteral("a\r\nb"));
    }

    void csvOfATreeHasParentsAndTheirSection()
    {
        QStandardItemModel model(0, 2);
        model.setHorizontalHeaderLabels({QStringLiteral("Metric"), QStringLiteral("Value")});
        auto* kernel = new QStandardItem(QStringLiteral("saxpy"));
        auto* memory = new QStandardItem(QStringLiteral("Memory (1)"));
        memory->appendRow({new QStandardItem(QStringLiteral("DRAM bytes")), new QStandardItem(QStringLiteral("1,024 B"))});
        kernel->appendRow({memory, new QStandardItem});
        model.appendRow({kernel, new QStandardItem});
        model.appendRow({new QStandardItem(QStringLiteral("copy")), new QStandardItem});
        QCOMPARE(viz::tableCsv(model), QStringLiteral("Section,Metric,Value\r\n"
                                                      ",saxpy,\r\n"
                                                      "saxpy,Memory (1),\r\n"
                                                      "saxpy / Memory (1),DRAM bytes,\"1,024 B\"\r\n"
                                                      ",copy,\r\n"));
    }

    void viewCsvLeavesOutWhatTheViewHides()
    {
        QTableWidget table(3, 3);
        table.setHorizontalHeaderLabels({QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C")});
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c)
                table.setItem(r, c, new QTableWidgetItem(QStringLiteral("%1%2").arg(r).arg(c)));
        // Row numbers add nothing; named rows come first.
        QCOMPARE(viz::tableCsv(table), QStringLiteral("A,B,C\r\n00,01,02\r\n10,11,12\r\n20,21,22\r\n"));
        table.setColumnHidden(1, true);
        table.setRowHidden(2, true);
        table.setVerticalHeaderLabels({QStringLiteral("Weights"), QStringLiteral("Gradients"), QStringLiteral("Optimizer")});
        QCOMPARE(viz::tableCsv(table), QStringLiteral(",A,C\r\nWeights,00,02\r\nGradients,10,12\r\n"));
        table.verticalHeader()->hide();
        QCOMPARE(viz::tableCsv(table), QStringLiteral("A,C\r\n00,02\r\n10,12\r\n"));
    }

    void metricsTableOfAFixtureSessionHasARowPerMetric()
    {
        const app::LoadedSession loaded = app::loadSessionFile(fixture(QStringLiteral("ladder.wsprof")));
        QVERIFY(loaded.headerSeen);
        QVERIFY(!loaded.session.metrics.empty());
        viz::ProfileMetricsTable table;
        table.setSession(loaded.session, nullptr);
        QVERIFY(table.tree()->actions().size() >= 2);
        const auto records = parseCsv(viz::tableCsv(*table.tree()));
        // Without a baseline its two columns are hidden, and stay out of the file.
        QCOMPARE(records.front(), (QStringList{QStringLiteral("Section"), QStringLiteral("Metric"), QStringLiteral("Value"),
                                               QStringLiteral("ncu name")}));
        std::size_t kernelRows = 0;
        for (const QStringList& record : records) {
            QCOMPARE(record.size(), 4);
            kernelRows += record[0].isEmpty() ? 1 : 0;
        }
        QCOMPARE(kernelRows, static_cast<std::size_t>(table.kernels().size()));
        for (const auto& metrics : loaded.session.metrics) {
            const QString kernelId = QString::fromStdString(metrics.kernel);
            const QString label = viz::profile::kernelLabel(loaded.session, metrics.kernel);
            std::vector<std::string> names;
            for (const auto& [name, value] : metrics.values)
                names.push_back(name);
            names.insert(names.end(), metrics.unavailable.begin(), metrics.unavailable.end());
            QVERIFY(!names.empty());
            for (const std::string& name : names) {
                const QString ncu = QString::fromStdString(name);
                int found = 0;
                for (const QStringList& record : records) {
                    if (record[3] != ncu || !record[0].startsWith(label + QStringLiteral(" / ")))
                        continue;
                    ++found;
                    QCOMPARE(record[2], table.cellText(kernelId, ncu, viz::ProfileMetricsTable::ValueColumn));
                    QCOMPARE(record[1], table.cellText(kernelId, ncu, viz::ProfileMetricsTable::TitleColumn));
                }
                QVERIFY2(found == 1, qPrintable(label + QStringLiteral(": ") + ncu + QStringLiteral(" x") + QString::number(found)));
            }
        }
        // A filter keeps its rows only: each metric row left names DRAM somewhere.
        table.setFilter(QStringLiteral("dram"));
        const auto filtered = parseCsv(viz::tableCsv(*table.tree()));
        int metricRows = 0;
        for (const QStringList& record : filtered) {
            if (record[3].isEmpty() || &record == &filtered.front())
                continue;
            ++metricRows;
            QVERIFY2(record.join(QLatin1Char(' ')).contains(QStringLiteral("dram"), Qt::CaseInsensitive), qPrintable(record.join(',')));
        }
        QVERIFY(metricRows > 0);
        QVERIFY(filtered.size() < records.size());
    }

    void figuresRenderToPngSvgAndPdf()
    {
        const auto plot = samplePlot();
        const QByteArray png = viz::renderFigure(*plot, viz::FigureFormat::Png);
        QImage image;
        QVERIFY(image.loadFromData(png, "PNG"));
        QCOMPARE(image.size(), QSize(840, 600)); // twice the widget's size
        QVERIFY(distinctColours(image) > 3);
        saveForPeople(png, QStringLiteral("export-plot.png"));

        const QByteArray svg = viz::renderFigure(*plot, viz::FigureFormat::Svg, QStringLiteral("Occupancy"));
        QCOMPARE(xmlRoot(svg), QStringLiteral("svg"));
        QVERIFY(svg.contains("<title>Occupancy</title>"));
        QVERIFY(svg.contains("threads per block")); // axis labels are text, not pixels
        QVERIFY(!svg.contains("<image"));           // the plot is vectors, not its screen pixmap
        const QImage back = drawSvg(svg, plot->size());
        QVERIFY(distinctColours(back) > 3);
        // The curve is drawn in its colour: some pixel is close to the pen's blue.
        bool blue = false;
        for (int y = 0; y < back.height() && !blue; ++y)
            for (int x = 0; x < back.width() && !blue; ++x) {
                const QColor c = back.pixelColor(x, y);
                blue = c.blue() > 150 && c.red() < 90 && c.green() < 140;
            }
        QVERIFY(blue);
        saveForPeople(svg, QStringLiteral("export-plot.svg"));
        QBuffer pngOfSvg;
        pngOfSvg.open(QIODevice::WriteOnly);
        back.save(&pngOfSvg, "PNG");
        saveForPeople(pngOfSvg.data(), QStringLiteral("export-plot-svg.png"));

        const QByteArray pdf = viz::renderFigure(*plot, viz::FigureFormat::Pdf);
        QVERIFY(pdf.startsWith("%PDF"));
        QVERIFY(pdf.trimmed().endsWith("%%EOF"));

        // A widget that paints itself (not a plot) goes through QWidget::render.
        QLabel label(QStringLiteral("bank conflicts: 4-way"));
        label.resize(300, 40);
        label.show();
        const QByteArray labelSvg = viz::renderFigure(label, viz::FigureFormat::Svg);
        QCOMPARE(xmlRoot(labelSvg), QStringLiteral("svg"));
        QVERIFY(labelSvg.contains("bank conflicts: 4-way"));
        QVERIFY(viz::renderFigure(label, viz::FigureFormat::Pdf).startsWith("%PDF"));
    }

    void savingPicksTheFormatAndAFailedWriteKeepsTheOldFile()
    {
        QTemporaryDir dir;
        const auto plot = samplePlot();
        for (const char* name : {"plot.png", "plot.SVG", "plot.pdf"}) {
            const QString path = dir.filePath(QLatin1String(name));
            QVERIFY(!viz::saveFigure(*plot, path).has_value());
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray head = file.read(8);
            if (path.endsWith(QLatin1String(".png")))
                QVERIFY(head.startsWith("\x89PNG"));
            else if (path.endsWith(QLatin1String(".SVG")))
                QVERIFY(head.startsWith("<?xml"));
            else
                QVERIFY(head.startsWith("%PDF"));
        }
        const auto bad = viz::saveFigure(*plot, dir.filePath(QStringLiteral("plot.jpg")));
        QVERIFY(bad.has_value());
        QVERIFY2(bad->contains(QStringLiteral("(allowed: .png, .svg, .pdf)")), qPrintable(*bad));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("plot.jpg"))));

        // A file that exists keeps its bytes when the new ones cannot be made or written.
        const QString kept = dir.filePath(QStringLiteral("kept.svg"));
        {
            QFile file(kept);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("old figure");
        }
        QWidget empty;
        empty.resize(0, 0);
        QVERIFY(viz::saveFigure(empty, kept).has_value());
        QFile old(kept);
        QVERIFY(old.open(QIODevice::ReadOnly));
        QCOMPARE(old.readAll(), QByteArray("old figure"));
        const QString missing = dir.filePath(QStringLiteral("no-such-folder/table.csv"));
        const auto error = viz::writeFileAtomically(missing, "a,b\r\n");
        QVERIFY(error.has_value());
        QVERIFY2(error->startsWith(QStringLiteral("cannot write ") + missing + QStringLiteral(": ")), qPrintable(*error));
        const auto folder = viz::writeFileAtomically(dir.path(), "a,b\r\n"); // a folder is not a file
        QVERIFY(folder.has_value());
        QVERIFY(QFileInfo(dir.path()).isDir());

        QTableWidget table(1, 2);
        table.setHorizontalHeaderLabels({QStringLiteral("Method"), QStringLiteral("Accuracy")});
        table.setItem(0, 0, new QTableWidgetItem(QStringLiteral("INT8, per channel")));
        table.setItem(0, 1, new QTableWidgetItem(QStringLiteral("97.5 %")));
        const QString csvPath = dir.filePath(QStringLiteral("table.csv"));
        QVERIFY(!viz::saveTableCsv(table, csvPath).has_value());
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(csv.readAll(), QByteArray("Method,Accuracy\r\n\"INT8, per channel\",97.5 %\r\n"));
    }

    void everyTableAndFigureInTheWindowHasTheActions()
    {
        app::MainWindow window({.restoreSettings = false, .progressFile = {}});
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const char* tables[] = {"profileMetricsTree", "predictionTable", "rooflineTable", "ampSummaryTable", "quantAccuracyTable",
                                "memoryBudgetTable", "allReduceLinks", "formatComparison"};
        for (const char* name : tables) {
            auto* view = window.findChild<QAbstractItemView*>(QLatin1String(name));
            QVERIFY2(view != nullptr, name);
            QCOMPARE(view->contextMenuPolicy(), Qt::ActionsContextMenu);
            QCOMPARE(actionTexts(view), (QStringList{QStringLiteral("Save Table as CSV\u2026"), QStringLiteral("Copy as CSV")}));
            view->findChild<QAction*>(QStringLiteral("copyTableCsv"))->trigger();
            QCOMPARE(QApplication::clipboard()->text(), viz::tableCsv(*view));
        }
        // Every plot in the window, and the figures that paint themselves.
        const auto plots = window.findChildren<QCustomPlot*>();
        QVERIFY(plots.size() >= 12);
        for (const QCustomPlot* plot : plots)
            QVERIFY2(hasFigureExport(plot), qPrintable(plot->objectName() + QStringLiteral(" ") + plot->metaObject()->className()));
        QVERIFY(hasFigureExport(window.findChild<viz::SparsityPatternView*>()));
        QVERIFY(hasFigureExport(window.findChild<viz::PipelineChartView*>()));
        QVERIFY(hasFigureExport(window.findChild<viz::StreamTimelineView*>()));
        QVERIFY(hasFigureExport(window.findChild<viz::FormatRangeBar*>()));
        QVERIFY(hasFigureExport(window.findChild<QWidget*>(QStringLiteral("canvas"))));
        // The Execution canvas offers its timeline too, and the File menu does.
        auto* executionCanvas = window.findChild<QWidget*>(QStringLiteral("executionCanvas"));
        QVERIFY(hasFigureExport(executionCanvas));
        QVERIFY(actionTexts(executionCanvas).contains(QStringLiteral("Export Timeline for Perfetto\u2026")));
        bool fileMenuHasTimeline = false;
        for (const QAction* action : window.findChildren<QAction*>())
            fileMenuHasTimeline = fileMenuHasTimeline || action->text() == QLatin1String("Export &Timeline for Perfetto...");
        QVERIFY(fileMenuHasTimeline);
        QVERIFY(window.findChild<QWidget*>(QStringLiteral("quantStatsBlock"))->actions().size() == 2);
        int figures = 0;
        for (const QWidget* widget : window.findChildren<QWidget*>())
            figures += hasFigureExport(widget) ? 1 : 0;
        // Plots, pattern, pipeline, streams, range bar, ring, bandwidth, the two canvases.
        QVERIFY2(figures >= static_cast<int>(plots.size()) + 8, qPrintable(QString::number(figures)));

        // The hierarchy canvas (software-rendered here) comes out as a picture with the scene in it.
        QWidget* canvas = window.findChild<QWidget*>(QStringLiteral("canvas"));
        const QByteArray png = viz::renderFigure(*canvas, viz::FigureFormat::Png);
        QImage image;
        QVERIFY(image.loadFromData(png, "PNG"));
        QCOMPARE(image.size(), canvas->size() * 2);
        QVERIFY(distinctColours(image) > 5);
        saveForPeople(png, QStringLiteral("export-canvas.png"));
    }

    void screenshotWritesSvgAndPdfAndRefusesOtherSuffixes()
    {
        QTemporaryDir dir;
        for (const char* name : {"window.svg", "window.pdf"}) {
            const QString out = dir.filePath(QLatin1String(name));
            QProcess process;
            process.start(QStringLiteral(WARPSCOPE_BINARY), {QStringLiteral("screenshot"), QStringLiteral("--out"), out,
                                                             QStringLiteral("--view"), QStringLiteral("occupancy"),
                                                             QStringLiteral("--size"), QStringLiteral("1200x800")});
            QVERIFY(process.waitForFinished(60000));
            QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
            QFile file(out);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray bytes = file.readAll();
            if (out.endsWith(QLatin1String(".svg"))) {
                QCOMPARE(xmlRoot(bytes), QStringLiteral("svg"));
                QVERIFY(bytes.contains("threads per block")); // the occupancy plots' axis, as text
                const QImage back = drawSvg(bytes, QSize(1200, 800));
                QVERIFY(distinctColours(back) > 10);
                QBuffer png;
                png.open(QIODevice::WriteOnly);
                back.save(&png, "PNG");
                saveForPeople(png.data(), QStringLiteral("export-window-svg.png"));
            } else {
                QVERIFY(bytes.startsWith("%PDF"));
            }
        }
        const QString jpg = dir.filePath(QStringLiteral("window.jpg"));
        QProcess bad;
        bad.start(QStringLiteral(WARPSCOPE_BINARY), {QStringLiteral("screenshot"), QStringLiteral("--out"), jpg});
        QVERIFY(bad.waitForFinished(30000));
        QCOMPARE(bad.exitCode(), 2);
        const QString error = QString::fromLocal8Bit(bad.readAllStandardError());
        QCOMPARE(error.count(QLatin1Char('\n')), 1);
        QVERIFY2(error.contains(QStringLiteral("--out: unknown image format '.jpg'")) &&
                     error.contains(QStringLiteral("(allowed: .png, .svg, .pdf)")),
                 qPrintable(error));
        QVERIFY(!QFile::exists(jpg));
    }

    void quantStatisticsCsvHoldsTheQuantizersNumbersAtFullPrecision()
    {
        viz::QuantPanel panel;
        QVERIFY(!panel.saveStatsAction()->isEnabled()); // nothing to save before the first result
        viz::QuantLabRequest request;
        request.source = viz::QuantSource::Laplace;
        request.count = 4096;
        request.seed = 7;
        request.rows = 8;
        request.config = numerics::parseQuantConfig("int4", "asymmetric", "channel", "percentile:99.9");
        request.slice = 2;
        panel.setRequest(request);
        QTRY_VERIFY_WITH_TIMEOUT(!panel.busy() && panel.result() != nullptr, 120000);
        QVERIFY(panel.saveStatsAction()->isEnabled());
        const QString csv = viz::quantStatsCsv(*panel.result());
        panel.copyStatsAction()->trigger();
        QCOMPARE(QApplication::clipboard()->text(), csv);

        // The quantizer called here with the same data, shape and method.
        const std::vector<float> values = numerics::generateValues(numerics::Distribution::Laplace, 4096, 7);
        const numerics::QuantResult expected = numerics::quantize(values, request.config, numerics::QuantShape{8, 512});
        QCOMPARE(expected.slices.size(), std::size_t{8});
        const numerics::QuantParams& third = expected.slices[2].params;

        QVERIFY(csv.endsWith(QStringLiteral("\r\n")));
        const auto records = parseCsv(csv);
        QCOMPARE(records.front(), (QStringList{QStringLiteral("quantity"), QStringLiteral("value"), QStringLiteral("unit")}));
        std::map<QString, QStringList> rows;
        for (std::size_t i = 1; i < records.size(); ++i) {
            QCOMPARE(records[i].size(), 3);
            QVERIFY2(rows.emplace(records[i][0], records[i]).second, qPrintable(records[i][0])); // each quantity once
        }
        const auto value = [&rows](const char* quantity) {
            const auto it = rows.find(QLatin1String(quantity));
            return it == rows.end() ? QStringLiteral("(missing %1)").arg(QLatin1String(quantity)) : it->second[1];
        };
        // The configuration the numbers come from.
        QCOMPARE(value("source"), QStringLiteral("laplace"));
        QCOMPARE(value("n"), QStringLiteral("4096"));
        QCOMPARE(value("seed"), QStringLiteral("7"));
        QCOMPARE(value("rows"), QStringLiteral("8"));
        QCOMPARE(value("shape rows"), QStringLiteral("8"));
        QCOMPARE(value("shape columns"), QStringLiteral("512"));
        QCOMPARE(value("format"), QStringLiteral("int4"));
        QCOMPARE(value("scheme"), QStringLiteral("asymmetric"));
        QCOMPARE(value("granularity"), QStringLiteral("channel"));
        QCOMPARE(value("calibrator"), QStringLiteral("percentile:99.9"));
        QVERIFY2(value("data").contains(QStringLiteral("seed 7")), qPrintable(value("data")));
        // The numbers, read back as the very doubles the quantizer computed (rounded text would not be).
        QCOMPARE(value("SQNR").toDouble(), expected.stats.sqnrDb);
        QCOMPARE(rows[QStringLiteral("SQNR")][2], QStringLiteral("dB"));
        QCOMPARE(value("MSE").toDouble(), expected.stats.mse);
        QCOMPARE(value("signal power").toDouble(), expected.stats.signalPower);
        QCOMPARE(value("max |error|").toDouble(), expected.stats.maxAbsError);
        QCOMPARE(value("clipped").toULongLong(), static_cast<qulonglong>(expected.stats.clipped));
        QCOMPARE(value("values").toULongLong(), qulonglong{4096});
        QCOMPARE(value("slices"), QStringLiteral("8"));
        QCOMPARE(value("slice shown"), QStringLiteral("3"));
        QCOMPARE(value("clip low").toDouble(), third.clipLow);
        QCOMPARE(value("clip high").toDouble(), third.clipHigh);
        QCOMPARE(value("scale").toDouble(), third.scale);
        QCOMPARE(value("zero point").toLongLong(), static_cast<qlonglong>(third.zeroPoint));
        // More digits than the panel shows: the panel's 6 significant digits are not what the file holds.
        QVERIFY(value("MSE") != panel.statText(QStringLiteral("mse")));
        QCOMPARE(panel.statText(QStringLiteral("mse")), QString::number(value("MSE").toDouble(), 'g', 6));

        // The statistics block's context menu has the two actions; its labels hand a right click to it.
        auto* block = panel.findChild<QWidget*>(QStringLiteral("quantStatsBlock"));
        QVERIFY(block != nullptr);
        QCOMPARE(block->contextMenuPolicy(), Qt::ActionsContextMenu);
        QCOMPARE(actionTexts(block), (QStringList{QStringLiteral("Save Statistics as CSV\u2026"), QStringLiteral("Copy Statistics as CSV")}));
        QCOMPARE(panel.findChild<QLabel*>(QStringLiteral("quantStat_sqnr"))->contextMenuPolicy(), Qt::NoContextMenu);
        panel.resize(1000, 900);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        saveForPeople(viz::renderFigure(*block, viz::FigureFormat::Png), QStringLiteral("export-quant-stats-block.png"));
        saveForPeople(csv.toUtf8(), QStringLiteral("export-quant-stats.csv"));

        // Saved as the Save action saves it: atomically; a failed write keeps the old file.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("quant-statistics.csv"));
        writeBytes(path, "old statistics");
        QVERIFY(viz::writeFileAtomically(dir.filePath(QStringLiteral("missing/quant-statistics.csv")), csv.toUtf8()).has_value());
        QCOMPARE(readAll(path), QByteArray("old statistics"));
        QVERIFY(!viz::writeFileAtomically(path, csv.toUtf8()).has_value());
        QCOMPARE(QString::fromUtf8(readAll(path)), csv);
    }

    void timelineExportHasASliceForEveryIssuedWarpInstruction()
    {
        QTemporaryDir dir;
        viz::ExecutionPanel panel;
        QVERIFY(panel.selectKernel(QStringLiteral("reduce_sequential")));
        QSignalSpy exported(&panel, &viz::ExecutionPanel::timelineExported);

        // 512 blocks of 256 threads: blocks 0, 132, 264 and 396 share SM 0 of the H100's 132.
        const QString path = dir.filePath(QStringLiteral("reduce.json"));
        panel.exportTimeline(path);
        QVERIFY(exported.wait(120000));
        QVERIFY2(exported.at(0).at(0).toBool(), qPrintable(exported.at(0).at(1).toString()));
        QVERIFY2(panel.statusText().contains(QStringLiteral("ui.perfetto.dev")), qPrintable(panel.statusText()));
        const QByteArray json = readAll(path);
        const ParsedTrace parsed = parseTrace(json);
        QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
        const CoreTimeline core = coreTimeline("reduce_sequential", "", 0);
        QCOMPARE(core.blocks, (std::vector<std::uint64_t>{0, 132, 264, 396}));
        QVERIFY(core.issued > 0);
        QCOMPARE(static_cast<std::uint64_t>(parsed.instructionSlices), core.issued);
        QCOMPARE(core.counts.instructionSlices, core.issued);
        QCOMPARE(parsed.warpTracks.size(), static_cast<std::size_t>(core.counts.warps));
        QCOMPARE(parsed.warpTracks.size(), std::size_t{4 * 8}); // 4 blocks of 8 warps
        QCOMPARE(parsed.sms, (std::set<int>{0}));
        QCOMPARE(parsed.metadata.value(QStringLiteral("kernel")).toString(), QStringLiteral("reduce_sequential"));
        QCOMPARE(parsed.metadata.value(QStringLiteral("truncated")).toBool(), false);
        QCOMPARE(json.toStdString(), core.perfetto); // what `warpscope sim --perfetto` writes for these blocks
        QVERIFY(panel.statusText().contains(QStringLiteral("blocks 0, 132, 264, 396 on SM 0")));
        panel.resize(1100, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        saveForPeople(viz::renderFigure(panel, viz::FigureFormat::Png), QStringLiteral("export-timeline-panel.png"));

        // One block: its slices are every warp-instruction of the launch, as the simulator counts them.
        exported.clear();
        panel.setLaunchFields(QString(), QStringLiteral("1"), QString(), QStringLiteral("0"));
        const QString single = dir.filePath(QStringLiteral("single.json"));
        panel.exportTimeline(single);
        QVERIFY(exported.wait(120000));
        QVERIFY2(exported.at(0).at(0).toBool(), qPrintable(exported.at(0).at(1).toString()));
        const CoreTimeline one = coreTimeline("reduce_sequential", "1", 0);
        QCOMPARE(static_cast<std::uint64_t>(parseTrace(readAll(single)).instructionSlices), one.warpInstructions);

        // A launch too long to simulate is refused before it runs, in the window; the file stays as it was.
        exported.clear();
        writeBytes(path, "old timeline");
        panel.setLaunchFields(QString(), QStringLiteral("2147483647"), QString(), QStringLiteral("0"));
        panel.exportTimeline(path);
        QVERIFY(exported.wait(120000));
        QCOMPARE(exported.at(0).at(0).toBool(), false);
        const QString refused = exported.at(0).at(1).toString();
        QVERIFY2(refused.startsWith(QStringLiteral("No timeline exported: ")) && refused.contains(QStringLiteral("smaller grid")),
                 qPrintable(refused));
        QVERIFY(panel.statusText().contains(QStringLiteral("No timeline exported")));
        QCOMPARE(readAll(path), QByteArray("old timeline"));
        // A file that cannot be written says so, with its path and the reason.
        exported.clear();
        panel.setLaunchFields(QString(), QStringLiteral("1"), QString(), QStringLiteral("0"));
        const QString missing = dir.filePath(QStringLiteral("no-such-folder/timeline.json"));
        panel.exportTimeline(missing);
        QVERIFY(exported.wait(120000));
        QCOMPARE(exported.at(0).at(0).toBool(), false);
        QVERIFY2(exported.at(0).at(1).toString().startsWith(QStringLiteral("Cannot write ") + missing + QStringLiteral(": ")),
                 qPrintable(exported.at(0).at(1).toString()));
        // A cancelled export writes nothing and keeps the old file.
        viz::TimelineExportRequest request;
        request.target.target = "reduce_sequential";
        request.target.maxBufferBytes = sim::SimOptions{}.maxBufferBytes;
        request.path = QFile::encodeName(path).toStdString();
        const std::atomic<bool> cancelled{true};
        QVERIFY(viz::exportPerfettoTimeline(request, &cancelled).cancelled);
        QCOMPARE(readAll(path), QByteArray("old timeline"));
        // Only the files written on purpose are in the folder: no temporary file was left behind.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files, QDir::Name),
                 (QStringList{QStringLiteral("reduce.json"), QStringLiteral("single.json")}));
    }
};

int main(int argc, char** argv)
{
    app::prepareApplication();
    QApplication application(argc, argv);
    ExportTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "export_test.moc"
