// What the two profiler GUI tests share (profile_test.cpp: the probe in the window;
// profile_session_test.cpp: sessions in the views): the fixture folders, reading and writing whole
// files, and a fresh window on the Profiler with a chosen probe and recorded-sessions folder.
#pragma once

#include "profile/profile_panel.h"
#include "window/main_window.h"

#include <QByteArray>
#include <QFile>
#include <QIODevice>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace warpscope::profile_gui_test {

inline const QString kFixtures = QStringLiteral(WARPSCOPE_FIXTURES_DIR);

inline QString sessionFixture(const QString& name) { return kFixtures + QStringLiteral("/sessions/") + name; }
inline QString probeFixture(const QString& name) { return kFixtures + QStringLiteral("/probe/") + name; }

inline QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

inline void writeAll(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    QVERIFY2(file.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
    file.write(bytes);
}

// A fresh window with the probe named by `probe` (empty: none set) and no recorded sessions unless
// `recordedDir` says where they are.
struct WindowUnderTest {
    explicit WindowUnderTest(const QString& probe = {}, const QString& recordedDir = {})
    {
        if (probe.isEmpty())
            qunsetenv("WARPSCOPE_PROBE");
        else
            qputenv("WARPSCOPE_PROBE", probe.toLocal8Bit());
        qputenv("WARPSCOPE_RECORDED_DIR", (recordedDir.isEmpty() ? emptyDir.path() : recordedDir).toLocal8Bit());
        window = std::make_unique<app::MainWindow>(app::MainWindow::Options{.restoreSettings = false});
        window->resize(1500, 950);
        window->show();
        window->focusProfiler();
        panel = window->profilePanel();
        panel->setTerminateGrace(300);
    }
    ~WindowUnderTest() { qunsetenv("WARPSCOPE_RECORDED_DIR"); }
    QTemporaryDir emptyDir;
    std::unique_ptr<app::MainWindow> window;
    app::ProfilePanel* panel = nullptr;
};

} // namespace warpscope::profile_gui_test
