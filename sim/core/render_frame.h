#pragma once
// RenderFrame: the only thing the renderer takes from the simulation. Plain arrays, one entry per element, plus
// static triangle meshes (ground planes), the fracture surfaces when asked for and optional bond lines. Every solver
// fills it through Solver::writeFrame (surfaces: Solver::writeSurfaces); render/ includes this header and the plain
// data it holds, nothing else from sim/.
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/math.h"
#include "core/sphere_instance.h"
#include "surface/surface_mesh.h"

namespace frac {

enum class ElementKind : uint8_t {
  Body = 0,        // breakable material
  Kinematic = 1,   // support, indenter, blade, grip: moved on a prescribed path
  Projectile = 2,
};

struct RenderMesh {
  std::vector<vec3> positions;   // world space
  std::vector<vec3> normals;     // per vertex
  std::vector<uint32_t> indices; // triangle list
  vec3 color{0.6f};
  bool grid = false;             // draw a 10 cm / 1 m grid on it (ground planes)
};

struct RenderFrame {
  double time = 0.0;
  // Per element (same length): sphere centre and radius, orientation, the colour fields and the kind.
  std::vector<glm::vec4> spheres;      // xyz centre, w radius
  std::vector<quat> orientations;
  std::vector<float> stressRatio;      // max over intact bonds of max(sigma/sigma_c, tau/tau_c) (Lu eq. 17-18)
  std::vector<float> damage;           // broken fraction of the element's initial bonds
  std::vector<float> speed;            // |v|, m/s
  std::vector<uint32_t> fragment;      // smallest element index of its connected piece: stable across frames
  std::vector<uint16_t> material;
  std::vector<ElementKind> kind;
  std::vector<vec3> materialColors;    // per material, linear RGB
  std::vector<vec3> materialInteriorColors;  // per material: its crack faces' colour, linear RGB
  std::vector<std::string> materialNames;
  std::vector<RenderMesh> meshes;
  // The fracture surfaces of this frame (Solver::writeSurfaces), null when not extracted. Shared, not copied: the
  // window copies snapshots, and the simulation thread reuses a mesh nobody else holds.
  std::shared_ptr<const SurfaceMesh> surfaces;
  // Bond lines (debug view): endpoints in pairs, and per pair 1 = broken.
  std::vector<vec3> bondEnds;
  std::vector<uint8_t> bondBroken;
  // Interop (issue 6): when elementsOnDevice.count > 0 the elements are not in the arrays above but in a buffer the
  // renderer shares with CUDA (Solver::writeInstances); this summary is what the host knows of them.
  InstanceSummary elementsOnDevice;

  size_t elementCount() const { return spheres.size(); }
  void resizeElements(size_t n) {
    spheres.resize(n);
    orientations.resize(n);
    stressRatio.resize(n);
    damage.resize(n);
    speed.resize(n);
    fragment.resize(n);
    material.resize(n);
    kind.resize(n);
  }
};

// A square of the plane through `point` with normal `normal`, centred at the point nearest `centre`, as a mesh.
inline RenderMesh planeMesh(const vec3& point, const vec3& normal, const vec3& centre, float halfSize,
                            const vec3& color) {
  const vec3 n = glm::normalize(normal);
  const vec3 helper = std::abs(n.y) < 0.9f ? vec3(0, 1, 0) : vec3(1, 0, 0);
  const vec3 u = glm::normalize(glm::cross(helper, n)), w = glm::cross(n, u);
  const vec3 c = centre - glm::dot(centre - point, n) * n;
  RenderMesh mesh;
  for (const float su : {-1.0f, 1.0f})
    for (const float sw : {-1.0f, 1.0f}) {
      mesh.positions.push_back(c + halfSize * (su * u + sw * w));
      mesh.normals.push_back(n);
    }
  mesh.indices = {0, 3, 1, 0, 2, 3};  // corners (-u,-w), (-u,+w), (+u,-w), (+u,+w): counter-clockwise about n
  mesh.color = color;
  mesh.grid = true;
  return mesh;
}

}  // namespace frac
