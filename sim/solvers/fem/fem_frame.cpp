// FemSolver's frames: the nodes as the elements (sphere mode, picking), the projectiles after them, and the mesh's
// boundary triangles as the surface the renderer draws and --export-mesh writes.
#include <algorithm>

#include "solvers/element_instances.h"
#include "solvers/fem/fem_solver.h"
#include "solvers/frame_parts.h"

namespace frac {

namespace {

// Stress colour: the von Mises stress over the Johnson-Cook yield stress A (1 = yielding); for an elastic material
// (A "inf") over 3 G times 1%, the equivalent elastic strain in percent.
constexpr float kStressColourStrain = 0.01f;

float stressScale(const FemMaterial& m) {
  return m.jc.A < 1e30f ? m.jc.A : 3.0f * kStressColourStrain * m.shearModulus;
}

}  // namespace

void FemSolver::writeFrame(RenderFrame& frame, bool withBonds) {
  const FemArrays& a = arrays_.read();
  const int n = a.nodes.size(), projectiles = a.projectiles.size();
  frame.time = time_;
  frame.resizeElements(size_t(n) + projectiles);
  frame.elementsOnDevice = InstanceSummary{};
  std::vector<float> ratio(size_t(n), 0.0f);
  for (int e = 0; e < a.tets.size(); ++e) {
    if (a.tets.failed[e]) continue;
    const float r = (1.0f - a.tets.damage[e]) * fem::vonMises(a.tets.deviatoric[e]) /
                    stressScale(a.materials[a.tets.material[e]]);
    for (int k = 0; k < 4; ++k) ratio[a.tets.corners[e].node[k]] = std::max(ratio[a.tets.corners[e].node[k]], r);
  }
  const std::vector<float> damaged = damage();
  const std::vector<uint32_t> fragmentKey = fragmentKeys(meshPieces());
  for (int i = 0; i < n; ++i) {
    frame.spheres[i] = glm::vec4(a.nodes.reference[i] + a.nodes.displacement[i], nodeRadius_[i]);
    frame.orientations[i] = quat(1, 0, 0, 0);
    frame.stressRatio[i] = ratio[i];
    frame.damage[i] = damaged[i];
    frame.speed[i] = glm::length(a.nodes.velocity[i]);
    frame.fragment[i] = fragmentKey[i];
    frame.material[i] = a.nodes.material[i];
    frame.kind[i] = ElementKind::Body;
  }
  for (int k = 0; k < projectiles; ++k) {
    const size_t e = size_t(n) + k;
    const bool shown = a.projectiles.active[k] || projectileLaunch_[k] > time_;
    frame.spheres[e] = glm::vec4(a.projectiles.centre[k], shown ? a.projectiles.radius[k] : 0.0f);
    frame.orientations[e] = quat(1, 0, 0, 0);
    frame.stressRatio[e] = frame.damage[e] = 0.0f;
    frame.speed[e] = glm::length(a.projectiles.velocity[k]);
    frame.fragment[e] = uint32_t(e);
    frame.material[e] = projectileMaterial_[k];
    frame.kind[e] = ElementKind::Projectile;
  }
  writeMaterials(frame, materialDescs_);
  writePlanes(frame, a.planes.point, a.planes.normal, a.planes.material, materialDescs_);
  frame.bondEnds.clear();
  frame.bondBroken.clear();
  (void)withBonds;  // a mesh has no bonds to draw
}

InstanceSummary FemSolver::writeInstances(SphereInstance* out, int capacity, ElementScalar scalar) {
  RenderFrame frame;
  writeFrame(frame, false);
  const int count = int(frame.elementCount());
  if (count > capacity) return InstanceSummary{-1};
  InstanceExtent extent;  // element_instances.h: what the renderer needs of instances it does not read
  for (int i = 0; i < count; ++i) {
    const float value = scalar == ElementScalar::StressRatio ? frame.stressRatio[i]
                        : scalar == ElementScalar::Damage    ? frame.damage[i]
                        : scalar == ElementScalar::Speed     ? frame.speed[i]
                                                             : 0.0f;
    out[i] = SphereInstance{frame.spheres[i], value, frame.fragment[i],
                            packMaterialKind(frame.material[i], uint32_t(frame.kind[i])), frame.speed[i]};
    extent.add(out[i]);
  }
  return InstanceSummary{count, extent.lo, extent.hi, extent.radius, extent.speed};
}

// The node or ball a ray enters first (nodes n.., then the balls after them, as in frames).
std::optional<ElementHit> FemSolver::castRay(const vec3& origin, const vec3& direction) {
  const FemArrays& a = arrays_.read();
  const int n = a.nodes.size();
  SphereHit best;
  auto consider = [&](int element, const vec3& centre, float radius) {
    const float t = radius > 0.0f ? raySphereEntry(origin, direction, centre, radius) : -1.0f;
    if (t >= 0.0f) best = NearerHit{}(best, SphereHit{t, element, glm::vec4(centre, radius)});
  };
  for (int i = 0; i < n; ++i) consider(i, a.nodes.reference[i] + a.nodes.displacement[i], nodeRadius_[i]);
  for (int k = 0; k < a.projectiles.size(); ++k)
    if (a.projectiles.active[k] || projectileLaunch_[k] > time_)  // drawn while waiting too, as in frames
      consider(n + k, a.projectiles.centre[k], a.projectiles.radius[k]);
  return elementHit(best, origin, direction);
}

void FemSolver::writeFrameWithoutElements(RenderFrame& frame, const InstanceSummary& summary) {
  const FemPlaneArrays& planes = arrays_.layout().planes;
  writeFrameAround(frame, time_, summary, planes.point, planes.normal, planes.material, materialDescs_);
}

// The surface: intact tetrahedra's outer faces and failed ones split into their corners' pieces (sec. 4,
// fem_split_surface.h); vertices carry a node's index (its colour scalars in the frame).
void FemSolver::writeSurfaces(SurfaceMesh& out, const SurfaceSettings&) {
  splitSurface_.build(arrays_.read(), fragmentKeys(meshPieces()), out);
}

}  // namespace frac
