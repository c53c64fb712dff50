// The `warpscope:` link scheme that lessons use to set up the figures (assets/lessons/README.md):
//   warpscope:lesson?id=occupancy
//   warpscope:hierarchy?grid=4,2&block=96
//   warpscope:placement?arch=sm_90&grid=528&block=512&regs=32&static_smem=0&dynamic_smem=0
//   warpscope:occupancy?arch=sm_90&block=256&regs=64&static_smem=0&dynamic_smem=32K&carveout=-1&barriers=1
//   warpscope:formats?format=fp16&value=0.1&bits=0x3C00&saturate=1
// Parsing is strict: an unknown view or key, a repeated key, or a bad value is an InputError that
// names the link, the key and what is allowed. Qt-free.
#pragma once

#include "launch/launch_geometry.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace warpscope::app {

enum class LinkView { Lesson, Hierarchy, Placement, Occupancy, Formats };

struct ViewLink {
    LinkView view = LinkView::Hierarchy;
    std::string lessonId;                       // lesson only
    std::optional<std::string> arch;            // canonical "sm_90"
    std::optional<launch::Dim3> grid;
    std::optional<launch::Dim3> block;
    std::optional<int> registers;
    std::optional<std::size_t> staticShared;
    std::optional<std::size_t> dynamicShared;
    std::optional<int> carveout;
    std::optional<int> barriers;
    std::optional<std::string> numberFormat;   // formats: numerics' key, "fp16"
    std::optional<std::string> valueText;      // formats: the compared value as written ("0.1")
    std::optional<double> value;               //   and as read (the nearest double)
    std::optional<std::uint32_t> bits;         // formats: the explored pattern (needs numberFormat)
    std::optional<bool> saturate;              // formats: overflow saturates (__NV_SATFINITE)
};

ViewLink parseViewLink(std::string_view url);

} // namespace warpscope::app
