// BdemSolver::writeFrame: the element state as a RenderFrame (see core/render_frame.h).
#include <algorithm>

#include "analysis/fragments.h"
#include "solvers/bdem/bdem_solver.h"

namespace frac {

void BdemSolver::writeFrame(RenderFrame& frame, bool withBonds) {
  ensureHostCurrent();
  const int n = elements_.size();
  frame.time = time_;
  frame.resizeElements(n);
  const std::vector<float>& ratio = stressRatios();
  std::vector<uint16_t> initialBonds(n, 0), brokenBonds(n, 0);
  std::vector<float> maxRatio(n, 0.0f);
  for (long long b = 0; b < bonds_.size(); ++b) {
    const int i = bonds_.first[b], j = bonds_.second[b];
    ++initialBonds[i];
    ++initialBonds[j];
    if (bonds_.broken[b]) {
      ++brokenBonds[i];
      ++brokenBonds[j];
    } else {
      maxRatio[i] = std::max(maxRatio[i], ratio[b]);
      maxRatio[j] = std::max(maxRatio[j], ratio[b]);
    }
  }
  // Fragment colour key: the smallest element index of each piece, so a piece keeps its colour when others split.
  std::vector<uint8_t> include(n, 0);
  for (int i = 0; i < n; ++i) include[i] = elements_.body[i] >= 0 && !(elements_.flags[i] & kFlagKinematic);
  const FragmentLabels pieces = labelFragments(n, include, bonds_.first.data(), bonds_.second.data(),
                                               bonds_.broken.data(), bonds_.size());
  std::vector<uint32_t> firstOfPiece(pieces.count, 0);
  for (int i = n - 1; i >= 0; --i)
    if (pieces.label[i] >= 0) firstOfPiece[pieces.label[i]] = uint32_t(i);
  for (int i = 0; i < n; ++i) {
    const uint8_t flags = elements_.flags[i];
    const float r = (flags & kFlagInactive) ? 0.0f : elements_.radius[i];  // waiting projectiles are not drawn
    frame.spheres[i] = glm::vec4(elements_.position[i], r);
    frame.orientations[i] = elements_.orientation[i];
    frame.stressRatio[i] = maxRatio[i];
    frame.damage[i] = initialBonds[i] ? float(brokenBonds[i]) / float(initialBonds[i]) : 0.0f;
    frame.speed[i] = glm::length(elements_.velocity[i]);
    frame.fragment[i] = pieces.label[i] >= 0 ? firstOfPiece[pieces.label[i]] : uint32_t(i);
    frame.material[i] = elements_.material[i];
    frame.kind[i] = (flags & kFlagKinematic) ? ElementKind::Kinematic
                    : (flags & kFlagLarge)   ? ElementKind::Projectile
                                             : ElementKind::Body;
  }
  frame.materialColors.clear();
  frame.materialNames.clear();
  for (const MaterialDesc& m : materialDescs_) {
    frame.materialColors.push_back(m.color);
    frame.materialNames.push_back(m.name);
  }
  // Ground planes: squares a few times the scene's size around its centre.
  vec3 lo(1e30f), hi(-1e30f);
  for (int i = 0; i < n; ++i) {
    lo = glm::min(lo, elements_.position[i]);
    hi = glm::max(hi, elements_.position[i]);
  }
  const vec3 centre = n ? 0.5f * (lo + hi) : vec3(0.0f);
  const float halfSize = n ? std::max(4.0f * glm::length(hi - lo), 0.5f) : 1.0f;
  frame.meshes.clear();
  for (size_t k = 0; k < planePoint_.size(); ++k)
    frame.meshes.push_back(
        planeMesh(planePoint_[k], planeNormal_[k], centre, halfSize, materialDescs_[planeMaterial_[k]].color));
  frame.bondEnds.clear();
  frame.bondBroken.clear();
  if (withBonds) {
    frame.bondEnds.reserve(2 * bonds_.size());
    for (long long b = 0; b < bonds_.size(); ++b) {
      frame.bondEnds.push_back(elements_.position[bonds_.first[b]]);
      frame.bondEnds.push_back(elements_.position[bonds_.second[b]]);
      frame.bondBroken.push_back(bonds_.broken[b] != kBondIntact);
    }
  }
}

}  // namespace frac
