// Scene panel: presets, open a file, reset, pause / run / single step, simulation speed, save and load the state.
#include <imgui.h>

#include <algorithm>

#include "ui/ui_state.h"

namespace frac::ui {

void submitSet(UiState& ui, const std::string& key, const nlohmann::json& value, const nlohmann::json& before) {
  ui.edits.record(key, before, value, ImGui::GetTime());
  ui.sim->submit(Command::set(key, value));
}

void undoEdit(UiState& ui) {
  if (auto command = ui.edits.undo()) ui.sim->submit(*command);
}

void redoEdit(UiState& ui) {
  if (auto command = ui.edits.redo()) ui.sim->submit(*command);
}

namespace {

// "materials.stone.young: 2e7 -> 1e7" for the buttons' tooltips.
std::string describe(const EditHistory::Edit& edit, bool forward) {
  const nlohmann::json& from = forward ? edit.before : edit.after;
  const nlohmann::json& to = forward ? edit.after : edit.before;
  return edit.key + ": " + from.dump() + " -> " + to.dump();
}

void drawUndoButtons(UiState& ui) {
  const EditHistory::Edit* undo = ui.edits.nextUndo();
  const EditHistory::Edit* redo = ui.edits.nextRedo();
  ImGui::SameLine();
  ImGui::BeginDisabled(!undo);
  if (ImGui::Button("Undo")) undoEdit(ui);
  if (undo && ImGui::IsItemHovered()) ImGui::SetTooltip("Ctrl+Z: %s", describe(*undo, false).c_str());
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(!redo);
  if (ImGui::Button("Redo")) redoEdit(ui);
  if (redo && ImGui::IsItemHovered()) ImGui::SetTooltip("Ctrl+Shift+Z: %s", describe(*redo, true).c_str());
  ImGui::EndDisabled();
}

// Frame by frame, and playback of the kept frames in slow motion (session/timeline_player.h).
void drawPlayback(UiState& ui, const SimSnapshot& snapshot, int frame) {
  const int step = ImGui::ArrowButton("previous frame", ImGuiDir_Left) ? -1 : 0;
  ImGui::SameLine();
  const int forward = ImGui::ArrowButton("next frame", ImGuiDir_Right) ? 1 : 0;
  if (step + forward != 0) {  // frame by frame
    ui.player.stop();
    ui.sim->scrubTo(std::clamp(frame + step + forward, snapshot.timelineFirst, snapshot.timelineLast));
  }
  ImGui::SameLine();
  if (ui.player.playing()) {
    if (ImGui::Button("Stop playback")) ui.player.stop();
  } else if (ImGui::Button("Play back")) {
    const double rate = TimelinePlayer::kRates[ui.playRate];
    if (frame >= snapshot.timelineLast) {  // at the end: from the first kept frame
      ui.sim->scrubTo(snapshot.timelineFirst);
      ui.player.play(rate, snapshot.timelineFirst);
    } else {
      ui.sim->scrubTo(frame);  // pauses there
      ui.player.play(rate, frame);
    }
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("show the kept frames again without simulating them (record meanwhile to keep that range; "
                      "Run goes on from the frame shown)");
  ImGui::SameLine();
  const char* rates[] = {"0.1x", "0.25x", "1x"};
  ImGui::SetNextItemWidth(70.0f);
  if (ImGui::Combo("of real time", &ui.playRate, rates, IM_ARRAYSIZE(rates)) && ui.player.playing())
    ui.player.play(TimelinePlayer::kRates[ui.playRate]);
}

}  // namespace

void drawScenePanel(UiState& ui, const SimSnapshot& snapshot) {
  if (!ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const std::string current = ui.document.value("name", std::string("scene"));
  ImGui::Text("%s", current.c_str());
  if (ui.document.contains("description") && ui.document["description"].is_string()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", ui.document["description"].get<std::string>().c_str());
    ImGui::PopTextWrapPos();
  }
  if (ImGui::BeginCombo("preset", "choose a scene")) {
    for (const std::string& path : ui.presets)
      if (ImGui::Selectable(path.c_str())) ui.requestOpen = path;
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  if (ImGui::Button("Browse")) ui.showBrowser = true;
  ImGui::InputText("file", ui.openPath, sizeof ui.openPath);
  ImGui::SameLine();
  if (ImGui::Button("Open") && ui.openPath[0]) ui.requestOpen = ui.openPath;
  if (ImGui::Button(snapshot.paused ? "Run (Space)" : "Pause (Space)")) {
    ui.player.stop();
    ui.sim->setPaused(!snapshot.paused);
  }
  ImGui::SameLine();
  if (ImGui::Button("Step (S)")) ui.sim->stepOnce();
  ImGui::SameLine();
  if (ImGui::Button("Reset (R)")) ui.sim->submit(Command::reset());
  drawUndoButtons(ui);
  if (ImGui::Checkbox("timeline", &ui.timeline)) ui.sim->setTimeline(ui.timeline, size_t(ui.timelineBudgetMb) << 20);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("keep every frame's state (up to %d MB): drag the frame slider back to see and run on from it",
                      ui.timelineBudgetMb);
  if (ui.timeline && snapshot.timelineFirst >= 0 && snapshot.timelineLast > snapshot.timelineFirst) {
    int frame = std::clamp(snapshot.frameIndex, snapshot.timelineFirst, snapshot.timelineLast);
    ImGui::SameLine();
    if (ImGui::SliderInt("frame", &frame, snapshot.timelineFirst, snapshot.timelineLast)) {
      ui.player.stop();
      ui.sim->scrubTo(frame);
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("frames %d to %d kept (%.0f MB); running on from an earlier one drops the later ones",
                        snapshot.timelineFirst, snapshot.timelineLast, double(snapshot.timelineBytes) / 1e6);
    drawPlayback(ui, snapshot, frame);
  }
  ImGui::InputText("state file", ui.statePath, sizeof ui.statePath);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("a checkpoint: the whole state with the scene, edits and throws; go on later here or headless "
                      "with --resume");
  if (ImGui::Button("Save state") && ui.statePath[0]) ui.sim->saveState(ui.statePath);
  ImGui::SameLine();
  if (ImGui::Button("Load state") && ui.statePath[0]) ui.sim->loadState(ui.statePath);
  if (ImGui::SliderFloat("speed", &ui.speed, 0.0f, 2.0f, ui.speed == 0.0f ? "max" : "%.3f x real time"))
    ui.sim->setSpeed(ui.speed);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("simulated seconds per wall second; 0 = as fast as the machine allows");
}

}  // namespace frac::ui
