// Which source files are the learner's: a line inside a toolkit header (cuda_fp16.hpp,
// sm_30_intrinsics.hpp, ...) is not where a learner can change anything, so lines are reported at
// the innermost place in a file of their own (issue 29, section 7). Qt-free.
#pragma once

#include <string_view>

namespace warpscope::ptx {

// True for a header of the CUDA toolkit (its include folder, as this build found it, or any
// .../targets/<platform>/include/... or .../cuda/include/... path) and for the C and C++ headers
// Warpscope gives NVRTC in memory (nvrtc_std_headers.h); false for everything else.
bool isToolkitHeader(std::string_view path);

} // namespace warpscope::ptx
