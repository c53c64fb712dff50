// Lessons that show what the learner's own GPU measured: a line that is exactly
// `{{measured:hierarchy}}` becomes a table of the open session's memory ladder (the probe's
// pointer-chase latencies and bandwidths per level), or, without one, a sentence saying how to
// measure it. See assets/lessons/README.md.
#pragma once

#include "session/session.h"

#include <QString>

namespace warpscope::app {

inline constexpr char kMeasuredHierarchyLine[] = "{{measured:hierarchy}}";

bool lessonShowsMeasurements(const QString& markdown);

// `markdown` with each measurement line replaced; `session` is the open profiling session or null.
QString expandLessonMeasurements(const QString& markdown, const session::Session* session);

} // namespace warpscope::app
