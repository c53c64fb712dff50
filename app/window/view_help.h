// What F1 says about each view of the window: its name, a few sentences on what it shows and how to
// drive it, what to try first, and the lesson that explains it (empty when no lesson does). The window decides which
// view has the focus (MainWindow::helpTopicFor); this file only holds the texts.
#pragma once

#include <QString>

namespace warpscope::app {

enum class HelpTopic {
    Lessons, Hierarchy, Placement, Execution, ExecutionMemory, Details, Occupancy,
    ProfileMetrics, ProfileBandwidth, ProfileRoofline, ProfilePrediction, ProfileSession,
    Formats, MixedPrecision, Quantization, Sparsity, Study,
    Streams, Pipeline, MemoryBudget, AllReduce,
};

struct ViewHelp {
    HelpTopic topic = HelpTopic::Hierarchy;
    QString view;     // "Occupancy explorer"
    QString text;     // plain text, a few sentences
    QString lessonId; // the lesson that explains the view ("occupancy"); empty for none
    QString tryFirst; // one thing to do first, with what it shows
};

ViewHelp viewHelp(HelpTopic topic);

} // namespace warpscope::app
