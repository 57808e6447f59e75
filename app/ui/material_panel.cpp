// Material panel: the material parameters of the registry that the scene's method reads, for every material of the
// scene, with a library material to start from (assets/materials: its values, calibrated for the method where
// assets/calibration has them, show where the entry sets nothing; a Calibrate button computes them);
// live edits apply to the bonds at once. The stable time step for the current values sits next to the moduli, with a warning when the
// step in use exceeds it, and the auto dt switch.
#include <imgui.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "calibration/calibrate.h"
#include "io/material_library.h"
#include "io/scene_error.h"
#include "ui/param_widget.h"
#include "ui/ui_state.h"

namespace frac::ui {
namespace {

// The keys library material `library` gives scene material `material` (with its calibration for the scene's method,
// radius and packing where assets/calibration has one), read once per combination; a library file that fails to load
// gives none.
const LibraryKeys& libraryKeys(UiState& ui, const std::string& material, const std::string& library) {
  const nlohmann::json solver = ui.document.value("solver", nlohmann::json::object());
  std::string key = library + "|" + solver.value("method", "bdem");
  for (const nlohmann::json& body : ui.document.value("bodies", nlohmann::json::array()))
    if (body.value("material", "") == material) {
      key += "|" + body.value("element_radius", nlohmann::json(0)).dump() + "|" + body.value("packing", "hcp");
      break;
    }
  key += ui.document["materials"][material].value("calibrated", true) ? "" : "|uncalibrated";
  auto it = ui.libraryKeys.find(key);
  if (it == ui.libraryKeys.end()) {
    LibraryKeys found;
    try {
      const LibraryMaterial lib = loadLibraryMaterial(library, "", "/materials/library");
      found.keys = libraryKeysForScene(ui.document, material, lib, "", &found.calibration);
      char text[200];
      const LibraryProperty& strength = *lib.property("tensile_strength");
      std::snprintf(text, sizeof text, "handbook: E %.3g Pa, nu %.3g, %s strength %.3g Pa, G_F %.3g J/m^2",
                    lib.property("young")->value, lib.property("poisson")->value,
                    strengthName(strength.test), strength.value,
                    lib.property("fracture_energy")->value);
      found.handbook = text;
      found.poisson = lib.property("poisson")->value;
    } catch (const SceneError& e) {
      found.calibration = e.what();
    }
    it = ui.libraryKeys.emplace(key, std::move(found)).first;
  }
  return it->second;
}

// The Calibrate button of a library material: fracture-calibrate (beside this program) for the scene's method and the
// radius and packing of the material's first body, in the background; its lab runs counted from its log. When it
// ends, the keys are read again (the table now has the entry) and a reset applies them.
void drawCalibrate(UiState& ui, const std::string& material, const std::string& library) {
  CalibrationJob& job = ui.calibration;
  if (job.child && !job.child->running()) {
    const int code = job.child->exitCode();
    job.status = code == 0 ? "calibrated: reset (R) to use it" : code == 1 ? "did not converge (see " + job.log + ")"
                                                                           : "failed (see " + job.log + ")";
    job.child.reset();
    ui.libraryKeys.clear();
  }
  if (job.child) {
    std::ifstream log(job.log);
    std::string line;
    job.labRuns = 0;
    while (std::getline(log, line)) job.labRuns += line.find("lab run") != std::string::npos;
    if (job.material == material) ImGui::Text("calibrating %s: lab run %d ...", library.c_str(), job.labRuns);
    return;
  }
  const nlohmann::json solver = ui.document.value("solver", nlohmann::json::object());
  const std::string method = solver.value("method", "bdem");
  if (!canCalibrate(method)) return;
  nlohmann::json body;
  for (const nlohmann::json& b : ui.document.value("bodies", nlohmann::json::array()))
    if (b.value("material", "") == material) {
      body = b;
      break;
    }
  if (body.is_null() || !body.value("element_radius", nlohmann::json()).is_number()) return;
  if (ImGui::Button(("Calibrate##" + material).c_str())) {
    const std::string self = selfExecutable();
    const std::string tool = (std::filesystem::path(self).parent_path() / "fracture-calibrate").string();
    job.material = material;
    job.log = (std::filesystem::temp_directory_path() / ("fracture-calibrate-" + material + ".log")).string();
    job.child = std::make_unique<ChildProcess>();
    std::vector<std::string> args = {"--method",         method, "--material", library, "--element-radius",
                                     body["element_radius"].dump(), "--packing", body.value("packing", "hcp")};
    // bdem's softening bonds have tables of their own, their fracture energy fitted too
    const nlohmann::json& entry = ui.document["materials"][material];
    if (method == "bdem" && entry.value("softening", "") == "linear") args.insert(args.end(), {"--softening", "linear"});
    try {
      job.child->start(args, job.log, tool);
      job.status.clear();
    } catch (const std::runtime_error& e) {
      job.child.reset();
      job.status = e.what();
    }
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("find %s's micro parameters for which the virtual lab tests measure the handbook's E, "
                      "Poisson's ratio and strength (a flexural strength in bending; with softening bonds also the "
                      "fracture energy; fracture-calibrate, ten seconds to a few minutes)",
                      method.c_str());
  if (job.material == material && !job.status.empty()) {
    ImGui::SameLine();
    ImGui::TextUnformatted(job.status.c_str());
  }
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
    static const LibraryKeys none;
    const LibraryKeys& found = library.empty() ? none : libraryKeys(ui, name, library);
    const nlohmann::json& fromLibrary = found.keys;
    if (!library.empty()) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextDisabled("%s", found.handbook.c_str());
      ImGui::TextDisabled("%s", found.calibration.c_str());
      if (found.calibration.rfind("calibrated for", 0) != 0) drawCalibrate(ui, name, library);
      if (method == "pd-bond" && found.poisson != 0.25)
        ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.3f, 1.0f),
                           "pd-bond holds Poisson's ratio 1/4 only (Silling 2000), not %.3g", found.poisson);
      ImGui::PopTextWrapPos();
    }
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
