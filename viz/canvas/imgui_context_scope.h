// Makes one ImGui context current for a scope: several canvases (and tests) each own a context.
#pragma once

#include <imgui.h>

namespace warpscope::viz {

class ImGuiContextScope {
public:
    explicit ImGuiContextScope(ImGuiContext* context) : m_previous(ImGui::GetCurrentContext())
    {
        ImGui::SetCurrentContext(context);
    }
    ~ImGuiContextScope() { ImGui::SetCurrentContext(m_previous); }
    ImGuiContextScope(const ImGuiContextScope&) = delete;
    ImGuiContextScope& operator=(const ImGuiContextScope&) = delete;

private:
    ImGuiContext* m_previous;
};

} // namespace warpscope::viz
