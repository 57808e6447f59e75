#pragma once
// Colour modes and the maps the shaders use, defined once on the CPU: the same stops are uploaded to the shaders and
// drawn in the legend, and tests compare rendered pixels against these functions.
#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include <glm/glm.hpp>

#include "core/sphere_instance.h"

namespace frac::render {

enum class ColorMode : uint32_t { Material = 0, StressRatio = 1, Damage = 2, Fragment = 3, Speed = 4 };
constexpr int kColorModeCount = 5;

const char* colorModeName(ColorMode mode);         // "material", "stress", "damage", "fragment", "speed"
const char* colorModeLabel(ColorMode mode);        // legend title, with the unit
std::optional<ColorMode> parseColorMode(const std::string& name);
bool isScalarMode(ColorMode mode);                 // stress, damage, speed: colour by the scalar map
// The instance scalar a solver writes for the mode (Solver::writeInstances); None for material and fragment.
ElementScalar elementScalar(ColorMode mode);

// The scalar range a frame was coloured with (the legend shows it).
struct ColorRange {
  float min = 0.0f, max = 1.0f;
};

struct ColorStop {
  float position;   // 0..1
  glm::vec3 color;  // linear RGB
};
const std::array<ColorStop, 5>& scalarColorStops();
// The scalar map at t (clamped to 0..1), linear RGB: what the shader computes for (value - min) / (max - min).
glm::vec3 scalarColor(float t);
// Stable pseudo-random colour of a fragment id (same hash as fragmentColor in shaders/common.glsl).
glm::vec3 fragmentColor(uint32_t id);
// Colours of kinematic bodies and projectiles in the scalar and fragment modes.
glm::vec3 kinematicColor();
glm::vec3 projectileColor();
// Linear value -> 8-bit as the shaders write it (gamma 2, rounded by the UNORM conversion).
uint8_t toSrgb8(float linear);

}  // namespace frac::render
