// session/session_io.h for files that also include Qt: SessionWriter has a private member named
// `emit`, which Qt defines as a macro, so the macro is set aside while the header is read.
#pragma once

#pragma push_macro("emit")
#undef emit
#include "session/session_io.h"
#pragma pop_macro("emit")
