#pragma once
// What to draw and how: the user-facing render options (colour mode, bonds, element scale, lighting).
#include <glm/glm.hpp>

#include "color_map.h"

namespace frac::render {

struct RenderSettings {
  ColorMode colorMode = ColorMode::Material;
  float scalarMin = 0.0f;          // the scalar map's range; speed uses speedMax when autoRange is off
  float scalarMax = 1.0f;
  bool autoSpeedRange = true;      // speed mode: 0..max speed of the frame
  bool bonds = false;              // bond lines (intact blue, broken red)
  bool lit = true;                 // false: flat albedo (tests compare colours exactly)
  bool shadows = true;             // key-light shadow map
  bool occlusionCulling = true;    // skip spheres hidden behind nearer ones (the image is the same)
  float elementScale = 1.0f;       // drawn radius / element radius
  glm::vec3 background{0.30f, 0.36f, 0.45f};  // linear RGB
  bool legend = true;              // overlay for recordings (colour bar, mode, time)
};

}  // namespace frac::render
