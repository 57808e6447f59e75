// The scene browser: every shipped scene as a thumbnail (the scene at t = 0, rendered by the program itself: see
// app/thumbnails.h) with its name and description; a click opens it.
#include <imgui.h>

#include <algorithm>

#include "ui/ui_state.h"

namespace frac::ui {

void drawSceneBrowser(UiState& ui) {
  if (!ui.showBrowser) return;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_FirstUseEver, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(display.x - 40.0f, 860.0f), display.y * 0.8f), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowBgAlpha(1.0f);  // over the view and the panels: no text shows through
  if (!ImGui::Begin("Scenes", &ui.showBrowser)) {
    ImGui::End();
    return;
  }
  if (ui.thumbnailsPending > 0)
    ImGui::TextDisabled("rendering %d thumbnails (kept for next time)...", ui.thumbnailsPending);
  constexpr float kImageWidth = 192.0f, kImageHeight = 108.0f;
  const float cell = kImageWidth + ImGui::GetStyle().ItemSpacing.x * 2.0f;
  const int columns = std::max(1, int(ImGui::GetContentRegionAvail().x / cell));
  if (ImGui::BeginTable("scenes", columns)) {
    for (size_t k = 0; k < ui.browser.size(); ++k) {
      const BrowserEntry& e = ui.browser[k];
      ImGui::TableNextColumn();
      ImGui::PushID(int(k));
      bool open = false;
      if (e.hasThumbnail)
        open = ImGui::ImageButton(ImGui::GetIO().Fonts->TexID, ImVec2(kImageWidth, kImageHeight), ImVec2(e.u0, e.v0),
                                  ImVec2(e.u1, e.v1), 0);
      else
        open = ImGui::Button("...", ImVec2(kImageWidth, kImageHeight));
      open = ImGui::Selectable(e.name.c_str()) || open;
      if (!e.description.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", e.description.c_str());
      ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + kImageWidth);
      ImGui::TextDisabled("%.90s%s", e.description.c_str(), e.description.size() > 90 ? "..." : "");
      ImGui::PopTextWrapPos();
      if (open) {
        ui.requestOpen = e.path;
        ui.showBrowser = false;
      }
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

}  // namespace frac::ui
