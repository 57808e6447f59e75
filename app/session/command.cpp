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

Command Command::grab(int element, float radius, const vec3& target, float frequency) {
  Command c;
  c.type = Type::Grab;
  c.element = element;
  c.radius = radius;
  c.position = target;
  c.frequency = frequency;
  return c;
}

Command Command::grabMove(const vec3& target) {
  Command c;
  c.type = Type::GrabMove;
  c.position = target;
  return c;
}

Command Command::release() {
  Command c;
  c.type = Type::Release;
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
      if (!edit.empty()) j["edit"] = edit;
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
    case Type::Grab:
      j["type"] = "grab";
      j["element"] = element;
      j["radius"] = radius;
      j["position"] = {position.x, position.y, position.z};
      j["frequency"] = frequency;
      break;
    case Type::GrabMove:
      j["type"] = "grab_move";
      j["position"] = {position.x, position.y, position.z};
      break;
    case Type::Release:
      j["type"] = "release";
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
    throw std::invalid_argument(where + ": 'type' must be \"set\", \"throw\", \"reset\", \"grab\", \"grab_move\" or "
                                        "\"release\"");
  Command c;
  const std::string type = j["type"].get<std::string>();
  if (type == "set") {
    if (!j.contains("key") || !j["key"].is_string()) throw std::invalid_argument(where + ": 'key' must be a string");
    if (!j.contains("value")) throw std::invalid_argument(where + ": a set command needs a 'value'");
    c = set(j["key"].get<std::string>(), j["value"]);
    if (j.contains("edit")) {
      if (!j["edit"].is_string() || (j["edit"] != "undo" && j["edit"] != "redo"))
        throw std::invalid_argument(where + ": 'edit' must be \"undo\" or \"redo\"");
      c.edit = j["edit"].get<std::string>();
    }
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
  } else if (type == "grab") {
    if (!j.contains("element") || !j["element"].is_number_integer() || j["element"].get<int>() < 0)
      throw std::invalid_argument(where + ": 'element' must be a body element's index");
    if (!j.contains("radius") || !j["radius"].is_number() || !(j["radius"].get<float>() >= 0.0f))
      throw std::invalid_argument(where + ": 'radius' must be a non-negative number (m)");
    if (!j.contains("frequency") || !j["frequency"].is_number() || !(j["frequency"].get<float>() > 0.0f))
      throw std::invalid_argument(where + ": 'frequency' must be a positive number (Hz)");
    c = grab(j["element"].get<int>(), j["radius"].get<float>(), readVec3(j, "position", where),
             j["frequency"].get<float>());
  } else if (type == "grab_move") {
    c = grabMove(readVec3(j, "position", where));
  } else if (type == "release") {
    c = release();
  } else {
    throw std::invalid_argument(where + ": unknown command type '" + type +
                                "' (expected set, throw, reset, grab, grab_move or release)");
  }
  if (j.contains("step")) {
    if (!j["step"].is_number_integer() || j["step"].get<long long>() < 0)
      throw std::invalid_argument(where + ": 'step' must be a non-negative integer");
    c.step = j["step"].get<long long>();
  }
  return c;
}

}  // namespace frac
