#include "ui/settings_values.h"

#include "core/params.h"
#include "ui/param_widget.h"

namespace frac::ui {

using json = nlohmann::json;

json groupDefaults(const std::string& group) {
  json values = json::object();
  for (const ParamSpec& spec : paramGroup(group).params) values[spec.key] = spec.defaultValue;
  return values;
}

bool groupWidgets(const std::string& group, json& values) {
  bool changed = false;
  for (const ParamSpec& spec : paramGroup(group).params) {
    json edited;
    if (paramWidget(spec, group + "." + spec.key, values.value(spec.key, spec.defaultValue), edited) &&
        checkParamValue(spec, edited).empty()) {
      values[spec.key] = edited;
      changed = true;
    }
  }
  return changed;
}

json renderValues(const render::RenderSettings& s) {
  json v = groupDefaults("render");
  v["color_mode"] = render::colorModeName(s.colorMode);
  v["auto_range"] = s.autoSpeedRange;
  v["range_min"] = s.scalarMin;
  v["range_max"] = s.scalarMax;
  v["bonds"] = s.bonds;
  v["element_scale"] = s.elementScale;
  v["shadows"] = s.shadows;
  v["draw"] = render::drawModeName(s.draw);
  v["surface_cell_size"] = s.surfaceCellSize;
  v["clip"] = s.clip;
  v["clip_normal"] = json::array({s.clipPlane.x, s.clipPlane.y, s.clipPlane.z});
  v["clip_offset"] = s.clipPlane.w;
  return v;
}

void applyRenderValues(const json& v, render::RenderSettings& s) {
  if (auto mode = render::parseColorMode(v.value("color_mode", std::string("material")))) s.colorMode = *mode;
  s.autoSpeedRange = v.value("auto_range", true);
  s.scalarMin = v.value("range_min", 0.0f);
  s.scalarMax = v.value("range_max", 1.0f);
  s.bonds = v.value("bonds", false);
  s.elementScale = v.value("element_scale", 1.0f);
  s.shadows = v.value("shadows", true);
  if (auto draw = render::parseDrawMode(v.value("draw", std::string("spheres")))) s.draw = *draw;
  s.surfaceCellSize = v.value("surface_cell_size", 1.0f);
  s.clip = v.value("clip", false);
  const json normal = v.value("clip_normal", json::array({0, 0, 1}));
  glm::vec3 n(normal.at(0).get<float>(), normal.at(1).get<float>(), normal.at(2).get<float>());
  n = glm::length(n) > 0.0f ? glm::normalize(n) : glm::vec3(0, 0, 1);
  s.clipPlane = glm::vec4(n, v.value("clip_offset", 0.0f));
}

void applyThrowValues(const json& v, ThrowSettings& s) {
  s.radius = v.value("radius", 0.012f);
  s.density = v.value("density", 0.0f);
  s.speedPerPixel = v.value("speed_scale", 0.05f);
  s.breakable = v.value("breakable", false);
  s.elementRadius = v.value("element_radius", 0.003f);
}

}  // namespace frac::ui
