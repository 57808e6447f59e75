// Render panel: the registry's "render" group (colour mode, range, bonds, element scale, shadows, spheres or fracture
// surfaces and their resolution) and the legend.
#include <imgui.h>

#include "legend.h"
#include "ui/settings_values.h"
#include "ui/ui_state.h"

namespace frac::ui {

void drawRenderPanel(UiState& ui, const SimSnapshot& snapshot) {
  if (!ImGui::CollapsingHeader("Render", ImGuiTreeNodeFlags_DefaultOpen)) return;
  if (groupWidgets("render", ui.renderValues)) {
    applyRenderValues(ui.renderValues, ui.render);
    ui.sim->setBondLines(ui.render.bonds);
  }
  render::LegendInfo legend;
  legend.mode = ui.render.colorMode;
  legend.range = ui.range;
  legend.materialNames = snapshot.frame.materialNames;
  legend.materialColors = snapshot.frame.materialColors;
  legend.fragments = snapshot.stats.fragments;
  legend.time = snapshot.stats.time;
  render::drawLegendContents(legend);
}

}  // namespace frac::ui
