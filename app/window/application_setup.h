// Process-wide Qt setup shared by the window, the screenshot command and the GUI tests.
#pragma once

namespace warpscope::app {

void prepareApplication();   // before QApplication: attributes that must be set first
void configureApplication(); // after QApplication: names for QSettings, style details

} // namespace warpscope::app
