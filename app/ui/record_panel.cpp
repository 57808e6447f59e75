// Record panel: start / stop, folder, frame rate (simulated time per frame), with or without the UI, the fracture
// surfaces as PLY meshes and the elements' data as VTU files. Every simulated frame is recorded (the simulation waits for the writer), and replay.jsonl is
// written next to the frames.
#include <imgui.h>

#include "ui/param_widget.h"
#include "ui/ui_state.h"

namespace frac::ui {

void drawRecordPanel(UiState& ui, const SimSnapshot&) {
  if (!ImGui::CollapsingHeader("Record")) return;
  RecordState& r = ui.record;
  if (!r.active) {
    ImGui::InputText("folder", r.folder, sizeof r.folder);
    ImGui::Checkbox("with the UI", &r.withUi);
    ImGui::Checkbox("export meshes (PLY)", &r.exportMeshes);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("each frame's fracture surfaces as mesh_NNNNNN.ply, numbered as the frames");
    if (r.exportMeshes) ImGui::InputText("mesh folder", r.meshFolder, sizeof r.meshFolder);
    ImGui::Checkbox("export data (VTU)", &r.exportData);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("each frame's elements (and tetrahedra) as elements_NNNNNN.vtu with elements.pvd: open in ParaView");
    if (r.exportData) {
      ImGui::InputText("data folder", r.dataFolder, sizeof r.dataFolder);
      ImGui::Checkbox("bonds as lines", &r.exportBonds);
    }
    const ParamSpec& fps = *paramGroup("scene").find("fps");
    const nlohmann::json current = ui.document.value("fps", fps.defaultValue);
    nlohmann::json edited;
    if (paramWidget(fps, "record.fps", current, edited)) submitSet(ui, "fps", edited, current);
    if (ImGui::Button("Start recording")) r.startRequested = true;
  } else {
    ImGui::TextColored(ImVec4(1, 0.2f, 0.2f, 1), "recording: %d frames", r.framesWritten);
    if (ImGui::Button("Stop recording")) r.stopRequested = true;
  }
  if (!r.status.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", r.status.c_str());
    ImGui::PopTextWrapPos();
  }
}

void drawRecordingIndicator(const UiState& ui) {
  if (!ui.record.active) return;
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const ImVec2 centre(display.x - 110.0f, 22.0f);
  draw->AddCircleFilled(centre, 8.0f, IM_COL32(230, 30, 30, 255));
  char text[64];
  std::snprintf(text, sizeof text, "REC %d", ui.record.framesWritten);
  draw->AddText(ImVec2(centre.x + 14.0f, centre.y - 7.0f), IM_COL32(255, 255, 255, 255), text);
}

}  // namespace frac::ui
