#pragma once
// Builders of ParamSpecs that keep each registry line short (io/scene_params.cpp): a type builder, then modifiers.
#include <string>
#include <vector>

#include "core/params.h"

namespace frac::registry {

ParamSpec number(std::string key, std::string unit, double min, double max, nlohmann::json def, std::string desc);
ParamSpec integer(std::string key, std::string unit, double min, double max, nlohmann::json def, std::string desc);
ParamSpec vector3(std::string key, std::string unit, double min, double max, nlohmann::json def, std::string desc);
ParamSpec boolean(std::string key, bool def, std::string desc);
ParamSpec text(std::string key, nlohmann::json def, std::string desc);
// An enum; a bound one gets its choices from its binding's name table (io/param_bind.h).
ParamSpec choice(std::string key, nlohmann::json def, std::string desc);
ParamSpec choice(std::string key, std::vector<std::string> choices, nlohmann::json def, std::string desc);
ParamSpec nested(std::string key, ParamType type, std::string group, std::string desc);

ParamSpec withType(ParamSpec s, ParamType type);
ParamSpec required(ParamSpec s);  // no default
ParamSpec forMethods(ParamSpec s, std::vector<std::string> methods);
ParamSpec live(ParamSpec s);
ParamSpec aboveMin(ParamSpec s);   // range (min, max]
ParamSpec direction(ParamSpec s);  // unit vector
ParamSpec onlyFor(ParamSpec s, std::vector<std::string> variants);

}  // namespace frac::registry
