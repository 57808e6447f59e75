#include "io/stiffness_scale.h"

#include <cmath>

namespace frac {

using json = nlohmann::json;

namespace {

void scaleValue(json& value, double factor) {
  if (value.is_number()) value = value.get<double>() * factor;
  else if (value.is_array())
    for (json& v : value) scaleValue(v, factor);
  // strings ("inf", "auto") stay
}

void scaleObject(json& object, const ParamGroup& group, double s) {
  if (!object.is_object()) return;
  for (const ParamSpec& spec : group.params) {
    if (!object.contains(spec.key)) continue;
    json& value = object[spec.key];
    switch (spec.type) {
      case ParamType::Object: scaleObject(value, paramGroup(spec.group), s); break;
      case ParamType::Map:
        for (auto& [name, entry] : value.items()) scaleObject(entry, paramGroup(spec.group), s);
        break;
      case ParamType::List:
        for (json& entry : value) scaleObject(entry, paramGroup(spec.group), s);
        break;
      default:  // numbers, numbers or "inf", vectors; strings and enums have no unit
        if (spec.key != "stiffness_scale") scaleValue(value, stiffnessScaleFactor(spec.unit, s));
        break;
    }
  }
}

}  // namespace

double stiffnessScaleFactor(const std::string& unit, double s) {
  const double root = std::sqrt(s);
  if (unit == "Pa" || unit == "J/m^2" || unit == "J/(kg K)" || unit == "m/s^2") return s;  // stresses, G_F, c, g
  if (unit == "N^2/m^10") return s * s;                                                // Chen's Psi0: a force state^2
  if (unit == "m/s" || unit == "rad/s" || unit == "1/s" || unit == "m/s/px") return root;  // speeds, rates
  if (unit == "s") return 1.0 / root;                                                  // times
  return 1.0;
}

void applyStiffnessScale(json& filled) {
  if (!filled.contains("solver") || !filled["solver"].is_object()) return;
  const double s = filled["solver"].value("stiffness_scale", 1.0);
  if (s == 1.0) return;
  scaleObject(filled, paramGroup("scene"), s);
}

}  // namespace frac
