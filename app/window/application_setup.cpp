#include "window/application_setup.h"

#include "window/tooltip_wrapper.h"

#include <QApplication>
#include <QCoreApplication>
#include <QGuiApplication>
#include <QIcon>

namespace warpscope::app {

void prepareApplication()
{
    // The canvas is a QOpenGLWidget; sharing keeps it valid if a future layout reparents it.
    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
}

void configureApplication()
{
    QCoreApplication::setOrganizationName(QStringLiteral("Warpscope"));
    QCoreApplication::setApplicationName(QStringLiteral("warpscope"));
    // The installed warpscope.desktop and its icon (share/icons/hicolor): the desktop shows them
    // for the window; from a build tree the theme has no such icon and nothing changes.
    QGuiApplication::setDesktopFileName(QStringLiteral("warpscope"));
    if (qobject_cast<QGuiApplication*>(QCoreApplication::instance()) != nullptr)
        QGuiApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("warpscope")));
    installToolTipWrapper(); // long plain tooltips wrap instead of running across the screen
#ifdef WARPSCOPE_VERSION
    QCoreApplication::setApplicationVersion(QStringLiteral(WARPSCOPE_VERSION));
#endif
}

} // namespace warpscope::app
