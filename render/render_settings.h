#pragma once
// What to draw and how: the user-facing render options (colour mode, bonds, element scale, lighting, spheres or
// fracture surfaces).
#include <optional>
#include <string>

#include <glm/glm.hpp>

#include "color_map.h"

namespace frac::render {

// What shows the bodies: their elements as spheres, their fracture surfaces (closed meshes with crack faces), or
// both. Projectiles and kinematic bodies have no surfaces: they stay spheres in every mode.
enum class DrawMode : uint32_t { Spheres = 0, Surfaces = 1, Both = 2 };
constexpr int kDrawModeCount = 3;

inline const char* drawModeName(DrawMode mode) {
  switch (mode) {
    case DrawMode::Surfaces: return "surfaces";
    case DrawMode::Both: return "both";
    default: return "spheres";
  }
}
inline std::optional<DrawMode> parseDrawMode(const std::string& name) {
  for (int m = 0; m < kDrawModeCount; ++m)
    if (name == drawModeName(DrawMode(m))) return DrawMode(m);
  return std::nullopt;
}

struct RenderSettings {
  ColorMode colorMode = ColorMode::Material;
  float scalarMin = 0.0f;          // the scalar map's range; speed uses speedMax when autoRange is off
  float scalarMax = 1.0f;
  bool autoSpeedRange = true;      // speed mode: 0..max speed of the frame
  bool bonds = false;              // bond lines (intact blue, broken red)
  bool lit = true;                 // false: flat albedo (tests compare colours exactly)
  bool shadows = true;             // key-light shadow map
  bool occlusionCulling = true;    // a CPU device (lavapipe): skip spheres hidden behind nearer ones (the image is
                                   // the same); a GPU draws every sphere whatever this says
  float elementScale = 1.0f;       // drawn radius / element radius
  glm::vec3 background{0.30f, 0.36f, 0.45f};  // linear RGB
  bool legend = true;              // overlay for recordings (colour bar, mode, time)
  DrawMode draw = DrawMode::Spheres;
  // Grid cell of the surfaces in element radii (SurfaceSettings::cellSize): read by whoever extracts them for the
  // frame, not by the renderer.
  float surfaceCellSize = 1.0f;
  // Cross-section: what lies beyond the plane dot(clipPlane.xyz, p) = clipPlane.w (world, unit normal) is cut away:
  // spheres whose centre is beyond it and the surfaces' parts beyond it, in the image and in the shadows.
  bool clip = false;
  glm::vec4 clipPlane{0.0f, 0.0f, 1.0f, 0.0f};
  glm::vec4 activeClipPlane() const { return clip ? clipPlane : glm::vec4(0.0f); }

  bool drawSurfaces() const { return draw != DrawMode::Spheres; }
  bool drawBodySpheres() const { return draw != DrawMode::Surfaces; }
};

}  // namespace frac::render
