// BdemSolver::writeFrame: the element state as a RenderFrame (see core/render_frame.h).
#include <algorithm>

#include "analysis/damage.h"
#include "analysis/fragments.h"
#include "solvers/bdem/bdem_cuda.h"
#include "solvers/bdem/bdem_instances.h"
#include "solvers/bdem/bdem_solver.h"
#include "solvers/frame_parts.h"

namespace frac {

std::vector<float> BdemSolver::damage() const {
  ensureHostCurrent();
  return brokenBondFraction(elements_.size(), bonds_.first.data(), bonds_.second.data(), bonds_.broken.data(),
                            bonds_.size(), kNoBonds);
}

void BdemSolver::writeFrame(RenderFrame& frame, bool withBonds) {
  ensureHostCurrent();
  const int n = elements_.size();
  frame.time = time_;
  frame.resizeElements(n);
  frame.elementsOnDevice = InstanceSummary{};
  const std::vector<float>& ratio = stressRatios();
  const std::vector<float> damaged = damage();
  std::vector<float> maxRatio(n, 0.0f);
  for (long long b = 0; b < bonds_.size(); ++b) {
    if (bonds_.broken[b]) continue;
    const int i = bonds_.first[b], j = bonds_.second[b];
    maxRatio[i] = std::max(maxRatio[i], ratio[b]);
    maxRatio[j] = std::max(maxRatio[j], ratio[b]);
  }
  // Fragment colour key: the smallest element index of each piece, so a piece keeps its colour when others split.
  const FragmentLabels pieces = labelFragments(n, fragmentMembers(), bonds_.first.data(), bonds_.second.data(),
                                               bonds_.broken.data(), bonds_.size());
  const std::vector<uint32_t> fragmentKey = fragmentKeys(pieces);
  for (int i = 0; i < n; ++i) {
    const uint8_t flags = elements_.flags[i];
    const float r = (flags & kFlagInactive) ? 0.0f : elements_.radius[i];  // waiting projectiles are not drawn
    frame.spheres[i] = glm::vec4(elements_.position[i], r);
    frame.orientations[i] = elements_.orientation[i];
    frame.stressRatio[i] = maxRatio[i];
    frame.damage[i] = std::max(0.0f, damaged[i]);
    frame.speed[i] = glm::length(elements_.velocity[i]);
    frame.fragment[i] = fragmentKey[i];
    frame.material[i] = elements_.material[i];
    frame.kind[i] = (flags & kFlagKinematic) ? ElementKind::Kinematic
                    : (flags & kFlagLarge)   ? ElementKind::Projectile
                                             : ElementKind::Body;
  }
  writeMaterials(frame, materialDescs_);
  writePlanes(frame, planePoint_, planeNormal_, planeMaterial_, materialDescs_);
  writeBondLines(frame, withBonds, bonds_.first, bonds_.second, bonds_.broken);
}

std::vector<uint8_t> BdemSolver::fragmentMembers() const {
  std::vector<uint8_t> member(elements_.size(), 0);
  for (int i = 0; i < elements_.size(); ++i) member[i] = elements_.body[i] >= 0 && !(elements_.flags[i] & kFlagKinematic);
  return member;
}

InstanceSummary BdemSolver::writeInstances(SphereInstance* out, int capacity, ElementScalar scalar) {
  const int n = elements_.size();
  if (n > capacity) return InstanceSummary{-1};
  if (device_) {
    if (deviceStale_) uploadToDevice();
    return device_->writeInstances(out, scalar);
  }
  const std::vector<uint8_t> member = fragmentMembers();
  std::vector<int32_t> key(n), words(kInstanceSummaryWords);
  int32_t changed = 0;
  const bdem::InstanceScratch scratch{member.data(), key.data(), &changed, words.data()};
  return bdem::writeElementInstances(exec_, views(), scalar, scratch, out);
}

std::optional<ElementHit> BdemSolver::castRay(const vec3& origin, const vec3& direction) {
  if (device_ && !deviceStale_) return elementHit(device_->castRay(origin, direction), origin, direction);
  ensureHostCurrent();
  std::vector<SphereHit> partial(kPickChunks);
  const BdemViews v = views();
  return elementHit(nearestSphereHit(exec_, v.elements.count, bdem::ElementSphere{v.elements}, origin, direction,
                                     partial.data()),
                    origin, direction);
}

void BdemSolver::writeFrameWithoutElements(RenderFrame& frame, const InstanceSummary& summary) {
  writeFrameAround(frame, time_, summary, planePoint_, planeNormal_, planeMaterial_, materialDescs_);
}

}  // namespace frac
