// Projectile panel: what a left-drag throws (the registry's "throw" group) and its material, from the scene's.
#include <imgui.h>

#include "ui/settings_values.h"
#include "ui/ui_state.h"

namespace frac::ui {

void drawProjectilePanel(UiState& ui) {
  if (!ImGui::CollapsingHeader("Projectile")) return;
  const char* current = ui.throwing.material < int(ui.materialNames.size())
                            ? ui.materialNames[ui.throwing.material].c_str()
                            : "";
  if (ImGui::BeginCombo("material", current)) {
    for (int m = 0; m < int(ui.materialNames.size()); ++m)
      if (ImGui::Selectable(ui.materialNames[m].c_str(), m == ui.throwing.material)) ui.throwing.material = m;
    ImGui::EndCombo();
  }
  if (groupWidgets("throw", ui.throwValues)) applyThrowValues(ui.throwValues, ui.throwing);
  ImGui::TextDisabled("left-drag in the scene to throw");
}

}  // namespace frac::ui
