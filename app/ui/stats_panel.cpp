// Stats panel: frame rate, steps per second, element-steps per second, simulated / real time, bonds, fragments,
// energies, and small plots of the recent history.
#include <vector>

#include <imgui.h>

#include "ui/ui_state.h"

namespace frac::ui {

namespace {

void plot(const char* label, const std::deque<float>& history) {
  std::vector<float> values(history.begin(), history.end());
  ImGui::PlotLines(label, values.data(), int(values.size()), 0, nullptr, FLT_MAX, FLT_MAX, ImVec2(0, 40));
}

}  // namespace

void drawStatsPanel(UiState& ui, const SimSnapshot& s) {
  if (!ImGui::CollapsingHeader("Stats", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::Text("UI %.0f fps   sim %.0f steps/s", ui.uiFps, s.stepsPerSecond);
  ImGui::Text("%.3g element-steps/s", s.stepsPerSecond * s.stats.elements);
  ImGui::Text("simulated / real time: %.4f", s.realTimeFactor);
  ImGui::Text("t = %.5f s, step %lld, dt %.3g s", s.stats.time, s.step, s.dt);
  // fem-debris counts tetrahedra where the bonded methods count bonds (its elements are the mesh nodes).
  const nlohmann::json* solver = ui.document.is_object() && ui.document.contains("solver") ? &ui.document["solver"]
                                                                                          : nullptr;
  const bool tetrahedra = solver && solver->is_object() && solver->value("method", "") == "fem-debris";
  if (tetrahedra)
    ImGui::Text("nodes %d, tetrahedra %lld intact / %lld failed", s.stats.elements, s.stats.bondsIntact,
                s.stats.bondsBroken);
  else
    ImGui::Text("elements %d, bonds %lld intact / %lld broken", s.stats.elements, s.stats.bondsIntact,
                s.stats.bondsBroken);
  ImGui::Text("fragments %d", s.stats.fragments);
  ImGui::Text("kinetic %.4g J, elastic %.4g J", s.stats.kineticEnergy, s.stats.elasticEnergy);
  plot("kinetic (J)", ui.kineticHistory);
  plot(tetrahedra ? "failed tetrahedra" : "broken bonds", ui.brokenHistory);
}

}  // namespace frac::ui
