#include "color_map.h"

#include <algorithm>
#include <cmath>

namespace frac::render {

const char* colorModeName(ColorMode mode) {
  switch (mode) {
    case ColorMode::Material: return "material";
    case ColorMode::StressRatio: return "stress";
    case ColorMode::Damage: return "damage";
    case ColorMode::Fragment: return "fragment";
    case ColorMode::Speed: return "speed";
  }
  return "material";
}

const char* colorModeLabel(ColorMode mode) {
  switch (mode) {
    case ColorMode::Material: return "material";
    case ColorMode::StressRatio: return "bond stress / strength";
    case ColorMode::Damage: return "damage (share of bonds lost)";
    case ColorMode::Fragment: return "fragment";
    case ColorMode::Speed: return "speed (m/s)";
  }
  return "";
}

std::optional<ColorMode> parseColorMode(const std::string& name) {
  for (int m = 0; m < kColorModeCount; ++m)
    if (name == colorModeName(ColorMode(m))) return ColorMode(m);
  return std::nullopt;
}

ElementScalar elementScalar(ColorMode mode) {
  switch (mode) {
    case ColorMode::StressRatio: return ElementScalar::StressRatio;
    case ColorMode::Damage: return ElementScalar::Damage;
    case ColorMode::Speed: return ElementScalar::Speed;
    default: return ElementScalar::None;
  }
}

bool isScalarMode(ColorMode mode) {
  return mode == ColorMode::StressRatio || mode == ColorMode::Damage || mode == ColorMode::Speed;
}

const std::array<ColorStop, 5>& scalarColorStops() {
  // Dark blue (calm) through teal and yellow to red (at the strength / fully broken / fastest).
  static const std::array<ColorStop, 5> stops = {{
      {0.00f, {0.05f, 0.10f, 0.45f}},
      {0.30f, {0.05f, 0.45f, 0.55f}},
      {0.60f, {0.55f, 0.75f, 0.15f}},
      {0.80f, {0.95f, 0.55f, 0.05f}},
      {1.00f, {0.80f, 0.05f, 0.05f}},
  }};
  return stops;
}

glm::vec3 scalarColor(float t) {
  const auto& stops = scalarColorStops();
  t = std::clamp(t, 0.0f, 1.0f);
  for (size_t k = 1; k < stops.size(); ++k)
    if (t <= stops[k].position) {
      const float s = (t - stops[k - 1].position) / (stops[k].position - stops[k - 1].position);
      return glm::mix(stops[k - 1].color, stops[k].color, s);
    }
  return stops.back().color;
}

glm::vec3 fragmentColor(uint32_t id) {
  uint32_t h = id * 2654435761u;
  h ^= h >> 16;
  h *= 2246822519u;
  h ^= h >> 13;
  const float hue = float(h & 1023u) / 1024.0f;
  const float sat = 0.45f + 0.35f * float((h >> 10) & 3u) / 3.0f;
  glm::vec3 k;
  for (int c = 0; c < 3; ++c) {
    const float offset = c == 0 ? 0.0f : (c == 1 ? 4.0f : 2.0f);
    k[c] = std::clamp(std::abs(std::fmod(hue * 6.0f + offset, 6.0f) - 3.0f) - 1.0f, 0.0f, 1.0f);
  }
  return 0.85f * glm::mix(glm::vec3(1.0f), k, sat);
}

glm::vec3 kinematicColor() { return {0.30f, 0.32f, 0.36f}; }
glm::vec3 projectileColor() { return {0.55f, 0.12f, 0.10f}; }

uint8_t toSrgb8(float linear) {
  const float v = std::sqrt(std::clamp(linear, 0.0f, 1.0f));  // gamma 2, as gammaEncode in shaders/common.glsl
  return uint8_t(std::lround(v * 255.0f));
}

}  // namespace frac::render
