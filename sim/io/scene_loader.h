#pragma once
// Scene files (JSON, SI units) -> SceneDesc, validated against the parameter registry (core/params.h).
// Every problem is a SceneError with one message naming the file, the JSON pointer, what was expected and
// what was found.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/scene_desc.h"

namespace frac {

// Reads `path`, applies the `--set key=value` overrides in order, validates and fills defaults.
SceneDesc loadScene(const std::string& path, const std::vector<std::string>& overrides = {});

// Reads and parses a JSON file (no validation); syntax errors give line and column.
nlohmann::json readSceneJson(const std::string& path);
// A JSON file of any kind (`what` names it in messages: "scene file", "material library file"): a SceneError naming
// the file for a missing file, a directory, a read error, or a syntax error (with its line and column).
nlohmann::json readJsonDocument(const std::string& path, const std::string& what);

// Validates a parsed document and converts it. `pathForMessages` names the file in errors and is the base
// for relative mesh paths.
SceneDesc parseScene(const nlohmann::json& doc, const std::string& pathForMessages);

// One `--set` argument: a dotted key path into the document and a value, e.g. "solver.dt=1e-5",
// "materials.glass.young=2e7", "bodies.0.element_radius=0.003", "solver.gravity=[0,0,0]", "solver.dt=auto".
// The value is JSON when it parses, otherwise a string. The key must be known to the registry (it may be
// absent from the file); the value is checked right away. `path` names the scene file in errors.
void applyOverride(nlohmann::json& doc, const std::string& keyEqualsValue, const std::string& path);

}  // namespace frac
