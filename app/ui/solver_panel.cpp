// Solver panel: method, time step, substeps, threads, backend, gravity: the solver group of the registry.
#include <imgui.h>

#include "ui/param_widget.h"
#include "ui/ui_state.h"

namespace frac::ui {

void drawSolverPanel(UiState& ui, const SimSnapshot& snapshot) {
  if (!ImGui::CollapsingHeader("Solver")) return;
  const nlohmann::json solver = ui.document.value("solver", nlohmann::json::object());
  const std::string method = solver.value("method", "bdem");
  for (const ParamSpec& spec : paramGroup("solver").params) {
    if (!spec.appliesToMethod(method)) continue;  // only what the scene's method reads
    const nlohmann::json value = solver.contains(spec.key) ? solver[spec.key] : spec.defaultValue;
    nlohmann::json edited;
    if (paramWidget(spec, "solver." + spec.key, value, edited)) submitSet(ui, "solver." + spec.key, edited, value);
  }
  const ParamSpec& fps = *paramGroup("scene").find("fps");
  const nlohmann::json fpsNow = ui.document.value("fps", fps.defaultValue);
  nlohmann::json edited;
  if (paramWidget(fps, "fps", fpsNow, edited)) submitSet(ui, "fps", edited, fpsNow);
  ImGui::Text("steps per frame: dt %.3g s", snapshot.dt);
  ImGui::TextWrapped("backend: %s", snapshot.backend.c_str());
  if (!snapshot.instances.empty()) ImGui::TextWrapped("renderer: %s", snapshot.instances.c_str());
}

}  // namespace frac::ui
