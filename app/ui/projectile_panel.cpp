// Projectile panel: what a left-drag throws: radius, material (its density sets the mass), speed per pixel of drag.
#include <imgui.h>

#include "ui/ui_state.h"

namespace frac::ui {

void drawProjectilePanel(UiState& ui) {
  if (!ImGui::CollapsingHeader("Projectile")) return;
  ImGui::SliderFloat("radius (m)", &ui.throwing.radius, 0.001f, 0.2f, "%.4f", ImGuiSliderFlags_Logarithmic);
  const char* current = ui.throwing.material < int(ui.materialNames.size())
                            ? ui.materialNames[ui.throwing.material].c_str()
                            : "";
  if (ImGui::BeginCombo("material", current)) {
    for (int m = 0; m < int(ui.materialNames.size()); ++m)
      if (ImGui::Selectable(ui.materialNames[m].c_str(), m == ui.throwing.material)) ui.throwing.material = m;
    ImGui::EndCombo();
  }
  ImGui::SliderFloat("density (kg/m^3)", &ui.throwing.density, 0.0f, 20000.0f,
                     ui.throwing.density == 0.0f ? "the material's" : "%.0f");
  ImGui::SliderFloat("speed scale (m/s per px)", &ui.throwing.speedPerPixel, 0.001f, 1.0f, "%.3f",
                     ImGuiSliderFlags_Logarithmic);
  ImGui::Checkbox("breakable (bonded elements)", &ui.throwing.breakable);
  if (ui.throwing.breakable)
    ImGui::SliderFloat("element radius (m)", &ui.throwing.elementRadius, 0.0005f, 0.05f, "%.4f",
                       ImGuiSliderFlags_Logarithmic);
  ImGui::TextDisabled("left-drag in the scene to throw");
}

}  // namespace frac::ui
