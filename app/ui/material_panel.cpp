// Material panel: the material parameters of the registry that the scene's method reads, for every material of the
// scene; live edits apply to the bonds at once. The stable time step for the current values sits next to the moduli, with a warning when the
// step in use exceeds it, and the auto dt switch.
#include <imgui.h>

#include "ui/param_widget.h"
#include "ui/ui_state.h"

namespace frac::ui {

void drawMaterialPanel(UiState& ui, const SimSnapshot& snapshot) {
  if (!ImGui::CollapsingHeader("Material", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const nlohmann::json& materials = ui.document.value("materials", nlohmann::json::object());
  const ParamGroup& group = paramGroup("material");
  const bool autoDt = ui.document.contains("solver") && ui.document["solver"].value("dt", nlohmann::json("auto")).is_string();
  const nlohmann::json solver = ui.document.value("solver", nlohmann::json::object());
  const std::string method = solver.value("method", "bdem");
  // An implicit step (rbdem) has no critical step: the solver's estimate is a suggestion (fast impacts want less).
  const bool implicitStep = method == "rbdem" && solver.value("integration", "implicit") == "implicit";
  ImGui::Text(implicitStep ? "suggested dt %.3g s (implicit), dt %.3g s" : "stable dt %.3g s, dt %.3g s",
              snapshot.stableDt, snapshot.dt);
  if (snapshot.dt > snapshot.stableDt) {
    ImGui::SameLine();
    if (implicitStep)
      ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.3f, 1.0f), "above the suggested step");
    else
      ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.25f, 1.0f), "dt exceeds the stable step!");
  }
  bool autoOn = autoDt;
  if (ImGui::Checkbox("auto dt (critical step x safety)", &autoOn))
    submitSet(ui, "solver.dt", autoOn ? nlohmann::json("auto") : nlohmann::json(snapshot.dt));
  for (auto it = materials.begin(); it != materials.end(); ++it) {
    if (!ImGui::TreeNodeEx(it.key().c_str(), ImGuiTreeNodeFlags_DefaultOpen)) continue;
    for (const ParamSpec& spec : group.params) {
      if (spec.type == ParamType::Object || spec.type == ParamType::List || spec.type == ParamType::Map) continue;
      if (!spec.appliesToMethod(method)) continue;  // only what the scene's method reads
      const nlohmann::json value = it.value().contains(spec.key) ? it.value()[spec.key] : spec.defaultValue;
      nlohmann::json edited;
      if (paramWidget(spec, it.key() + "." + spec.key, value, edited))
        submitSet(ui, "materials." + it.key() + "." + spec.key, edited);
    }
    ImGui::TreePop();
  }
  ImGui::TextDisabled("* applies on reset (R)");
}

}  // namespace frac::ui
