// Material panel: the material parameters of the registry that the scene's method reads, for every material of the
// scene, with a library material to start from (assets/materials: its values show where the entry sets nothing);
// live edits apply to the bonds at once. The stable time step for the current values sits next to the moduli, with a warning when the
// step in use exceeds it, and the auto dt switch.
#include <imgui.h>

#include "io/material_library.h"
#include "io/scene_error.h"
#include "ui/param_widget.h"
#include "ui/ui_state.h"

namespace frac::ui {
namespace {

// The keys library material `name` gives (read once; a library file that fails to load gives none).
const nlohmann::json& libraryKeys(UiState& ui, const std::string& name) {
  auto it = ui.libraryKeys.find(name);
  if (it == ui.libraryKeys.end()) {
    nlohmann::json keys = nlohmann::json::object();
    try {
      keys = libraryMaterialKeys(loadLibraryMaterial(name, "", "/materials/library"));
    } catch (const SceneError&) {
    }
    it = ui.libraryKeys.emplace(name, std::move(keys)).first;
  }
  return it->second;
}

// The library combo of material `material` (entry `entry`): picking one sets its "library" key (applies on reset).
void drawLibraryCombo(UiState& ui, const std::string& material, const nlohmann::json& entry) {
  if (ui.libraryNames.empty()) ui.libraryNames = libraryMaterialNames();
  const std::string current = entry.value("library", "");
  ImGui::PushID((material + ".library").c_str());
  if (ImGui::BeginCombo("library *", current.empty() ? "(none)" : current.c_str())) {
    if (ImGui::Selectable("(none)", current.empty())) submitSet(ui, "materials." + material + ".library", "", current);
    for (const std::string& name : ui.libraryNames)
      if (ImGui::Selectable(name.c_str(), name == current))
        submitSet(ui, "materials." + material + ".library", name, current);
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("start from a handbook material (assets/materials); the keys set here win");
  ImGui::PopID();
}

// The scene's materials, those of its bodies first (in body order, open), then the ground's, projectiles' and
// kinematics' (closed at first): what a user came to edit is on top.
std::vector<std::pair<std::string, bool>> materialsInOrder(const nlohmann::json& document) {
  const nlohmann::json& materials = document.value("materials", nlohmann::json::object());
  std::vector<std::pair<std::string, bool>> order;
  auto listed = [&](const std::string& name) {
    for (const auto& [n, body] : order)
      if (n == name) return true;
    return false;
  };
  for (const nlohmann::json& body : document.value("bodies", nlohmann::json::array())) {
    const std::string name = body.value("material", "");
    if (materials.contains(name) && !listed(name)) order.emplace_back(name, true);
  }
  for (auto it = materials.begin(); it != materials.end(); ++it)
    if (!listed(it.key())) order.emplace_back(it.key(), false);
  return order;
}

}  // namespace

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
    submitSet(ui, "solver.dt", autoOn ? nlohmann::json("auto") : nlohmann::json(snapshot.dt),
              autoDt ? nlohmann::json("auto") : solver.value("dt", nlohmann::json(snapshot.dt)));
  for (const auto& [name, ofBody] : materialsInOrder(ui.document)) {
    const nlohmann::json& material = materials[name];
    if (!ImGui::TreeNodeEx(name.c_str(), ofBody ? ImGuiTreeNodeFlags_DefaultOpen : 0)) continue;
    drawLibraryCombo(ui, name, material);
    const std::string library = material.value("library", "");
    const nlohmann::json& fromLibrary = library.empty() ? nlohmann::json::object() : libraryKeys(ui, library);
    for (const ParamSpec& spec : group.params) {
      if (spec.type == ParamType::Object || spec.type == ParamType::List || spec.type == ParamType::Map) continue;
      if (spec.key == "library" || !spec.appliesToMethod(method)) continue;  // only what the scene's method reads
      const nlohmann::json value = material.contains(spec.key)      ? material[spec.key]
                                   : fromLibrary.contains(spec.key) ? fromLibrary[spec.key]
                                                                    : spec.defaultValue;
      nlohmann::json edited;
      if (paramWidget(spec, name + "." + spec.key, value, edited))
        submitSet(ui, "materials." + name + "." + spec.key, edited, value);
    }
    ImGui::TreePop();
  }
  ImGui::TextDisabled("* applies on reset (R)");
}

}  // namespace frac::ui
