// The controls, with H, in the top-right corner (not over the scene's middle); and the one-line hint at the start.
#include <imgui.h>

#include "ui/ui_state.h"

namespace frac::ui {

void drawHelpOverlay(UiState& ui) {
  if (!ui.showHelp) return;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x - 10.0f, 10.0f), ImGuiCond_Appearing, ImVec2(1.0f, 0.0f));
  ImGui::SetNextWindowBgAlpha(0.85f);
  if (ImGui::Begin("Controls", &ui.showHelp, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings)) {
    const char* rows[][2] = {
        {"left-drag", "throw a ball: press on the scene, drag to aim (arrow = direction and speed), release"},
        {"G, then left-drag", "grab: pull the element under the cursor and its neighbours (G again: back to throwing)"},
        {"right-drag", "orbit the camera"},
        {"middle-drag / shift + right-drag", "pan"},
        {"wheel", "zoom"},
        {"Space", "pause / run"},
        {"S", "one step"},
        {"R", "reset the scene (keeps your edits)"},
        {"B", "after the run diverged: back to the last sound frame with dt halved"},
        {"Ctrl+Z / Ctrl+Shift+Z", "undo / redo a parameter edit (also in the replay log)"},
        {"F12", "screenshot (out/screenshots/)"},
        {"H", "show / hide this help"},
    };
    if (ImGui::BeginTable("keys", 2)) {
      for (const auto& row : rows) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(row[0]);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(row[1]);
      }
      ImGui::EndTable();
    }
    ImGui::TextDisabled("Panels on the left edit the material live; * marks what applies on reset.");
  }
  ImGui::End();
}

void drawStartHint(const UiState& ui, const SimSnapshot& snapshot) {
  if (!ui.showHint || snapshot.step > 0 || ui.showHelp) return;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y - 12.0f), ImGuiCond_Always, ImVec2(0.5f, 1.0f));
  ImGui::SetNextWindowBgAlpha(0.7f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs;
  if (ImGui::Begin("Hint", nullptr, flags))
    ImGui::TextUnformatted(snapshot.paused ? "Space to run   left-drag to throw a ball   G to grab   H for the controls"
                                           : "left-drag to throw a ball   G to grab   H for the controls");
  ImGui::End();
}

}  // namespace frac::ui
