// The material library: reading assets/materials/NAME.json and turning its macro properties into scene keys.
#include "io/material_library.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <cstdio>
#include <optional>

#include "calibration/calibration_table.h"

#include "io/json_validate.h"
#include "io/scene_error.h"
#include "io/scene_loader.h"
#include "io/scene_params.h"

namespace frac {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

// The macro properties every library material gives, and those it may give.
const std::vector<std::string> kRequired = {"density", "young", "poisson", "tensile_strength", "fracture_energy"};
const std::vector<std::string> kOptional = {"compressive_strength", "shear_strength", "yield_strength",
                                            "weibull_modulus", "weibull_cell"};

LibraryProperty readProperty(const json& j, const std::string& key, const std::string& file) {
  const std::string at = "/properties/" + key;
  if (!j.is_object()) throwSceneError(file, at, "expected an object {\"value\", \"unit\", \"source\"}");
  for (const auto& [k, v] : j.items())
    if (k != "value" && k != "unit" && k != "source" && k != "note" && (k != "test" || key != "tensile_strength"))
      throwSceneError(file, at + "/" + k,
                      k == "test" ? "a test is given for tensile_strength only (the test its source measured it with)"
                                  : "unknown key (expected value, unit, source, note)");
  LibraryProperty p;
  p.key = key;
  if (!j.contains("value") || !j["value"].is_number() || !std::isfinite(j["value"].get<double>()))
    throwSceneError(file, at + "/value", "expected a finite number");
  p.value = j["value"].get<double>();
  if (!j.contains("unit") || !j["unit"].is_string()) throwSceneError(file, at + "/unit", "expected a string");
  p.unit = j["unit"].get<std::string>();
  if (!j.contains("source") || !j["source"].is_string() || j["source"].get<std::string>().empty())
    throwSceneError(file, at + "/source", "expected the value's source (a handbook or paper), a non-empty string");
  p.source = j["source"].get<std::string>();
  if (j.contains("test")) {
    if (!j["test"].is_string() || (j["test"] != "tension" && j["test"] != "bending"))
      throwSceneError(file, at + "/test", "expected \"tension\" or \"bending\" (the test the source's value is from)");
    p.test = j["test"].get<std::string>();
  }
  const bool positive = key != "poisson";
  if (positive && !(p.value > 0.0)) throwSceneError(file, at + "/value", "expected a value > 0");
  if (!positive && !(p.value > -1.0 && p.value < 0.5))
    throwSceneError(file, at + "/value", "expected Poisson's ratio in (-1, 0.5)");
  return p;
}

}  // namespace

const LibraryProperty* LibraryMaterial::property(const std::string& key) const {
  for (const LibraryProperty& p : properties)
    if (p.key == key) return &p;
  return nullptr;
}

std::string shippedAssetFolder() {
#ifdef FRACTURE_ASSET_DIR
  return FRACTURE_ASSET_DIR;
#else
  return "";
#endif
}

std::vector<std::string> libraryFolders(const std::string& sceneFile) {
  std::vector<std::string> folders;
  if (!sceneFile.empty())
    folders.push_back((fs::path(sceneFile).parent_path() / ".." / "materials").lexically_normal().string());
  if (const std::string shipped = shippedAssetFolder(); !shipped.empty()) folders.push_back(shipped + "/materials");
  folders.push_back("assets/materials");
  return folders;
}

std::vector<std::string> libraryMaterialNames(const std::string& sceneFile) {
  for (const std::string& folder : libraryFolders(sceneFile)) {
    std::error_code ec;
    std::vector<std::string> names;
    for (const fs::directory_entry& e : fs::directory_iterator(folder, ec))
      if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
    if (!names.empty()) {
      std::sort(names.begin(), names.end());
      return names;
    }
  }
  return {};
}

LibraryMaterial loadLibraryMaterial(const std::string& name, const std::string& sceneFile, const std::string& pointer) {
  const bool plainName = !name.empty() && name.find_first_of("/\\.") == std::string::npos;
  std::string path;
  std::error_code ec;
  if (plainName)
    for (const std::string& folder : libraryFolders(sceneFile)) {
      const fs::path candidate = fs::path(folder) / (name + ".json");
      if (fs::is_regular_file(candidate, ec)) {
        path = candidate.lexically_normal().string();
        break;
      }
    }
  if (path.empty()) {
    const std::vector<std::string> names = libraryMaterialNames(sceneFile);
    std::string known;
    for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
    throwSceneError(sceneFile, pointer,
                    "unknown library material \"" + name + "\" (" +
                        (names.empty() ? std::string("no material library found beside the scene or in assets/materials")
                                       : "the library has: " + known) +
                        ")");
  }
  const json j = readJsonDocument(path, "material library file");
  if (!j.is_object()) throwSceneError(path, "", "expected an object with title, description, properties, keys");
  for (const auto& [k, v] : j.items())
    if (k != "title" && k != "description" && k != "properties" && k != "keys")
      throwSceneError(path, "/" + k, "unknown key (expected title, description, properties, keys)");
  LibraryMaterial m;
  m.name = name;
  m.path = path;
  m.title = j.value("title", name);
  m.description = j.value("description", "");
  if (!j.contains("properties") || !j["properties"].is_object())
    throwSceneError(path, "/properties", "expected an object of macro properties");
  for (const auto& [key, value] : j["properties"].items()) {
    if (std::find(kRequired.begin(), kRequired.end(), key) == kRequired.end() &&
        std::find(kOptional.begin(), kOptional.end(), key) == kOptional.end())
      throwSceneError(path, "/properties/" + key, "unknown property (expected one of density, young, poisson, "
                                               "tensile_strength, fracture_energy, compressive_strength, "
                                               "shear_strength, yield_strength, weibull_modulus, weibull_cell)");
    m.properties.push_back(readProperty(value, key, path));
  }
  for (const std::string& key : kRequired)
    if (!m.property(key)) throwSceneError(path, "/properties/" + key, "missing (every library material gives it)");
  m.keys = j.value("keys", json::object());
  if (!m.keys.is_object()) throwSceneError(path, "/keys", "expected an object of material keys");
  if (m.keys.contains("library")) throwSceneError(path, "/keys/library", "a library material cannot name another");
  validateObject(m.keys, paramGroup("material"), "/keys", path);
  return m;
}

json libraryMaterialKeys(const LibraryMaterial& m) {
  const double e = m.property("young")->value, nu = m.property("poisson")->value;
  const double tensile = m.property("tensile_strength")->value;
  const LibraryProperty* shearStrength = m.property("shear_strength");
  json keys = json::object();
  keys["density"] = m.property("density")->value;
  // Elastic constants of an isotropic solid: G = E / (2 (1 + nu)), K = E / (3 (1 - 2 nu)). BDEM's bond modulus and
  // bond shear modulus are taken as the material's (Lu et al. 2021 sec. 4: bond parameters as macro properties).
  keys["young"] = e;
  keys["shear"] = e / (2.0 * (1.0 + nu));
  keys["shear_modulus"] = e / (2.0 * (1.0 + nu));
  keys["bulk_modulus"] = e / (3.0 * (1.0 - 2.0 * nu));
  // Strengths: a bond's tensile strength is the material's; its shear strength the material's where the library
  // gives one, else the tensile strength (brittle solids fail in tension under shear).
  keys["tensile_strength"] = tensile;
  keys["shear_strength"] = shearStrength ? shearStrength->value : tensile;
  keys["fracture_energy"] = m.property("fracture_energy")->value;
  // The scatter of a brittle material's strength (Weibull's modulus of its flaws): each bond's strength or breaking
  // stretch scattered with it about the calibrated scale, in every method that reads weibull_m.
  if (const LibraryProperty* weibull = m.property("weibull_modulus")) keys["weibull_m"] = weibull->value;
  // The size of its flaw cells (m), where given: the bonds in one cube of it share a draw (core/rng.h).
  if (const LibraryProperty* cell = m.property("weibull_cell")) keys["weibull_cell"] = cell->value;
  for (const auto& [key, value] : m.keys.items()) keys[key] = value;
  return keys;
}

json libraryKeysForScene(const json& doc, const std::string& materialName, const LibraryMaterial& library,
                         const std::string& sceneFile, std::string* calibration) {
  json keys = libraryMaterialKeys(library);
  const auto say = [&](const std::string& text) {
    if (calibration) *calibration = text;
  };
  const json* entry = nullptr;
  if (doc.contains("materials") && doc["materials"].is_object() && doc["materials"].contains(materialName))
    entry = &doc["materials"][materialName];
  if (entry && entry->is_object() && entry->value("calibrated", json(true)) == json(false)) {
    say("handbook values as they are (calibrated: false)");
    return keys;
  }
  // The scene's method at the radius and packing of the first body of this material.
  CalibrationRequest request;
  request.material = library.name;
  request.libraryHint = sceneFile;
  if (doc.contains("solver") && doc["solver"].is_object() && doc["solver"].value("method", json()).is_string())
    request.method = doc["solver"]["method"].get<std::string>();
  const json* body = nullptr;
  if (doc.contains("bodies") && doc["bodies"].is_array())
    for (const json& b : doc["bodies"])
      if (b.is_object() && b.value("material", json()) == json(materialName) && !body) body = &b;
  if (!body || !body->value("element_radius", json()).is_number()) {
    say("not calibrated: no body of this material");
    return keys;
  }
  request.elementRadius = (*body)["element_radius"].get<float>();
  if (body->value("packing", json()).is_string()) request.packing = (*body)["packing"].get<std::string>();
  // bdem's softening bonds have tables of their own (the entry's key wins over the library file's).
  const json softening = entry && entry->is_object() && entry->contains("softening") ? (*entry)["softening"]
                                                                                     : keys.value("softening", json());
  if (request.method == "bdem" && softening.is_string()) request.softening = softening.get<std::string>();
  std::string why;
  const std::optional<json> found = findCalibration(request, &why);
  if (!found) {
    say("not calibrated (" + why + ")");
    return keys;
  }
  for (const auto& [key, value] : (*found)["keys"].items()) keys[key] = value;
  const json& m = (*found)["measured"];
  char text[256];
  std::snprintf(text, sizeof text, "calibrated for %s at r %g m (%s): E %.3g Pa, nu %.3f, %s strength %.3g Pa measured",
                request.method.c_str(), double(request.elementRadius), request.packing.c_str(),
                m.value("E", 0.0), m.value("nu", 0.0),
                strengthName(m.value("strength_test", "tension")), m.value("strength", 0.0));
  std::string said = text;
  if (m.contains("fracture_energy")) {  // softening bonds: fitted on the notched bar
    std::snprintf(text, sizeof text, ", fracture energy %.3g J/m^2", m.value("fracture_energy", 0.0));
    said += text;
  }
  say(said);
  return keys;
}

void expandLibraryMaterials(json& doc, const std::string& sceneFile) {
  if (!doc.is_object() || !doc.contains("materials") || !doc["materials"].is_object()) return;
  for (auto& [name, material] : doc["materials"].items()) {
    if (!material.is_object() || !material.contains("library")) continue;
    const std::string pointer = childPointer("/materials", name) + "/library";
    if (!material["library"].is_string())
      throwSceneError(sceneFile, pointer, "expected the name of a library material (a string)");
    if (material["library"].get<std::string>().empty()) continue;  // "" = none
    const LibraryMaterial library = loadLibraryMaterial(material["library"].get<std::string>(), sceneFile, pointer);
    json merged = libraryKeysForScene(doc, name, library, sceneFile);
    for (const auto& [key, value] : material.items()) merged[key] = value;  // the scene's keys win
    material = merged;
  }
}

}  // namespace frac
