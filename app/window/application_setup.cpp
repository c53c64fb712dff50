#include "window/application_setup.h"

#include <QApplication>
#include <QCoreApplication>

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
#ifdef WARPSCOPE_VERSION
    QCoreApplication::setApplicationVersion(QStringLiteral(WARPSCOPE_VERSION));
#endif
}

} // namespace warpscope::app
