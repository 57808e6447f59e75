// BdemSolver's views for the renderer and the picker: writeFrame (core/render_frame.h), the sphere instances, the
// picked element and damage.
#include <algorithm>

#include "analysis/damage.h"
#include "analysis/fragments.h"
#include "solvers/bdem/bdem_instances.h"
#include "solvers/bdem/bdem_solver.h"
#include "solvers/bdem/bdem_surface.h"
#include "solvers/frame_parts.h"
#include "solvers/query_scratch.h"

namespace frac {

double BdemSolver::freeMass() const {
  const std::vector<float>& invMass = arrays_.layout().elements.invMass;  // constant: the host copy holds it
  double mass = 0.0;
  for (const float w : invMass)
    if (w > 0.0f) mass += 1.0 / double(w);
  return mass;
}

std::vector<float> BdemSolver::damage() const {
  const BdemArrays& a = arrays_.read();
  // A softening bond past its strength counts as the share of its undamaged load it no longer carries.
  std::vector<float> softened;
  for (long long b = 0; b < a.bonds.size(); ++b) {
    if (a.bonds.peakRatio[b] <= 0.0f) continue;
    if (softened.empty()) softened.assign(size_t(a.bonds.size()), 0.0f);
    softened[b] = 1.0f - carriedShare(a.bonds.coefficients[b].fractureWork, a.bonds.peakRatio[b], a.bonds.ductility[b]);
  }
  return brokenBondFraction(a.elements.size(), a.bonds.first.data(), a.bonds.second.data(), a.bonds.broken.data(),
                            a.bonds.size(), kNoBonds, softened.empty() ? nullptr : softened.data());
}

void BdemSolver::writeFrame(RenderFrame& frame, bool withBonds) {
  const std::vector<float>& ratio = stressRatios();
  const BdemArrays& a = arrays_.read();
  const BdemElementArrays& e = a.elements;
  const BdemBondArrays& bonds = a.bonds;
  const int n = e.size();
  frame.time = time_;
  frame.resizeElements(n);
  frame.elementsOnDevice = InstanceSummary{};
  const std::vector<float> damaged = damage();
  std::vector<float> maxRatio(n, 0.0f);
  for (long long b = 0; b < bonds.size(); ++b) {
    if (bonds.broken[b]) continue;
    const int i = bonds.first[b], j = bonds.second[b];
    maxRatio[i] = std::max(maxRatio[i], ratio[b]);
    maxRatio[j] = std::max(maxRatio[j], ratio[b]);
  }
  // Fragment colour key: the smallest element index of each piece, so a piece keeps its colour when others split.
  const FragmentLabels pieces = labelFragments(n, e.fragmentMember, bonds.first.data(), bonds.second.data(),
                                               bonds.broken.data(), bonds.size());
  const std::vector<uint32_t> fragmentKey = fragmentKeys(pieces);
  for (int i = 0; i < n; ++i) {
    const uint8_t flags = e.flags[i];
    const float r = (flags & kFlagInactive) ? 0.0f : e.radius[i];  // waiting projectiles are not drawn
    frame.spheres[i] = glm::vec4(e.position[i], r);
    frame.orientations[i] = e.orientation[i];
    frame.stressRatio[i] = maxRatio[i];
    frame.damage[i] = std::max(0.0f, damaged[i]);
    frame.speed[i] = glm::length(e.velocity[i]);
    frame.fragment[i] = fragmentKey[i];
    frame.material[i] = e.material[i];
    frame.kind[i] = (flags & kFlagKinematic)    ? ElementKind::Kinematic
                    : (flags & kFlagProjectile) ? ElementKind::Projectile
                                                : ElementKind::Body;
  }
  writeMaterials(frame, materialDescs_);
  writePlanes(frame, a.planes.point, a.planes.normal, a.planes.material, materialDescs_);
  writeBondLines(frame, withBonds, bonds.first, bonds.second, bonds.broken);
}

InstanceSummary BdemSolver::writeInstances(SphereInstance* out, int capacity, ElementScalar scalar) {
  if (arrays_.layout().elements.size() > capacity) return InstanceSummary{-1};
  if (arrays_.onDevice()) {
    if (arrays_.deviceNeedsUpload()) uploadToDevice();
    return arrays_.device().writeInstances(out, scalar);
  }
  BdemArrays& a = arrays_.query();
  HostQueryScratch scratch(a.elements.size());
  return bdem::writeElementInstances(exec_, hostViews(a), scalar, scratch.view(), out);
}

std::optional<ElementHit> BdemSolver::castRay(const vec3& origin, const vec3& direction) {
  if (arrays_.deviceCurrent()) return elementHit(arrays_.device().castRay(origin, direction), origin, direction);
  BdemArrays& a = arrays_.query();
  HostQueryScratch scratch(a.elements.size());
  const BdemViews v = hostViews(a);
  return elementHit(nearestSphereHit(exec_, v.elements.count, bdem::ElementSphere{v.elements}, origin, direction,
                                     scratch.view().pickPartial),
                    origin, direction);
}

void BdemSolver::writeSurfaces(SurfaceMesh& out, const SurfaceSettings& settings) {
  if (arrays_.onDevice()) {  // extracted where the state is: only the mesh comes back
    if (arrays_.deviceNeedsUpload()) uploadToDevice();
    arrays_.device().writeSurfaces(out, settings);
    return;
  }
  BdemArrays& a = arrays_.query();
  const BdemViews v = hostViews(a);
  const int n = v.elements.count;
  HostQueryScratch scratch(n);
  const QueryScratch q = scratch.view();
  fragmentKeysParallel(exec_, n, bdem::FragmentMember{v.elements.fragmentMember}, v.bonds.count, v.bonds.first,
                       v.bonds.second, v.bonds.broken, q.fragmentKey, q.changed);
  surfaces_.extract(exec_, buildCellField(exec_, bdem::SurfaceSource{v}, n, q.fragmentKey, cellField_), settings, out);
}

void BdemSolver::writeFrameWithoutElements(RenderFrame& frame, const InstanceSummary& summary) {
  const BdemPlaneArrays& planes = arrays_.layout().planes;
  writeFrameAround(frame, time_, summary, planes.point, planes.normal, planes.material, materialDescs_);
}

}  // namespace frac
