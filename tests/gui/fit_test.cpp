// Every view fits a laptop (issue 27, section 2): each of the 17 views `warpscope screenshot --view`
// takes, at 1280 x 800 and 1366 x 768 in light and dark palettes and at 1920 x 1080, and each lesson with the
// figure it sets up at 1366 x 768, shows all of its controls, its figure at a readable size and no
// text cut with "…", as the window's own fit report
// (app/window/fit_report.h) finds them. First, that the report finds each kind of cut it looks for.
#include "gui_test_support.h"
#include "window/application_setup.h"
#include "window/fit_report.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QProcess>
#include <QPushButton>
#include <QScrollArea>
#include <QStandardPaths>
#include <QTabBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QVBoxLayout>

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

using namespace warpscope;

namespace {

// Paints one line of text at its full length, as a plot's label would: cut only if the text is.
class PaintedLabel : public QWidget {
public:
    explicit PaintedLabel(QString text, QWidget* parent) : QWidget(parent), m_text(std::move(text)) { setMinimumHeight(20); }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        painter.drawText(rect(), Qt::AlignLeft | Qt::AlignVCenter, m_text);
    }

private:
    QString m_text;
};

QStringList problemsOf(QWidget& window, const QWidget* figure = nullptr)
{
    window.show();
    gui_test::settle(window, 100);
    return app::fitProblems(window, figure);
}

bool mentions(const QStringList& problems, const QString& text)
{
    for (const QString& problem : problems)
        if (problem.contains(text))
            return true;
    return false;
}

} // namespace

class FitTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        app::configureApplication();
    }

    void theReportFindsEachKindOfCut()
    {
        QWidget window;
        window.resize(420, 300);
        auto* layout = new QVBoxLayout(&window);
        // A label too narrow for its line, and a button whose text does not fit.
        auto* row = new QWidget(&window);
        auto* rowLayout = new QHBoxLayout(row);
        auto* label = new QLabel(QStringLiteral("a label much longer than the room it was given"), row);
        label->setObjectName(QStringLiteral("narrowLabel"));
        label->setMaximumWidth(80);
        label->setMinimumWidth(0);
        label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        auto* button = new QPushButton(QStringLiteral("Export the whole timeline"), row);
        button->setObjectName(QStringLiteral("narrowButton"));
        button->setMaximumWidth(60);
        button->setMinimumWidth(0);
        button->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
        rowLayout->addWidget(label);
        rowLayout->addWidget(button);
        layout->addWidget(row);
        // A tab bar that elides its titles.
        auto* tabs = new QTabBar(&window);
        tabs->setElideMode(Qt::ElideRight);
        tabs->setExpanding(false);
        tabs->setUsesScrollButtons(false);
        for (const char* title : {"Performance Models", "Precision Lab", "Number Formats", "Occupancy Explorer"})
            tabs->addTab(QString::fromLatin1(title));
        tabs->setMaximumWidth(300);
        layout->addWidget(tabs);
        // A table whose cell is cut, and which scrolls sideways.
        auto* table = new QTableWidget(2, 4, &window);
        table->setObjectName(QStringLiteral("metrics"));
        table->setItem(0, 0, new QTableWidgetItem(QStringLiteral("gpu__time_duration.sum and more of its name")));
        table->setColumnWidth(0, 90);
        for (int column = 1; column < 4; ++column)
            table->setColumnWidth(column, 160);
        layout->addWidget(table);
        // Painted text cut with an ellipsis, and a button written with one.
        layout->addWidget(new PaintedLabel(QStringLiteral("dram__bytes_read.s\u2026"), &window));
        layout->addWidget(new QPushButton(QStringLiteral("Save Figure As\u2026"), &window));
        // A button pushed out of sight by a fixed-width parent that is no scroll area.
        auto* box = new QWidget(&window);
        box->setFixedSize(60, 30);
        auto* hidden = new QPushButton(QStringLiteral("Go"), box);
        hidden->setObjectName(QStringLiteral("offscreenButton"));
        hidden->setGeometry(70, 0, 40, 30);
        layout->addWidget(box);
        // The figure itself, smaller than a readable one.
        auto* figure = new QWidget(&window);
        figure->setFixedSize(200, 100);
        layout->addWidget(figure);

        const QStringList problems = problemsOf(window, figure);
        const QString all = problems.join(QLatin1Char('\n'));
        QVERIFY2(mentions(problems, QStringLiteral("narrowLabel")), qPrintable(all));
        QVERIFY2(mentions(problems, QStringLiteral("narrowButton")), qPrintable(all));
        QVERIFY2(mentions(problems, QStringLiteral("tab '")), qPrintable(all));
        QVERIFY2(mentions(problems, QStringLiteral("cell 'gpu__time_duration.sum")), qPrintable(all));
        QVERIFY2(mentions(problems, QStringLiteral("metrics scrolls sideways")), qPrintable(all));
        QVERIFY2(mentions(problems, QStringLiteral("text cut short: 'dram__bytes_read.s")), qPrintable(all));
        QVERIFY2(!mentions(problems, QStringLiteral("Save Figure As")), qPrintable(all)); // written so, not cut
        QVERIFY2(mentions(problems, QStringLiteral("offscreenButton")), qPrintable(all));
        QVERIFY2(mentions(problems, QStringLiteral("the figure is only 200 x 100 px")), qPrintable(all));
    }

    void aWindowThatFitsHasNothingToReport()
    {
        QWidget window;
        window.resize(640, 400);
        auto* layout = new QVBoxLayout(&window);
        layout->addWidget(new QLabel(QStringLiteral("Short"), &window));
        layout->addWidget(new QPushButton(QStringLiteral("Run"), &window));
        auto* figure = new QWidget(&window);
        figure->setMinimumSize(app::kReadableFigure);
        layout->addWidget(figure);
        const QStringList problems = problemsOf(window, figure);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    void everyViewFitsALaptop()
    {
        // Two shots at a time (CI has two cores); each a view at a size, or a lesson with its figure.
        struct Shot {
            QStringList arguments;
            QString name;
        };
        std::vector<Shot> shots;
        const char* views[] = {"hierarchy", "placement", "occupancy", "profile", "formats", "amp",
                               "quant", "sparsity", "execution", "memory", "quiz", "cards",
                               "advisor", "streams", "pipeline", "memory-budget", "allreduce"};
        const std::pair<const char*, const char*> sizes[] = {{"1280x800", "light"}, {"1280x800", "dark"}, {"1366x768", "light"},
                                                             {"1366x768", "dark"}, {"1920x1080", "light"}};
        for (const auto& [size, palette] : sizes)
            for (const char* view : views) {
                QStringList arguments{QStringLiteral("--view"), QString::fromLatin1(view), QStringLiteral("--size"),
                                      QString::fromLatin1(size), QStringLiteral("--palette"), QString::fromLatin1(palette)};
                if (QLatin1String(view) == QLatin1String("profile"))
                    arguments << QStringLiteral("--session") << QStringLiteral(WARPSCOPE_SOURCE_DIR "/assets/recorded/h200/demo-kernels.wsprof");
                shots.push_back({arguments, QStringLiteral("%1 at %2 (%3)").arg(QLatin1String(view), QLatin1String(size), QLatin1String(palette))});
            }
        // Each lesson's home figure in the centre, on the most common laptop screen.
        const char* lessons[] = {"hierarchy", "occupancy", "precision", "quantization", "stepping", "memory",
                                 "shared-memory", "divergence", "reduction", "latency", "matmul", "roofline",
                                 "streams", "training-memory", "multi-gpu", "inference", "serving", "flash-attention",
                                 "tensor-cores", "microscaling"};
        for (const char* lesson : lessons)
            shots.push_back({{QStringLiteral("--lesson"), QString::fromLatin1(lesson), QStringLiteral("--size"), QStringLiteral("1366x768")},
                             QStringLiteral("lesson %1 at 1366x768").arg(QLatin1String(lesson))});

        QTemporaryDir dir;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        environment.insert(QStringLiteral("WARPSCOPE_SOFTWARE_CANVAS"), QStringLiteral("1"));
        QStringList problems;
        // What one finished shot reported: its problems, or why it reported nothing.
        auto collect = [&](QProcess& process, const Shot& shot) {
            if (!process.waitForFinished(180000) || process.exitCode() != 0) {
                problems << QStringLiteral("%1: the screenshot failed (exit %2): %3")
                                .arg(shot.name).arg(process.exitCode()).arg(QString::fromUtf8(process.readAllStandardError()).trimmed());
                return;
            }
            bool counted = false;
            for (const QString& line : QString::fromUtf8(process.readAllStandardOutput()).split(QLatin1Char('\n'))) {
                if (!line.startsWith(QStringLiteral("fit: ")))
                    continue;
                if (line.contains(QStringLiteral(" problem(s) at ")))
                    counted = true;
                else
                    problems << QStringLiteral("%1: %2").arg(shot.name, line.mid(5));
            }
            if (!counted)
                problems << QStringLiteral("%1: the screenshot printed no fit report").arg(shot.name);
        };
        constexpr std::size_t kAtOnce = 2;
        for (std::size_t first = 0; first < shots.size(); first += kAtOnce) {
            std::vector<std::unique_ptr<QProcess>> running;
            for (std::size_t i = first; i < std::min(shots.size(), first + kAtOnce); ++i) {
                auto process = std::make_unique<QProcess>();
                process->setProcessEnvironment(environment);
                process->start(QStringLiteral(WARPSCOPE_BINARY),
                               QStringList{QStringLiteral("screenshot"), QStringLiteral("--fit-report"), QStringLiteral("--out"),
                                           dir.filePath(QStringLiteral("shot%1.png").arg(i))} + shots[i].arguments);
                running.push_back(std::move(process));
            }
            for (std::size_t k = 0; k < running.size(); ++k)
                collect(*running[k], shots[first + k]);
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }
};

QTEST_MAIN(FitTest)
#include "fit_test.moc"
