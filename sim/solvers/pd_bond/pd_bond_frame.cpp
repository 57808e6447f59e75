// PeridynamicsSolver::writeFrame: particles (and the projectiles after them) as a RenderFrame (see core/render_frame.h).
#include <algorithm>

#include "solvers/frame_parts.h"
#include "solvers/pd_bond/pd_bond_solver.h"

namespace frac {

void PeridynamicsSolver::writeFrame(RenderFrame& frame, bool withBonds) {
  ensureHostCurrent();
  const int n = particleCount(), projectiles = int(projectileCentre_.size());
  frame.time = time_;
  frame.resizeElements(size_t(n) + projectiles);
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
  for (int k = 0; k < projectiles; ++k) {
    const size_t e = size_t(n) + k;
    frame.spheres[e] = glm::vec4(projectileCentre_[k], projectileActive_[k] ? projectileRadius_[k] : 0.0f);
    frame.orientations[e] = quat(1, 0, 0, 0);
    frame.stressRatio[e] = frame.damage[e] = 0.0f;
    frame.speed[e] = glm::length(projectileVelocity_[k]);
    frame.fragment[e] = uint32_t(e);
    frame.material[e] = projectileMaterial_[k];
    frame.kind[e] = ElementKind::Projectile;
  }
  writeMaterials(frame, materialDescs_);
  writePlanes(frame, planePoint_, planeNormal_, planeMaterial_, materialDescs_);
  writeBondLines(frame, withBonds, bonds_.first, bonds_.second, bonds_.broken);
}

}  // namespace frac
