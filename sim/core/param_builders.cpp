#include "core/param_builders.h"

namespace frac::registry {

using json = nlohmann::json;

ParamSpec number(std::string key, std::string unit, double min, double max, json def, std::string desc) {
  ParamSpec s;
  s.key = std::move(key);
  s.type = ParamType::Number;
  s.unit = std::move(unit);
  s.min = min;
  s.max = max;
  s.defaultValue = std::move(def);
  s.description = std::move(desc);
  return s;
}

ParamSpec integer(std::string key, std::string unit, double min, double max, json def, std::string desc) {
  return withType(number(std::move(key), std::move(unit), min, max, std::move(def), std::move(desc)),
                  ParamType::Integer);
}

ParamSpec vector3(std::string key, std::string unit, double min, double max, json def, std::string desc) {
  return withType(number(std::move(key), std::move(unit), min, max, std::move(def), std::move(desc)),
                  ParamType::Vec3);
}

ParamSpec boolean(std::string key, bool def, std::string desc) {
  ParamSpec s;
  s.key = std::move(key);
  s.type = ParamType::Bool;
  s.defaultValue = def;
  s.description = std::move(desc);
  return s;
}

ParamSpec text(std::string key, json def, std::string desc) {
  ParamSpec s;
  s.key = std::move(key);
  s.type = ParamType::String;
  s.defaultValue = std::move(def);
  s.description = std::move(desc);
  return s;
}

ParamSpec choice(std::string key, json def, std::string desc) {
  return withType(text(std::move(key), std::move(def), std::move(desc)), ParamType::Enum);
}

ParamSpec choice(std::string key, std::vector<std::string> choices, json def, std::string desc) {
  ParamSpec s = choice(std::move(key), std::move(def), std::move(desc));
  s.choices = std::move(choices);
  return s;
}

ParamSpec nested(std::string key, ParamType type, std::string group, std::string desc) {
  ParamSpec s;
  s.key = std::move(key);
  s.type = type;
  s.group = std::move(group);
  s.defaultValue = type == ParamType::List ? json::array() : json::object();
  s.description = std::move(desc);
  return s;
}

ParamSpec withType(ParamSpec s, ParamType type) {
  s.type = type;
  return s;
}

ParamSpec required(ParamSpec s) {
  s.required = true;
  s.defaultValue = nullptr;
  return s;
}

ParamSpec forMethods(ParamSpec s, std::vector<std::string> methods) {
  s.methods = std::move(methods);
  return s;
}

ParamSpec live(ParamSpec s) {
  s.liveEditable = true;
  return s;
}

ParamSpec aboveMin(ParamSpec s) {
  s.minExclusive = true;
  return s;
}

ParamSpec direction(ParamSpec s) {
  s.unitVector = true;
  return s;
}

ParamSpec onlyFor(ParamSpec s, std::vector<std::string> variants) {
  s.variants = std::move(variants);
  return s;
}

}  // namespace frac::registry
