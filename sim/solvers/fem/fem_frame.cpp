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

// The surface as it is now: every face of an intact tetrahedron without an intact neighbour, outward; an outer face
// (no neighbour) in the material's colour, a crack face (the neighbour failed) in its interior colour, with vertices
// of their own so that crack edges stay sharp. A node whose tetrahedra all failed (a debris particle, sec. 3.2) is
// drawn as a small octahedron of crack faces. Vertices carry their node's index (its colour scalars in the frame).
void FemSolver::writeSurfaces(SurfaceMesh& out, const SurfaceSettings&) {
  const FemArrays& a = arrays_.read();
  out.clear();
  const std::vector<uint32_t> fragmentKey = fragmentKeys(meshPieces());
  const int nodes = a.nodes.size();
  std::vector<int32_t> vertexOf(size_t(2) * nodes, -1);  // per node and kind (outer 0, crack 1)
  auto vertex = [&](int node, int kind) {
    int32_t& v = vertexOf[size_t(2) * node + kind];
    if (v < 0) {
      v = int32_t(out.positions.size());
      out.positions.push_back(a.nodes.reference[node] + a.nodes.displacement[node]);
      out.normals.push_back(vec3(0.0f));
      out.fragment.push_back(fragmentKey[node]);
      out.element.push_back(int32_t(node));
      out.crack.push_back(float(kind));
    }
    return uint32_t(v);
  };
  std::vector<uint8_t> hasIntact(size_t(nodes), 0);
  for (int e = 0; e < a.tets.size(); ++e) {
    if (a.tets.failed[e]) continue;
    const TetCorners& c = a.tets.corners[e];
    for (int k = 0; k < 4; ++k) {
      hasIntact[c.node[k]] = 1;
      const int other = a.tets.faceNeighbor[size_t(4) * e + k];
      if (other >= 0 && !a.tets.failed[other]) continue;
      const int kind = other < 0 ? 0 : 1;
      for (int m = 0; m < 3; ++m) out.indices.push_back(vertex(c.node[fem::tetFaceCorner(k, m)], kind));
    }
  }
  for (int node = 0; node < nodes; ++node) {  // debris particles
    if (hasIntact[node] || a.nodes.cornerStart[node] == a.nodes.cornerStart[node + 1]) continue;
    const vec3 centre = a.nodes.reference[node] + a.nodes.displacement[node];
    const float r = nodeRadius_[node];
    const uint32_t first = uint32_t(out.positions.size());
    const vec3 axis[6] = {{r, 0, 0}, {-r, 0, 0}, {0, r, 0}, {0, -r, 0}, {0, 0, r}, {0, 0, -r}};
    for (const vec3& d : axis) {
      out.positions.push_back(centre + d);
      out.normals.push_back(d / r);
      out.fragment.push_back(fragmentKey[node]);
      out.element.push_back(node);
      out.crack.push_back(1.0f);
    }
    static constexpr uint32_t kOctahedron[8][3] = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4},
                                                   {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
    for (const auto& f : kOctahedron)
      for (uint32_t v : f) out.indices.push_back(first + v);
  }
  const size_t meshVertices = out.positions.size();
  std::vector<vec3> summed(meshVertices, vec3(0.0f));
  for (size_t t = 0; t + 2 < out.indices.size(); t += 3) {  // area-weighted normals (the octahedra keep theirs)
    const uint32_t i = out.indices[t], j = out.indices[t + 1], k = out.indices[t + 2];
    const vec3 n = glm::cross(out.positions[j] - out.positions[i], out.positions[k] - out.positions[i]);
    summed[i] += n;
    summed[j] += n;
    summed[k] += n;
  }
  for (size_t v = 0; v < meshVertices; ++v)
    if (glm::length(summed[v]) > 0.0f && out.normals[v] == vec3(0.0f)) out.normals[v] = glm::normalize(summed[v]);
  for (vec3& n : out.normals)
    if (n == vec3(0.0f)) n = vec3(0, 1, 0);
  std::vector<uint32_t> keys = out.fragment;
  std::sort(keys.begin(), keys.end());
  out.pieces = int(std::unique(keys.begin(), keys.end()) - keys.begin());
}

}  // namespace frac
