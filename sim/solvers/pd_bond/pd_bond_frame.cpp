// PeridynamicsSolver::writeFrame: particles (and the projectiles after them) as a RenderFrame (see core/render_frame.h).
#include <algorithm>

#include "solvers/frame_parts.h"
#include "solvers/pd_bond/pd_bond_cuda.h"
#include "solvers/pd_bond/pd_bond_solver.h"
#include "solvers/pd_bond/pd_instances.h"

namespace frac {

void PeridynamicsSolver::writeFrame(RenderFrame& frame, bool withBonds) {
  ensureHostCurrent();
  const int n = particleCount(), projectiles = int(projectileCentre_.size());
  frame.time = time_;
  frame.resizeElements(size_t(n) + projectiles);
  frame.elementsOnDevice = InstanceSummary{};
  const std::vector<float> damaged = damage();
  // Stress colour: the largest stretch of a particle's intact bonds over its breaking threshold (1 = breaking).
  std::vector<float> ratio(n, 0.0f);
  for (long long b = 0; b < bonds_.size(); ++b) {
    if (bonds_.broken[b]) continue;
    const int i = bonds_.first[b], j = bonds_.second[b];
    const float threshold = materials_[material_[i]].criticalStretch * bonds_.thresholdScale[b];
    const float r = threshold > 0.0f ? bonds_.stretch[b] / threshold : 0.0f;
    ratio[i] = std::max(ratio[i], r);
    ratio[j] = std::max(ratio[j], r);
  }
  const std::vector<uint8_t> include(n, 1);
  const std::vector<uint32_t> fragmentKey = fragmentKeys(labelFragments(
      n, include, bonds_.first.data(), bonds_.second.data(), bonds_.broken.data(), bonds_.size()));
  for (int i = 0; i < n; ++i) {
    frame.spheres[i] = glm::vec4(reference_[i] + displacement_[i], particleRadius_[i]);
    frame.orientations[i] = quat(1, 0, 0, 0);
    frame.stressRatio[i] = ratio[i];
    frame.damage[i] = std::max(0.0f, damaged[i]);
    frame.speed[i] = glm::length(velocity_[i]);
    frame.fragment[i] = fragmentKey[i];
    frame.material[i] = material_[i];
    frame.kind[i] = ElementKind::Body;
  }
  const std::vector<SphereInstance> balls = projectileInstances(ElementScalar::None);
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
  writePlanes(frame, planePoint_, planeNormal_, planeMaterial_, materialDescs_);
  writeBondLines(frame, withBonds, bonds_.first, bonds_.second, bonds_.broken);
}

std::vector<SphereInstance> PeridynamicsSolver::projectileInstances(ElementScalar scalar) const {
  const int n = particleCount(), projectiles = int(projectileCentre_.size());
  std::vector<SphereInstance> balls(projectiles);
  for (int k = 0; k < projectiles; ++k) {
    SphereInstance& s = balls[k];
    s.sphere = glm::vec4(projectileCentre_[k], projectileActive_[k] ? projectileRadius_[k] : 0.0f);
    s.speed = glm::length(projectileVelocity_[k]);
    s.scalar = scalar == ElementScalar::Speed ? s.speed : 0.0f;
    s.fragment = uint32_t(n + k);
    s.materialKind = packMaterialKind(projectileMaterial_[k], uint32_t(ElementKind::Projectile));
  }
  return balls;
}

InstanceSummary PeridynamicsSolver::writeInstances(SphereInstance* out, int capacity, ElementScalar scalar) {
  const int n = particleCount();
  const std::vector<SphereInstance> balls = projectileInstances(scalar);
  if (n + int(balls.size()) > capacity) return InstanceSummary{-1};
  if (device_) {
    if (deviceStale_) uploadToDevice();
    return device_->writeInstances(out, scalar, balls.data(), int(balls.size()));
  }
  ensureHostCurrent();  // pd-bond: the per-bond state the instances read
  std::vector<int32_t> key(n), words(kInstanceSummaryWords);
  int32_t changed = 0;
  const pd::InstanceScratch scratch{key.data(), &changed, words.data()};
  const InstanceSummary particles = pd::writeParticleInstances(exec_, views(), particleRadius_.data(), scalar, scratch, out);
  std::copy(balls.begin(), balls.end(), out + n);
  return mergeInstanceSummary(particles, balls.data(), int(balls.size()));
}

std::optional<ElementHit> PeridynamicsSolver::castRay(const vec3& origin, const vec3& direction) {
  const int n = particleCount();
  SphereHit hit;
  if (device_ && !deviceStale_) {
    hit = device_->castRay(origin, direction);
  } else {
    ensureHostCurrent();
    std::vector<SphereHit> partial(kPickChunks);
    hit = nearestSphereHit(exec_, n, pd::ParticleSphere{views().particles, particleRadius_.data()}, origin,
                           direction, partial.data());
  }
  // Projectiles move on the host; they follow the particles (element n + k), as in frames.
  const std::vector<SphereInstance> balls = projectileInstances(ElementScalar::None);
  for (int k = 0; k < int(balls.size()); ++k) {
    const glm::vec4 s = balls[k].sphere;
    const float t = s.w > 0.0f ? raySphereEntry(origin, direction, vec3(s), s.w) : -1.0f;
    if (t >= 0.0f) hit = NearerHit{}(hit, SphereHit{t, n + k, s});
  }
  return elementHit(hit, origin, direction);
}

void PeridynamicsSolver::writeFrameWithoutElements(RenderFrame& frame, const InstanceSummary& summary) {
  writeFrameAround(frame, time_, summary, planePoint_, planeNormal_, planeMaterial_, materialDescs_);
}

}  // namespace frac
