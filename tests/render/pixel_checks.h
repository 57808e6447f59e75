#pragma once
// Pixel reads and colour checks shared by the offscreen render tests (validation layer on).
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "color_map.h"
#include "offscreen_renderer.h"

namespace frac::render::pixels {

inline ContextOptions validated() {
  ContextOptions o;
  o.validation = true;
  return o;
}

struct Pixel {
  int r, g, b;
};

inline Pixel at(const std::vector<uint8_t>& rgba, uint32_t width, int x, int y) {
  const size_t k = (size_t(y) * width + size_t(x)) * 4;
  return {rgba[k], rgba[k + 1], rgba[k + 2]};
}

// Whether p is within `tolerance` (8-bit sRGB steps, per channel) of the linear colour.
inline bool near(Pixel p, glm::vec3 linear, int tolerance) {
  return std::abs(p.r - toSrgb8(linear.r)) <= tolerance && std::abs(p.g - toSrgb8(linear.g)) <= tolerance &&
         std::abs(p.b - toSrgb8(linear.b)) <= tolerance;
}

}  // namespace frac::render::pixels
