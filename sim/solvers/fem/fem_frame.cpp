// FemSolver's frames: the nodes as the elements (sphere mode, picking), the projectiles after them, and the mesh's
// boundary triangles as the surface the renderer draws and --export-mesh writes.
#include <algorithm>

#include "solvers/element_instances.h"
#include "solvers/fem/fem_solver.h"
#include "solvers/frame_parts.h"

namespace frac {

namespace {

// Stress colour: the von Mises stress over 3 G times 1%, i.e. the equivalent elastic strain in percent (1 = a 1%
// strain, as a tensile strain of 1% in an incompressible solid): fem-debris has no strength in this version to take
// the ratio to (see fem_solver.h).
constexpr float kStressColourStrain = 0.01f;

}  // namespace

void FemSolver::writeFrame(RenderFrame& frame, bool withBonds) {
  const FemArrays& a = arrays_.read();
  const int n = a.nodes.size(), projectiles = a.projectiles.size();
  frame.time = time_;
  frame.resizeElements(size_t(n) + projectiles);
  frame.elementsOnDevice = InstanceSummary{};
  std::vector<float> ratio(size_t(n), 0.0f);
  for (int e = 0; e < a.tets.size(); ++e) {
    const float g = a.materials[a.tets.material[e]].shearModulus;
    const float r = fem::vonMises(a.tets.deviatoric[e]) / (3.0f * kStressColourStrain * g);
    for (int k = 0; k < 4; ++k) ratio[a.tets.corners[e].node[k]] = std::max(ratio[a.tets.corners[e].node[k]], r);
  }
  const std::vector<uint32_t> fragmentKey = fragmentKeys(meshPieces());
  for (int i = 0; i < n; ++i) {
    frame.spheres[i] = glm::vec4(a.nodes.reference[i] + a.nodes.displacement[i], nodeRadius_[i]);
    frame.orientations[i] = quat(1, 0, 0, 0);
    frame.stressRatio[i] = ratio[i];
    frame.damage[i] = 0.0f;
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

// The boundary of the tetrahedral mesh as it is now: its triangles (outward), a vertex per boundary node carrying the
// node's index (its colour scalars in the frame) and its piece; no crack faces yet (no element fails).
void FemSolver::writeSurfaces(SurfaceMesh& out, const SurfaceSettings&) {
  const FemArrays& a = arrays_.read();
  out.clear();
  const std::vector<uint32_t> fragmentKey = fragmentKeys(meshPieces());
  std::vector<int32_t> vertexOf(size_t(a.nodes.size()), -1);
  for (uint32_t node : boundary_) {
    if (vertexOf[node] < 0) {
      vertexOf[node] = int32_t(out.positions.size());
      out.positions.push_back(a.nodes.reference[node] + a.nodes.displacement[node]);
      out.normals.push_back(vec3(0.0f));
      out.fragment.push_back(fragmentKey[node]);
      out.element.push_back(int32_t(node));
      out.crack.push_back(0.0f);
    }
    out.indices.push_back(uint32_t(vertexOf[node]));
  }
  for (size_t t = 0; t + 2 < out.indices.size(); t += 3) {  // area-weighted normals
    const uint32_t i = out.indices[t], j = out.indices[t + 1], k = out.indices[t + 2];
    const vec3 n = glm::cross(out.positions[j] - out.positions[i], out.positions[k] - out.positions[i]);
    out.normals[i] += n;
    out.normals[j] += n;
    out.normals[k] += n;
  }
  for (vec3& n : out.normals) n = glm::length(n) > 0.0f ? glm::normalize(n) : vec3(0, 1, 0);
  std::vector<uint32_t> keys = out.fragment;
  std::sort(keys.begin(), keys.end());
  out.pieces = int(std::unique(keys.begin(), keys.end()) - keys.begin());
}

}  // namespace frac
