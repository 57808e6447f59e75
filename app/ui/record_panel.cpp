// Record panel: start / stop, folder, frame rate (simulated time per frame), with or without the UI, the fracture
// surfaces as PLY meshes and the elements' data as VTU files. Every simulated frame is recorded (the simulation waits for the writer), and replay.jsonl is
// written next to the frames.
#include <imgui.h>

#include <algorithm>

#include "ui/param_widget.h"
#include "ui/ui_state.h"

namespace frac::ui {

namespace {

// Frames of the run (the timeline's, or any up to the latest) rendered again headless at another size from the view's
// current camera and render settings: re-simulated from the replay log by a child process (app/session/range_render.h).
void drawRangeRender(UiState& ui, const SimSnapshot& snapshot) {
  RangeRenderState& g = ui.rangeRender;
  ImGui::Separator();
  ImGui::TextUnformatted("Render a range at another size");
  const int latest = std::max(1, std::max(snapshot.frameIndex, snapshot.timelineLast));
  if (g.frames[1] <= 1 && g.frames[0] <= 1) g.frames[0] = 1, g.frames[1] = latest;
  ImGui::InputInt2("frames", g.frames);
  g.frames[1] = std::clamp(g.frames[1], 1, latest);
  g.frames[0] = std::clamp(g.frames[0], 1, g.frames[1]);
  ImGui::InputInt2("size", g.size);
  for (int& s : g.size) s = std::clamp(s, 16, 16384);
  ImGui::InputText("range folder", g.folder, sizeof g.folder);
  ImGui::BeginDisabled(g.running);
  if (ImGui::Button("Render range")) g.requested = true;
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("re-simulates frames 1 to %d headless in the background (the same bits as this run) and renders "
                      "%d to %d from the current view",
                      g.frames[1], g.frames[0], g.frames[1]);
  if (!g.status.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", g.status.c_str());
    ImGui::PopTextWrapPos();
  }
}

}  // namespace

void drawRecordPanel(UiState& ui, const SimSnapshot& snapshot) {
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
    drawRangeRender(ui, snapshot);
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
