// The window's panels in one column on the left, the help and recording overlays, and the throw arrow while aiming.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <imgui.h>

#include "ui/ui_state.h"

namespace frac::ui {

void drawMainWindow(UiState& ui, const SimSnapshot& snapshot) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(8, 8), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(380, display.y - 16), ImGuiCond_FirstUseEver);
  if (ImGui::Begin("Fracture Sandbox")) {
    ImGui::PushItemWidth(ImGui::GetWindowWidth() * 0.5f);
    drawScenePanel(ui, snapshot);
    drawStatsPanel(ui, snapshot);
    drawMaterialPanel(ui, snapshot);
    drawSolverPanel(ui, snapshot);
    drawProjectilePanel(ui);
    drawRenderPanel(ui, snapshot);
    drawRecordPanel(ui, snapshot);
    const std::string message = ui.sim->lastMessage();
    if (!message.empty()) {
      ImGui::Separator();
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextUnformatted(message.c_str());
      ImGui::PopTextWrapPos();
      if (const int frame = ui.sim->rollbackFrame(); frame >= 0) {  // the run diverged: offer the way back
        const std::string label = "Roll back to frame " + std::to_string(frame) + " with dt halved (B)";
        if (ImGui::Button(label.c_str())) ui.sim->rollBack();
      }
    }
    ImGui::PopItemWidth();
  }
  ImGui::End();
  drawHelpOverlay(ui);
  drawSceneBrowser(ui);
  drawStartHint(ui, snapshot);
  drawRecordingIndicator(ui);
}

namespace {

// A world point on the screen (ImGui's display coordinates).
ImVec2 toScreen(const glm::vec3& p, const render::Camera& c, VkExtent2D e) {
  const glm::vec4 q = c.projection(float(e.width) / float(e.height)) * c.view() * glm::vec4(p, 1.0f);
  const float scale = ImGui::GetIO().DisplaySize.y / float(e.height);
  return ImVec2((0.5f + 0.5f * q.x / q.w) * float(e.width) * scale, (0.5f + 0.5f * q.y / q.w) * float(e.height) * scale);
}

}  // namespace

void drawGrabLine(const SimSnapshot& snapshot, const render::Camera& c, VkExtent2D e) {
  if (!snapshot.grabActive) return;
  const ImVec2 a = toScreen(snapshot.grabElement, c, e), b = toScreen(snapshot.grabTarget, c, e);
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  draw->AddLine(a, b, IM_COL32(120, 220, 255, 255), 2.0f);
  draw->AddCircleFilled(a, 4.0f, IM_COL32(120, 220, 255, 255));
  draw->AddCircle(b, 7.0f, IM_COL32(120, 220, 255, 255), 0, 2.0f);
}

void drawThrowArrow(const ThrowTool& tool, const render::Camera& c, VkExtent2D e, const ThrowSettings& settings) {
  if (!tool.active()) return;
  auto toScreen = [&](const glm::vec3& p) { return ui::toScreen(p, c, e); };
  const glm::vec3 v = tool.velocity(c, float(e.height), settings);
  const float length = glm::length(c.target - c.eye) * 0.02f;  // 1 m/s = 2% of the view distance
  const ImVec2 a = toScreen(tool.start()), b = toScreen(tool.start() + v * length);
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  draw->AddCircleFilled(a, 5.0f, IM_COL32(255, 220, 60, 255));
  draw->AddLine(a, b, IM_COL32(255, 220, 60, 255), 3.0f);
  const ImVec2 d(b.x - a.x, b.y - a.y);
  const float n = std::max(std::sqrt(d.x * d.x + d.y * d.y), 1e-3f);
  const ImVec2 u(d.x / n, d.y / n), p(-u.y, u.x);
  draw->AddTriangleFilled(b, ImVec2(b.x - 14 * u.x + 7 * p.x, b.y - 14 * u.y + 7 * p.y),
                          ImVec2(b.x - 14 * u.x - 7 * p.x, b.y - 14 * u.y - 7 * p.y), IM_COL32(255, 220, 60, 255));
  char text[64];
  std::snprintf(text, sizeof text, "%.1f m/s", glm::length(v));
  draw->AddText(ImVec2(b.x + 8, b.y), IM_COL32(255, 255, 255, 255), text);
}

}  // namespace frac::ui
