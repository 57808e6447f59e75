// Projectile panel: what a left-drag throws (the registry's "throw" group) and its material, from the scene's; or
// the grab tool (G) and its radius and stiffness.
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
  ImGui::Checkbox("grab instead (G)", &ui.grabMode);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("left-drag pulls the element under the cursor and its neighbours towards the cursor");
  if (ui.grabMode) {
    ImGui::SliderFloat("grab radius (m)", &ui.grabRadius, 0.0f, 0.05f, "%.3f");
    ImGui::SliderFloat("grab stiffness (Hz)", &ui.grabFrequency, 1.0f, 100.0f, "%.0f", ImGuiSliderFlags_Logarithmic);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("the spring's frequency: how closely the grabbed group follows the cursor, whatever its mass");
  }
}

}  // namespace frac::ui
