#pragma once
// One element as the renderer's sphere impostor reads it (the instance layout of shaders/sphere.vert), and what a
// solver writes straight into a buffer the renderer shares with CUDA (Solver::writeInstances, issue 6 interop).
// The same values as the element's RenderFrame entry; the colour scalar is the one the colour mode shows.
#include <cstdint>

#include "core/math.h"

namespace frac {

struct SphereInstance {
  glm::vec4 sphere;        // centre, radius (0: not drawn)
  float scalar;            // the colour scalar chosen by ElementScalar
  uint32_t fragment;       // RenderFrame::fragment
  uint32_t materialKind;   // material | kind << 16
  float speed;             // RenderFrame::speed (the shader does not read it: the summary's auto colour range does)
};
static_assert(sizeof(SphereInstance) == 32, "the vertex layout of shaders/sphere.vert");

// Which RenderFrame field becomes SphereInstance::scalar.
enum class ElementScalar : uint32_t { None = 0, StressRatio = 1, Damage = 2, Speed = 3 };

FRAC_HD inline uint32_t packMaterialKind(uint32_t material, uint32_t kind) { return material | (kind << 16); }

// What the renderer needs to know of instances it cannot read (they stay in device memory): how many, the box of
// the drawn centres (shadow fitting, ground size) and the largest sphere radius and body speed (auto colour range).
struct InstanceSummary {
  int count = 0;           // instances written; -1 when they did not fit the capacity given
  vec3 lo{0.0f}, hi{0.0f}; // box of the centres of drawn spheres (lo > hi when none is drawn)
  float maxRadius = 0.0f;
  float maxBodySpeed = 0.0f;
};

}  // namespace frac
