#pragma once
// Mirror of the std140 uniform block in shaders/common.glsl.
#include <glm/glm.hpp>

#include "core/sphere_instance.h"

namespace frac::render {

struct FrameUniforms {
  glm::mat4 view;
  glm::mat4 proj;
  glm::vec4 lightDirView;
  glm::vec4 skyColor;
  glm::vec4 groundColor;
  glm::vec4 upView;
  glm::vec4 params;    // x colour mode, y scalar min, z scalar max, w flags (1 = unlit)
  glm::vec4 viewport;  // width, height, element scale, unused
  glm::vec4 colormap[8];
  glm::vec4 materialColors[32];
  glm::vec4 kindColors[4];
  glm::mat4 viewToLight;
  glm::vec4 shadowParams;  // x 1 = shadows on, y normal offset (view units), z depth bias, w texel size (uv)
  glm::vec4 clipPlane;     // world: what has dot(xyz, p) > w is cut away (RenderSettings::clip); 0 = no cut
};
static_assert(sizeof(FrameUniforms) == 3 * 64 + 7 * 16 + 45 * 16, "std140 layout");

// Push constants of the shadow pass.
struct ShadowConstants {
  glm::mat4 lightViewProj;
  glm::vec4 params;     // x element scale, y shadow map size in pixels
  glm::vec4 clipPlane;  // as FrameUniforms::clipPlane: what is cut away casts no shadow
};

// One sphere instance as the vertex shader reads it: sim/core/sphere_instance.h (solvers write it on the device).
using frac::SphereInstance;

}  // namespace frac::render
