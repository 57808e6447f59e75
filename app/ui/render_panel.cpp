// Render panel: colour mode with its legend, bond lines, element scale, shadows.
#include <imgui.h>

#include "legend.h"
#include "ui/ui_state.h"

namespace frac::ui {

void drawRenderPanel(UiState& ui, const SimSnapshot& snapshot) {
  if (!ImGui::CollapsingHeader("Render", ImGuiTreeNodeFlags_DefaultOpen)) return;
  int mode = int(ui.render.colorMode);
  const char* names[render::kColorModeCount];
  for (int m = 0; m < render::kColorModeCount; ++m) names[m] = render::colorModeName(render::ColorMode(m));
  if (ImGui::Combo("colour", &mode, names, render::kColorModeCount)) ui.render.colorMode = render::ColorMode(mode);
  if (ui.render.colorMode == render::ColorMode::Speed) ImGui::Checkbox("auto speed range", &ui.render.autoSpeedRange);
  if (render::isScalarMode(ui.render.colorMode) &&
      !(ui.render.colorMode == render::ColorMode::Speed && ui.render.autoSpeedRange))
    ImGui::DragFloatRange2("range", &ui.render.scalarMin, &ui.render.scalarMax, 0.01f, 0.0f, 1e4f, "%.3g");
  render::LegendInfo legend;
  legend.mode = ui.render.colorMode;
  legend.range = ui.range;
  legend.materialNames = snapshot.frame.materialNames;
  legend.materialColors = snapshot.frame.materialColors;
  legend.fragments = snapshot.stats.fragments;
  legend.time = snapshot.stats.time;
  render::drawLegendContents(legend);
  bool bonds = ui.render.bonds;
  if (ImGui::Checkbox("bonds (intact blue, broken red)", &bonds)) {
    ui.render.bonds = bonds;
    ui.sim->setBondLines(bonds);
  }
  ImGui::SliderFloat("element scale", &ui.render.elementScale, 0.1f, 1.0f);
  ImGui::Checkbox("shadows", &ui.render.shadows);
}

}  // namespace frac::ui
