#pragma once
// Registry-driven checks of a scene's JSON tree (unknown keys, types, ranges, required keys) and default
// filling. Every failure is a SceneError worded "<file>: <JSON pointer>: <problem>".
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/params.h"

namespace frac {

// The one format of scene errors; an empty pointer reads "(top level)".
std::string sceneErrorMessage(const std::string& file, const std::string& pointer, const std::string& problem);
[[noreturn]] void throwSceneError(const std::string& file, const std::string& pointer, const std::string& problem);

// "a, b, c": the words of a list in messages (allowed values, missing keys).
std::string joined(const std::vector<std::string>& words);

// Appends one reference token to a JSON pointer ("/materials" + "glass" -> "/materials/glass"), escaping ~ and /.
std::string childPointer(const std::string& pointer, std::string_view token);

// Problem phrases shared by validation and `--set`.
std::string unknownKeyProblem(const ParamGroup& group, const std::string& key);
std::string variantMismatchProblem(const ParamGroup& group, const ParamSpec& spec, const std::string& variant);

// Checks a value against its spec, recursing into Object/Map/List values through their groups.
void validateParam(const nlohmann::json& value, const ParamSpec& spec, const std::string& pointer,
                   const std::string& file);
void validateObject(const nlohmann::json& object, const ParamGroup& group, const std::string& pointer,
                    const std::string& file);

// A copy of a validated object with every absent optional key (that applies to its variant) set to its
// default, recursively.
nlohmann::json withDefaults(const nlohmann::json& object, const ParamGroup& group);

}  // namespace frac
