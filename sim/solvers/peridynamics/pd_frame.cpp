// PeridynamicsSolver's views for the renderer and the picker: particles (and the projectiles after them) as a
// RenderFrame (core/render_frame.h), as sphere instances, and the picked element.
#include <algorithm>

#include "solvers/frame_parts.h"
#include "solvers/peridynamics/pd_instances.h"
#include "solvers/peridynamics/pd_solver.h"
#include "solvers/peridynamics/pd_surface.h"
#include "solvers/query_scratch.h"

namespace frac {
namespace {

// The projectiles as sphere instances (they come after the particles n, n + 1, ... in frames and instances).
std::vector<SphereInstance> projectileInstances(const PdProjectileArrays& pr, const std::vector<uint16_t>& material,
                                                int n, ElementScalar scalar) {
  std::vector<SphereInstance> balls(pr.size());
  for (int k = 0; k < pr.size(); ++k) {
    SphereInstance& s = balls[k];
    s.sphere = glm::vec4(pr.centre[k], pr.active[k] ? pr.radius[k] : 0.0f);
    s.speed = glm::length(pr.velocity[k]);
    s.scalar = scalar == ElementScalar::Speed ? s.speed : 0.0f;
    s.fragment = uint32_t(n + k);
    s.materialKind = packMaterialKind(material[k], uint32_t(ElementKind::Projectile));
  }
  return balls;
}

}  // namespace

void PeridynamicsSolver::writeFrame(RenderFrame& frame, bool withBonds) {
  const PdArrays& a = arrays_.read();
  const PdParticleArrays& p = a.particles;
  const PdBondArrays& bonds = a.bonds;
  const int n = p.size(), projectiles = a.projectiles.size();
  frame.time = time_;
  frame.resizeElements(size_t(n) + projectiles);
  frame.elementsOnDevice = InstanceSummary{};
  const std::vector<float> damaged = damage();
  // Stress colour: the largest stretch of a particle's intact bonds over its breaking threshold (1 = breaking).
  std::vector<float> ratio(n, 0.0f);
  for (long long b = 0; b < bonds.size(); ++b) {
    if (bonds.broken[b]) continue;
    const int i = bonds.first[b], j = bonds.second[b];
    const float threshold = a.materials[p.material[i]].criticalStretch * bonds.thresholdScale[b];
    const float r = threshold > 0.0f ? bonds.stretch[b] / threshold : 0.0f;
    ratio[i] = std::max(ratio[i], r);
    ratio[j] = std::max(ratio[j], r);
  }
  const std::vector<uint8_t> include(n, 1);
  const std::vector<uint32_t> fragmentKey = fragmentKeys(
      labelFragments(n, include, bonds.first.data(), bonds.second.data(), bonds.broken.data(), bonds.size()));
  for (int i = 0; i < n; ++i) {
    frame.spheres[i] = glm::vec4(p.reference[i] + p.displacement[i], p.radius[i]);
    frame.orientations[i] = quat(1, 0, 0, 0);
    frame.stressRatio[i] = ratio[i];
    frame.damage[i] = std::max(0.0f, damaged[i]);
    frame.speed[i] = glm::length(p.velocity[i]);
    frame.fragment[i] = fragmentKey[i];
    frame.material[i] = p.material[i];
    frame.kind[i] = ElementKind::Body;
  }
  const std::vector<SphereInstance> balls = projectileInstances(a.projectiles, projectileMaterial_, n,
                                                                ElementScalar::None);
  for (int k = 0; k < projectiles; ++k) {
    const size_t e = size_t(n) + k;
    frame.spheres[e] = balls[k].sphere;
    frame.orientations[e] = quat(1, 0, 0, 0);
    frame.stressRatio[e] = frame.damage[e] = 0.0f;
    frame.speed[e] = balls[k].speed;
    frame.fragment[e] = balls[k].fragment;
    frame.material[e] = projectileMaterial_[k];
    frame.kind[e] = ElementKind::Projectile;
  }
  writeMaterials(frame, materialDescs_);
  writePlanes(frame, a.planes.point, a.planes.normal, planeMaterial_, materialDescs_);
  writeBondLines(frame, withBonds, bonds.first, bonds.second, bonds.broken);
}

InstanceSummary PeridynamicsSolver::writeInstances(SphereInstance* out, int capacity, ElementScalar scalar) {
  const int n = particleCount();
  const std::vector<SphereInstance> balls =
      projectileInstances(arrays_.layout().projectiles, projectileMaterial_, n, scalar);  // they move on the host
  if (n + int(balls.size()) > capacity) return InstanceSummary{-1};
  if (arrays_.onDevice()) {
    if (arrays_.deviceNeedsUpload()) uploadToDevice();
    return arrays_.device().writeInstances(out, scalar, balls.data(), int(balls.size()));
  }
  PdArrays& a = arrays_.query();
  HostQueryScratch scratch(n);
  const InstanceSummary particles = pd::writeParticleInstances(exec_, hostViews(a), scalar, scratch.view(), out);
  std::copy(balls.begin(), balls.end(), out + n);
  return mergeInstanceSummary(particles, balls.data(), int(balls.size()));
}

std::optional<ElementHit> PeridynamicsSolver::castRay(const vec3& origin, const vec3& direction) {
  const int n = particleCount();
  SphereHit hit;
  if (arrays_.deviceCurrent()) {
    hit = arrays_.device().castRay(origin, direction);
  } else {
    PdArrays& a = arrays_.query();
    HostQueryScratch scratch(n);
    hit = nearestSphereHit(exec_, n, pd::ParticleSphere{hostViews(a).particles}, origin, direction,
                           scratch.view().pickPartial);
  }
  // Projectiles move on the host; they follow the particles (element n + k), as in frames.
  const std::vector<SphereInstance> balls =
      projectileInstances(arrays_.layout().projectiles, projectileMaterial_, n, ElementScalar::None);
  for (int k = 0; k < int(balls.size()); ++k) {
    const glm::vec4 s = balls[k].sphere;
    const float t = s.w > 0.0f ? raySphereEntry(origin, direction, vec3(s), s.w) : -1.0f;
    if (t >= 0.0f) hit = NearerHit{}(hit, SphereHit{t, n + k, s});
  }
  return elementHit(hit, origin, direction);
}

void PeridynamicsSolver::writeSurfaces(SurfaceMesh& out, const SurfaceSettings& settings) {
  if (arrays_.onDevice()) {  // extracted where the state is: only the mesh comes back
    if (arrays_.deviceNeedsUpload()) uploadToDevice();
    arrays_.device().writeSurfaces(out, settings);
    return;
  }
  PdArrays& a = arrays_.query();
  const PdViews v = hostViews(a);
  const int n = v.particles.count;
  pd::rotationStage(exec_, v);
  HostQueryScratch scratch(n);
  const QueryScratch q = scratch.view();
  fragmentKeysParallel(exec_, n, pd::EveryParticle{}, v.bonds.count, v.bonds.first, v.bonds.second, v.bonds.broken,
                       q.fragmentKey, q.changed);
  surfaces_.extract(exec_, buildCellField(exec_, pd::SurfaceSource{v}, n, q.fragmentKey, cellField_), settings, out);
}

void PeridynamicsSolver::writeFrameWithoutElements(RenderFrame& frame, const InstanceSummary& summary) {
  const PdPlaneArrays& planes = arrays_.layout().planes;
  writeFrameAround(frame, time_, summary, planes.point, planes.normal, planeMaterial_, materialDescs_);
}

}  // namespace frac
