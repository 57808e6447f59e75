#include "session/command.h"

#include <stdexcept>

namespace frac {

using json = nlohmann::json;

Command Command::set(std::string key, json value) {
  Command c;
  c.type = Type::Set;
  c.key = std::move(key);
  c.value = std::move(value);
  return c;
}

Command Command::throwProjectile(const vec3& position, const vec3& velocity, float radius, std::string material) {
  Command c;
  c.type = Type::Throw;
  c.position = position;
  c.velocity = velocity;
  c.radius = radius;
  c.material = std::move(material);
  return c;
}

Command Command::reset() {
  Command c;
  c.type = Type::Reset;
  return c;
}

std::string Command::setArgument() const {
  return key + "=" + (value.is_string() ? value.get<std::string>() : value.dump());
}

json Command::toJson() const {
  json j = {{"step", step}};
  switch (type) {
    case Type::Set:
      j["type"] = "set";
      j["key"] = key;
      j["value"] = value;
      break;
    case Type::Throw:
      j["type"] = "throw";
      j["position"] = {position.x, position.y, position.z};
      j["velocity"] = {velocity.x, velocity.y, velocity.z};
      j["radius"] = radius;
      j["material"] = material;
      if (density > 0.0f) j["density"] = density;
      if (breakable) {
        j["breakable"] = true;
        j["element_radius"] = elementRadius;
      }
      break;
    case Type::Reset:
      j["type"] = "reset";
      break;
  }
  return j;
}

namespace {

vec3 readVec3(const json& j, const char* key, const std::string& where) {
  if (!j.contains(key) || !j[key].is_array() || j[key].size() != 3 || !j[key][0].is_number() ||
      !j[key][1].is_number() || !j[key][2].is_number())
    throw std::invalid_argument(where + ": '" + key + "' must be an array of 3 numbers");
  return vec3(j[key][0].get<float>(), j[key][1].get<float>(), j[key][2].get<float>());
}

}  // namespace

Command Command::fromJson(const json& j, const std::string& where) {
  if (!j.is_object()) throw std::invalid_argument(where + ": expected a JSON object");
  if (!j.contains("type") || !j["type"].is_string())
    throw std::invalid_argument(where + ": 'type' must be \"set\", \"throw\" or \"reset\"");
  Command c;
  const std::string type = j["type"].get<std::string>();
  if (type == "set") {
    if (!j.contains("key") || !j["key"].is_string()) throw std::invalid_argument(where + ": 'key' must be a string");
    if (!j.contains("value")) throw std::invalid_argument(where + ": a set command needs a 'value'");
    c = set(j["key"].get<std::string>(), j["value"]);
  } else if (type == "throw") {
    if (!j.contains("radius") || !j["radius"].is_number() || !(j["radius"].get<float>() > 0.0f))
      throw std::invalid_argument(where + ": 'radius' must be a positive number (m)");
    if (!j.contains("material") || !j["material"].is_string())
      throw std::invalid_argument(where + ": 'material' must be the name of a scene material");
    c = throwProjectile(readVec3(j, "position", where), readVec3(j, "velocity", where), j["radius"].get<float>(),
                        j["material"].get<std::string>());
    if (j.contains("density")) {
      if (!j["density"].is_number() || j["density"].get<float>() < 0.0f)
        throw std::invalid_argument(where + ": 'density' must be a non-negative number (kg/m^3; 0 = the material's)");
      c.density = j["density"].get<float>();
    }
    if (j.contains("breakable")) {
      if (!j["breakable"].is_boolean()) throw std::invalid_argument(where + ": 'breakable' must be true or false");
      c.breakable = j["breakable"].get<bool>();
      if (c.breakable && (!j.contains("element_radius") || !j["element_radius"].is_number() ||
                          !(j["element_radius"].get<float>() > 0.0f) || j["element_radius"].get<float>() > c.radius))
        throw std::invalid_argument(where + ": a breakable throw needs 'element_radius' in (0, radius] (m)");
      if (c.breakable) c.elementRadius = j["element_radius"].get<float>();
    }
  } else if (type == "reset") {
    c = reset();
  } else {
    throw std::invalid_argument(where + ": unknown command type '" + type + "' (expected set, throw or reset)");
  }
  if (j.contains("step")) {
    if (!j["step"].is_number_integer() || j["step"].get<long long>() < 0)
      throw std::invalid_argument(where + ": 'step' must be a non-negative integer");
    c.step = j["step"].get<long long>();
  }
  return c;
}

}  // namespace frac
