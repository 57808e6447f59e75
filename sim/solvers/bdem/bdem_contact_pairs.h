#pragma once
// Which pairs of BDEM elements touch and what their contacts give (Lu et al. 2021, sec. 3.3), per item, for the
// element pass of bdem_step.h (and rbdem's barriers, which find their partners the same way): the bond lookup
// (an intact bond replaces contact), the Verlet-list candidates, each pair's and plane's contact from
// kernels/bdem_contact.h with the spring kept from the last step, the partners in index order, and the gather.
#include <cstdint>

#include "kernels/bdem_contact.h"
#include "solvers/bdem/bdem_arrays.h"

namespace frac::bdem {

FRAC_HD inline bool bondedIntact(const BdemBondView& bv, int i, int j) {
  for (int k = bv.elementStart[i]; k < bv.elementStart[i + 1]; ++k)
    if (bv.elementNeighbor[k] == j) return !bv.broken[bv.elementEntry[k] >> 1];
  return false;
}

// Whether i and j were ever bonded (the bond intact or broken).
FRAC_HD inline bool bonded(const BdemBondView& bv, int i, int j) {
  for (int k = bv.elementStart[i]; k < bv.elementStart[i + 1]; ++k)
    if (bv.elementNeighbor[k] == j) return true;
  return false;
}

// Verlet-list candidates of element i (not a projectile, not inactive): the grid elements within r_i + r_j + skin that are
// not i, not a pair of kinematic elements and not bonded to i. An intact bond replaces contact (Lu sec. 3.3); the
// pairs of broken bonds are added by the element pass from the bond list, so that a breaking bond never makes the
// list stale (it is rebuilt only when elements moved). Calls f(j) in grid order; the list builders sort each
// element's entries by index.
template <class F>
FRAC_HD inline void forEachListCandidate(const BdemViews& v, int i, F&& f) {
  const BdemElementView& e = v.elements;
  const vec3 pi = e.position[i];
  const float reach = e.radius[i] + v.listSkin;
  const bool kinematicI = e.flags[i] & kFlagKinematic;
  // Only the cells within r_i + the largest r_j + skin: the grid's cells grow past that reach when its window would
  // need too many (a scene with room for debris: the default scene's are 1.56 times it, and its 27 cells held 4 times
  // the candidates).
  v.grid.forEachCandidateWithin(pi, e.radius[i] + v.listReach, [&](int j, const glm::vec4& sphere) {
    const float rs = reach + sphere.w;
    const vec3 d = pi - vec3(sphere);
    if (j == i || glm::dot(d, d) >= rs * rs) return;
    if (kinematicI && (e.flags[j] & kFlagKinematic)) return;
    if (bonded(v.bonds, i, j)) return;
    f(j);
  });
}

FRAC_HD inline vec3 previousSpring(const BdemContactView& c, int i, int partner) {
  const int base = i * c.slots;
  for (int s = 0; s < c.slots; ++s) {
    const int q = c.previousPartner[base + s];
    if (q == partner) return c.previousSpring[base + s];
    if (q == kNoPartner) break;
  }
  return vec3(0.0f);
}

FRAC_HD inline ContactParams pairContactParams(const BdemMaterial& a, const BdemMaterial& b, float ra, float rb,
                                               float invMassA, float invMassB) {
  // Every combination is symmetric in (a, b) bit for bit, so both sides of a pair compute exactly opposite forces.
  const bool ordered = a.young <= b.young;
  const float eLo = ordered ? a.young : b.young, eHi = ordered ? b.young : a.young;
  ContactParams cp;
  cp.kr = contactStiffness(eLo, eHi, ra < rb ? ra : rb, ra < rb ? rb : ra);
  cp.kt = cp.kr * (0.5f * (a.shear / a.young + b.shear / b.young));  // k_t = k_r G / E
  cp.friction = 0.5f * (a.friction + b.friction);
  cp.zeta = 0.5f * (a.contactDamping + b.contactDamping);
  cp.massEff = reducedFromInverse(invMassA, invMassB);
  return cp;
}

// Contact of element i with element j as seen from i (eq. 20-27). False when they do not overlap.
FRAC_HD inline bool pairContact(const BdemViews& v, int i, int j, const vec3& spring, float dt, ContactResult& out) {
  const BdemElementView& e = v.elements;
  const vec3 d = separation(e, j, i);
  const float dist2 = glm::dot(d, d);
  const float rs = e.radius[i] + e.radius[j];
  if (dist2 >= rs * rs || dist2 <= 0.0f) return false;
  const float dist = sqrtf(dist2);
  const vec3 n = d / dist;
  const float delta = rs - dist;
  // Both sides use the same contact point, the middle of the overlap: arms r - delta/2 (exact angular momentum).
  const float armI = e.radius[i] - 0.5f * delta, armJ = e.radius[j] - 0.5f * delta;
  const vec3 vci = e.velocity[i] + glm::cross(e.angularVelocity[i], -armI * n);
  const vec3 vcj = e.velocity[j] + glm::cross(e.angularVelocity[j], armJ * n);
  const ContactParams cp = pairContactParams(v.materials[e.material[i]], v.materials[e.material[j]], e.radius[i],
                                             e.radius[j], e.invMass[i], e.invMass[j]);
  if (cp.massEff <= 0.0f) return false;  // two infinite masses
  out = contactForce(n, delta, armI, vci - vcj, spring, cp, dt);
  return true;
}

FRAC_HD inline bool planeContact(const BdemViews& v, int i, int k, const vec3& spring, float dt, ContactResult& out) {
  const BdemElementView& e = v.elements;
  if (e.invMass[i] <= 0.0f) return false;
  const vec3 n = v.planes.normal[k];
  const float delta = e.radius[i] - glm::dot(offsetFrom(e, i, v.planes.point[k]), n);
  if (delta <= 0.0f) return false;
  const float arm = e.radius[i] - delta;  // the contact point lies on the plane
  const vec3 vc = e.velocity[i] + glm::cross(e.angularVelocity[i], -arm * n);
  const BdemMaterial& mp = v.materials[v.planes.material[k]];
  ContactParams cp = pairContactParams(v.materials[e.material[i]], mp, e.radius[i], e.radius[i], e.invMass[i], 0.0f);
  out = contactForce(n, delta, arm, vc, spring, cp, dt);
  return true;
}

// The partners an element touches, kept in increasing index order whatever enumerated them (the CPU's Verlet list,
// the device's grid): contact loads are then summed in the same order on every backend and round the same way, so
// CPU and CUDA runs stay bit-identical. Partners beyond the capacity (only possible with very mixed radii) are
// handed back to the caller to evaluate at once.
template <int kCapacity>
struct TouchingPartners {
  int32_t index[kCapacity];
  int count = 0;
  // False when full: the caller evaluates j itself.
  FRAC_HD bool insert(int32_t j) {
    if (count == kCapacity) return false;
    int k = count++;
    for (; k > 0 && index[k - 1] > j; --k) index[k] = index[k - 1];
    index[k] = j;
    return true;
  }
};

// Records one contact: adds its load and keeps its spring for the next step.
struct ContactAccumulator {
  vec3 force{0.0f}, torque{0.0f};
  double energy = 0.0;
  int slot = 0;
  FRAC_HD void add(const BdemContactView& c, int i, int partner, const ContactResult& r, double energyShare) {
    force += r.forceOnI;
    torque += r.torqueOnI;
    energy += energyShare * r.energy;
    if (slot < c.slots) {
      c.nextPartner[i * c.slots + slot] = partner;
      c.nextSpring[i * c.slots + slot] = r.spring;
      ++slot;
    }
  }
  FRAC_HD void finish(const BdemContactView& c, int i) {
    for (int s = slot; s < c.slots; ++s) c.nextPartner[i * c.slots + s] = kNoPartner;
    c.energy[i] = float(energy);
  }
};

}  // namespace frac::bdem
