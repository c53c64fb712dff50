// Helpers the GUI tests share: letting a widget settle before it is measured, and a screenshot to
// look at by hand, written only when the run asks for one (WARPSCOPE_GUI_TEST_SHOTS names the
// folder), never compared by a test.
#pragma once

#include "common/validated_field.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QString>
#include <QTest>
#include <QWidget>

namespace warpscope::gui_test {

// Processes events and repaints `widget` for `milliseconds`, so that layouts, animations and
// deferred updates have run before a test reads geometry or pixels.
inline void settle(QWidget& widget, int milliseconds)
{
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < milliseconds) {
        QApplication::processEvents(QEventLoop::AllEvents, 10);
        widget.update();
        QTest::qWait(10);
    }
}

// The field of `parent` named `name` (its object name); a test that cannot find it stops there.
inline viz::ValidatedField* fieldOf(QWidget* parent, const char* name)
{
    auto* field = parent->findChild<viz::ValidatedField*>(QString::fromLatin1(name));
    if (field == nullptr)
        qFatal("no field %s", name);
    return field;
}

// `widget` as `name`.png in $WARPSCOPE_GUI_TEST_SHOTS after `waitMs` of event processing; nothing
// when the variable is unset.
inline void saveShot(QWidget& widget, const QString& name, int waitMs = 100)
{
    const QString folder = qEnvironmentVariable("WARPSCOPE_GUI_TEST_SHOTS");
    if (folder.isEmpty())
        return;
    QTest::qWait(waitMs);
    widget.grab().save(QDir(folder).filePath(name + QStringLiteral(".png")), "PNG");
}

} // namespace warpscope::gui_test
