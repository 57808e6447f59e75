#pragma once
// One explicit BDEM time step (Lu et al. 2021, Algorithm 1) as a sequence of parallel_for over plain views, its
// stage order written once (stepStages) and run by the CPU (bdem_solver.cpp) and by CUDA (bdem_device.cu); this is
// the only copy of the step. Forces are gathered per element (bond results in per-bond slots, contacts evaluated from both sides with
// bit-exact antisymmetry), so no atomics are needed and results do not depend on the thread count.
#include <array>

#include "kernels/bdem_bond.h"
#include "kernels/integrate.h"
#include "solvers/bdem/bdem_arrays.h"
#include "solvers/bdem/bdem_contact_pairs.h"

namespace frac {

struct BdemStepParams {
  float dt = 1e-5f;
  vec3 gravity{0.0f, -9.81f, 0.0f};
  bool contact = true;
  bool softening = false;  // some material's bonds soften (BdemMaterial::fractureEnergy > 0): bondPass<., true>
};

}  // namespace frac

namespace frac::bdem {

// ---- per-item physics ------------------------------------------------------------------------------------------

// Constants of bond b from its material, rest state and the two element masses.
FRAC_HD inline void bondCoefficientPass(const BdemViews& v, int b) {
  const BdemBondView& bv = v.bonds;
  const BdemElementView& e = v.elements;
  const int i = bv.first[b], j = bv.second[b];
  const BondRest rest = bv.rest[b];
  const BdemMaterial& m = v.materials[bv.material[b]];
  const float scale = bv.stiffnessScale[b];
  BondCoefficients c;
  c.stiffness = bondStiffness(m.young * scale, m.shear * scale, rest.r0, rest.l0);
  const float massEff = reducedFromInverse(e.invMass[i], e.invMass[j]);
  const float inertiaEff = reducedFromInverse(e.invInertia[i], e.invInertia[j]);
  c.dampForce = 2.0f * m.bondDamping * sqrtf(c.stiffness.kn * massEff);
  c.dampMoment = 2.0f * m.bondDamping * sqrtf(c.stiffness.kb * inertiaEff);
  c.tensileStrength = m.tensileStrength * bv.tensileScale[b];
  c.shearStrength = m.shearStrength * bv.shearScale[b];
  // G_f S; none for an unbreakable bond ("inf" strengths are 3e38, kUnbreakable)
  c.fractureWork = c.tensileStrength < 1e37f ? m.fractureEnergy * c.stiffness.area : 0.0f;
  bv.coefficients[b] = c;
}

// Bond pass (Algorithm 1 lines 12-15): loads of bond b into its slots, breakage by eq. 17-18. Written without
// branches so that the CPU loop over bonds vectorises (8 bonds per AVX2 instruction). kSeriesRotation = true is
// that pass: it takes the relative rotation from its series and leaves the rare bond rotated by more than about
// 0.2 rad untouched, flagged in exactPending for the pass with kSeriesRotation = false, which is exact for any
// angle. Every bond thus gets exactly what the exact pass alone would give. kSoftening: some material's bonds soften
// past their strength (BdemStepParams::softening): the pass that reads and writes their history; without it a bond
// breaks at its strength as Lu's, in the pass without that work.
template <bool kSeriesRotation, bool kSoftening>
FRAC_HD inline void bondPass(const BdemViews& v, int b) {
  const BdemBondView& bv = v.bonds;
  const int i = bv.first[b], j = bv.second[b];
  const BdemElementView& e = v.elements;
  const BondRest& rest = bv.rest[b];
  const BondCoefficients& c = bv.coefficients[b];
  bool accurate = true;
  const BondDeformation d = bondDeformation<kSeriesRotation>(separation(e, i, j), e.orientation[i], e.orientation[j],
                                                             rest.d0, &accurate);
  BondLoad load = bondLoad(d, rest, c.stiffness);
  // sigma > sigma_c or tau > tau_c: a brittle bond breaks and carries nothing from now on
  const bool fails = exceedsStrength(load, c.stiffness, c.tensileStrength, c.shearStrength);
  const bool leave = !accurate;  // only in the series pass: the exact pass redoes this bond from the same state
  bool breaks = fails;
  float keep = 1.0f;
  if constexpr (kSoftening) {
    // A softening bond past its strength carries keep of its loads until kappa = 1 + chi, chi set at its first peak.
    const bool softens = c.fractureWork > 0.0f;
    const float pastPeak = bv.peakRatio[b];
    const float ratio = undamagedRatio(load, c.stiffness, c.tensileStrength, c.shearStrength);
    const float kappa = softens && fails && ratio > pastPeak ? ratio : pastPeak;
    const float chi = pastPeak > 0.0f ? bv.ductility[b]
                      : kappa > 0.0f  ? softeningDuctility(c.fractureWork, bondEnergyAtPeak(d, rest, c.stiffness), ratio)
                                      : 0.0f;
    keep = carriedShare(c.fractureWork, kappa, chi);  // a material edited back to brittle: its bonds whole again
    softenLoad(load, d, rest, c.stiffness, keep);
    breaks = softens ? kappa >= 1.0f + chi : fails;
    bv.peakRatio[b] = leave ? pastPeak : kappa;
    bv.ductility[b] = leave ? bv.ductility[b] : chi;
  }
  // With a zero coefficient (no damping, two infinite masses) this adds exact zeros.
  addBondDamping(load, d, keep * c.dampForce, keep * c.dampMoment, e.velocity[i], e.velocity[j], e.angularVelocity[i],
                 e.angularVelocity[j]);
  const bool wasBroken = bv.broken[b] != 0;
  if constexpr (kSeriesRotation) bv.exactPending[b] = leave && !wasBroken;
  const bool broken = wasBroken || (breaks && !leave);
  // kBondIntact (0), kBondBroken (1) or kBondBrokeThisStep (2), in arithmetic form so that the loop stays vectorised
  static_assert(kBondIntact == 0 && kBondBroken == 1 && kBondBrokeThisStep == 2);
  bv.broken[b] = uint8_t(uint8_t(broken) + uint8_t(broken && !wasBroken));
  bv.forceOnJ[b] = select(broken, vec3(0.0f), load.forceOnJ);
  bv.torqueShared[b] = select(broken, vec3(0.0f), load.torqueShared);
  bv.torqueRelative[b] = select(broken, vec3(0.0f), load.torqueRelative);
}

// Both bond passes (series, then exact for the bonds it left), with or without softening bonds.
template <bool kSoftening, class Exec>
void bondPasses(const Exec& exec, const BdemViews& v) {
  parallel_for(exec, v.bonds.count, [=] FRAC_HD(int b) { bondPass<true, kSoftening>(v, b); });
  parallel_for(exec, v.bonds.count, [=] FRAC_HD(int b) {
    if (v.bonds.exactPending[b]) bondPass<false, kSoftening>(v, b);
  });
}

// Contacts of element i with the projectiles (springs kept in i's slots) and with the planes.
FRAC_HD inline void addProjectileAndPlaneContacts(const BdemViews& v, const BdemStepParams& p, int i,
                                                  ContactAccumulator& acc) {
  for (int k = 0; k < v.projectileCount; ++k) {
    const int j = v.projectiles[k];
    if (j == i || (v.elements.flags[j] & kFlagInactive)) continue;
    ContactResult r;
    if (pairContact(v, i, j, previousSpring(v.contacts, i, j), p.dt, r)) acc.add(v.contacts, i, j, r, 0.5);
  }
  for (int k = 0; k < v.planes.count; ++k) {
    const int partner = kPlanePartnerBase - k;
    ContactResult r;
    if (planeContact(v, i, k, previousSpring(v.contacts, i, partner), p.dt, r)) acc.add(v.contacts, i, partner, r, 1.0);
  }
}

// Element pass (lines 11-12, 16-17) for an element in the grid: gather bonds, contacts and gravity into F, T.
// Velocities read here are v(t + dt/2); the closing half kick runs in its own pass so that no element reads a
// neighbour's velocity while it changes.
FRAC_HD inline void elementPass(const BdemViews& v, const BdemStepParams& p, int i) {
  const BdemElementView& e = v.elements;
  const BdemBondView& bv = v.bonds;
  vec3 force = e.invMass[i] > 0.0f ? p.gravity / e.invMass[i] : vec3(0.0f);
  vec3 torque(0.0f);
  uint64_t bondedMask = 0;  // bit (j mod 64) set for every intact bonded neighbour j: a cheap pre-test
  bool anyBroken = false;
  for (int k = bv.elementStart[i]; k < bv.elementStart[i + 1]; ++k) {
    const int entry = bv.elementEntry[k];
    const int b = entry >> 1;
    anyBroken |= bv.broken[b] != kBondIntact;
    if (bv.broken[b]) continue;
    bondedMask |= uint64_t(1) << (bv.elementNeighbor[k] & 63);
    if (entry & 1) {
      force += bv.forceOnJ[b];
      torque += bv.torqueShared[b] - bv.torqueRelative[b];
    } else {
      force -= bv.forceOnJ[b];
      torque += bv.torqueShared[b] + bv.torqueRelative[b];
    }
  }
  ContactAccumulator acc;
  if (p.contact && !(e.flags[i] & kFlagInactive)) {
    const bool kinematicI = e.flags[i] & kFlagKinematic;
    const vec3 pi = e.position[i];
    const float ri = e.radius[i];
    auto evaluate = [&](int j) {
      ContactResult r;
      if (pairContact(v, i, j, previousSpring(v.contacts, i, j), p.dt, r)) acc.add(v.contacts, i, j, r, 0.5);
    };
    TouchingPartners<32> touching;
    if (v.neighborStart && !anyBroken) {
      // The Verlet list already left out i itself, kinematic pairs and bonded pairs, and is sorted by index: the
      // order TouchingPartners gives the grid path.
      for (int k = v.neighborStart[i]; k < v.neighborStart[i + 1]; ++k) evaluate(v.neighborList[k]);
    } else if (v.neighborStart) {
      // i has broken bonds (this step's bond pass included): their partners touch i like any other element (as the
      // grid path finds them), merged with the list, which leaves out bonded pairs, in index order.
      auto consider = [&](int j) {
        const vec3 d = pi - e.position[j];
        const float rs = ri + e.radius[j];
        if (glm::dot(d, d) < rs * rs && !touching.insert(j)) evaluate(j);
      };
      for (int k = v.neighborStart[i]; k < v.neighborStart[i + 1]; ++k) consider(v.neighborList[k]);
      for (int k = bv.elementStart[i]; k < bv.elementStart[i + 1]; ++k) {
        const int j = bv.elementNeighbor[k];
        if (bv.broken[bv.elementEntry[k] >> 1] != kBondIntact && !(kinematicI && (e.flags[j] & kFlagKinematic)))
          consider(j);
      }
    } else {
      v.grid.forEachCandidate(pi, [&](int j, const glm::vec4& sphere) {
        const vec3 d = pi - vec3(sphere);
        const float rs = ri + sphere.w;
        if (glm::dot(d, d) >= rs * rs || j == i) return;
        if (kinematicI && (e.flags[j] & kFlagKinematic)) return;
        if (((bondedMask >> (j & 63)) & 1) && bondedIntact(bv, i, j)) return;
        if (!touching.insert(j)) evaluate(j);
      });
    }
    for (int k = 0; k < touching.count; ++k) evaluate(touching.index[k]);
    addProjectileAndPlaneContacts(v, p, i, acc);
  }
  acc.finish(v.contacts, i);
  force += acc.force;
  torque += acc.torque;
  e.force[i] = force;
  e.torque[i] = torque;
}

// Chunk c of projectile k (item = k kProjectileChunks + c): the projectile's contacts with the grid elements of the
// chunk, in chunk order (kProjectileChunks): the opposite of what those elements computed, from the same spring.
FRAC_HD inline void projectileChunkPass(const BdemViews& v, const BdemStepParams& p, int item) {
  const BdemElementView& e = v.elements;
  const int i = v.projectiles[item / kProjectileChunks];
  ProjectilePartial sum{vec3(0.0f), vec3(0.0f), 0.0};
  if (p.contact && !(e.flags[i] & kFlagInactive)) {
    const vec3 pi = e.position[i];
    const float ri = e.radius[i];
    for (int s = item % kProjectileChunks; s < v.gridElementCount; s += kProjectileChunks) {
      const int j = v.gridElements[s];
      const vec3 d = pi - e.position[j];
      const float rs = ri + e.radius[j];
      if (glm::dot(d, d) >= rs * rs) continue;
      ContactResult r;
      if (pairContact(v, i, j, -previousSpring(v.contacts, j, i), p.dt, r)) {  // the spring lives in j's slots
        sum.force += r.forceOnI;
        sum.torque += r.torqueOnI;
        sum.energy += 0.5 * r.energy;
      }
    }
  }
  v.projectilePartials[item] = sum;
}

// Projectile pass for projectile slot s: its contacts with the grid elements (the chunk partials, in order), with
// other projectiles and with planes, and gravity.
FRAC_HD inline void projectilePass(const BdemViews& v, const BdemStepParams& p, int s) {
  const BdemElementView& e = v.elements;
  const int i = v.projectiles[s];
  ContactAccumulator acc;
  vec3 force(0.0f);
  if (!(e.flags[i] & kFlagInactive)) {
    force = e.invMass[i] > 0.0f ? p.gravity / e.invMass[i] : vec3(0.0f);
    if (p.contact) {
      for (int c = 0; c < kProjectileChunks; ++c) {
        const ProjectilePartial& part = v.projectilePartials[s * kProjectileChunks + c];
        acc.force += part.force;
        acc.torque += part.torque;
        acc.energy += part.energy;
      }
      addProjectileAndPlaneContacts(v, p, i, acc);
    }
  }
  acc.finish(v.contacts, i);
  e.force[i] = force + acc.force;
  e.torque[i] = acc.torque;
}

// ---- the step's stages ------------------------------------------------------------------------------------------

// Lines 6-10: half kick with F(t) and drift, for every free element. The elements of pins and rollers (kinematics
// that prescribe position only, or two coordinates of it): the rotational half, and a roller's along its axis; the
// prescribed coordinates are kinematicStage's.
template <class Exec>
void driftStage(const Exec& exec, const BdemViews& v, const BdemStepParams& p) {
  const BdemElementView e = v.elements;
  const float dt = p.dt;
  parallel_for(exec, e.count, [=] FRAC_HD(int i) {
    const uint8_t flags = e.flags[i];
    if (!turnsFreely(flags)) return;
    if (!(flags & kFlagKinematic)) {
      halfKick(e.velocity[i], e.angularVelocity[i], e.force[i], e.torque[i], e.invMass[i], e.invInertia[i], dt);
      drift(e.position[i], e.positionLow[i], e.orientation[i], e.velocity[i], e.angularVelocity[i], dt);
      return;
    }
    const vec3 slide = slideMask(flags);  // zero for a pin, whose invMass is zero as well
    halfKick(e.velocity[i], e.angularVelocity[i], slide * e.force[i], e.torque[i], e.invMass[i], e.invInertia[i], dt);
    if (slides(flags)) addCompensated(e.position[i], e.positionLow[i], dt * (slide * e.velocity[i]));
    turn(e.orientation[i], e.angularVelocity[i], dt);
  });
}

// Elements of kinematic bodies follow their body's prescribed pose: pins' their positions only, rollers' the
// coordinates other than their axis.
template <class Exec>
void kinematicStage(const Exec& exec, const BdemViews& v) {
  const BdemElementView e = v.elements;
  const BdemKinematicView k = v.kinematics;
  parallel_for(exec, k.count, [=] FRAC_HD(int s) {
    const int i = k.element[s], b = k.body[s];
    const vec3 arm = rotate(k.bodyOrientation[b], k.offset[s]);
    vec3 low;
    const vec3 position = twoSum(k.bodyCentre[b], arm, low);  // the path to the low parts, as the free elements' drift
    const vec3 velocity = k.bodyVelocity[b] + glm::cross(k.bodyAngularVelocity[b], arm);
    const uint8_t flags = e.flags[i];
    if (!slides(flags)) {
      e.position[i] = position;
      e.positionLow[i] = low + k.bodyCentreLow[b];
      e.velocity[i] = velocity;
    } else {
      for (int a = 0; a < 3; ++a) {  // a roller's element: the coordinates other than its axis
        if (flags & (kFlagSlideX << a)) continue;
        e.position[i][a] = position[a];
        e.positionLow[i][a] = low[a] + k.bodyCentreLow[b][a];
        e.velocity[i][a] = velocity[a];
      }
    }
    if (flags & kFlagTurns) return;  // a pin's or roller's element: its rotation is integrated (drift, kick)
    e.angularVelocity[i] = k.bodyAngularVelocity[b];
    e.orientation[i] = k.bodyOrientation[b];
  });
}

// Lines 11-17 after the grid is built: bond loads and breakage, then the per-element gather of F(t + dt).
// `mark(k)` runs after sub-stage k (0 bonds, 1 elements, 2 projectiles): a hook for per-stage timing.
struct NoMark {
  void operator()(int) const {}
};
template <class Exec, class Mark = NoMark>
void forceStage(const Exec& exec, const BdemViews& v, const BdemStepParams& p, Mark mark = {}) {
  if (p.softening) bondPasses<true>(exec, v);
  else bondPasses<false>(exec, v);
  mark(0);
  parallel_for(exec, v.gridElementCount, [=] FRAC_HD(int s) { elementPass(v, p, v.gridElements[s]); });
  mark(1);
  parallel_for(exec, v.projectileCount * kProjectileChunks, [=] FRAC_HD(int item) { projectileChunkPass(v, p, item); });
  parallel_for(exec, v.projectileCount, [=] FRAC_HD(int s) { projectilePass(v, p, s); });
  mark(2);
}

// max(sigma / sigma_c, tau / tau_c) of bond b (eq. 17-18; rbdem: Zhang eq. 24-25): for colouring and diagnostics, not
// needed by the step.
FRAC_HD inline float bondStressRatio(const BdemViews& v, int b) {
  const BdemBondView& bv = v.bonds;
  if (bv.broken[b]) return 0.0f;
  const BdemElementView& e = v.elements;
  const int i = bv.first[b], j = bv.second[b];
  const BondCoefficients& c = bv.coefficients[b];
  if (v.rods.rest) {  // Rod-Bonded DEM: its rod stresses (Zhang eq. 24-25)
    const RodRest& rest = v.rods.rest[b];
    const BdemMaterial& m = v.materials[bv.material[b]];
    const float scale = bv.stiffnessScale[b];
    const RodStiffness k = rodStiffness(m.young * scale, m.shear * scale, v.rods.kappa, rest);
    RodJacobian jac;
    const RodStrain s = rodStrain(separation(e, i, j), e.orientation[i], e.orientation[j], rest, &jac);
    const RodStress stress = rodStress(s, jac, k, e.orientation[i], e.orientation[j], rest);
    const float sigmaRatio = stress.sigma / c.tensileStrength, tauRatio = stress.tau / c.shearStrength;
    return sigmaRatio > tauRatio ? sigmaRatio : tauRatio;
  }
  const BondLoad load =
      bondLoad(bondDeformation(separation(e, i, j), e.orientation[i], e.orientation[j], bv.rest[b].d0),
               bv.rest[b], c.stiffness);
  return undamagedRatio(load, c.stiffness, c.tensileStrength, c.shearStrength);
}

template <class Exec>
void stressStage(const Exec& exec, const BdemViews& v) {
  parallel_for(exec, v.bonds.count, [=] FRAC_HD(int b) { v.bonds.stressRatio[b] = bondStressRatio(v, b); });
}

// Bond constants for every bond: after loading and after every material edit.
template <class Exec>
void coefficientStage(const Exec& exec, const BdemViews& v) {
  parallel_for(exec, v.bonds.count, [=] FRAC_HD(int b) { bondCoefficientPass(v, b); });
}

// Lines 18-19: closing half kick with F(t + dt) (for pins' and rollers' elements what they integrate, as
// driftStage).
template <class Exec>
void kickStage(const Exec& exec, const BdemViews& v, const BdemStepParams& p) {
  const BdemElementView e = v.elements;
  const float dt = p.dt;
  parallel_for(exec, e.count, [=] FRAC_HD(int i) {
    const uint8_t flags = e.flags[i];
    if (!turnsFreely(flags)) return;
    const vec3 force = (flags & kFlagKinematic) ? slideMask(flags) * e.force[i] : e.force[i];
    halfKick(e.velocity[i], e.angularVelocity[i], force, e.torque[i], e.invMass[i], e.invInertia[i], dt);
  });
}

// ---- the step -----------------------------------------------------------------------------------------------------

// The stages of one step in their order (Algorithm 1), for every backend. `where` is the backend's side of it:
//   views()                 the views of the state where it lives (host arrays, or device memory),
//   refreshContactList(v)   v with the Verlet list (and its grid) current, rebuilt where the state lives,
//   swapContactBuffers()    the springs just written become the ones the next step reads,
//   mark(k)                 before stage k of kStageNames, and mark(kStageCount) after the last (timing).
// The kinematic bodies' poses for this step were set before (host arrays, or the device's inputs).
constexpr int kStageCount = 7;
constexpr std::array<const char*, kStageCount> kStageNames = {"drift",    "kinematic",   "contact list", "bonds",
                                                              "elements", "projectiles", "kick"};

// forceStage's sub-stage marks as the step's (a named type: nvcc takes no local lambda as a template argument of a
// function that holds extended lambdas).
template <class Where>
struct MarksFrom {
  Where* where;
  int first;
  void operator()(int k) const { where->mark(first + k); }
};

template <class Exec, class Where>
void stepStages(const Exec& exec, Where& where, const BdemStepParams& p) {
  BdemViews v = where.views();
  where.mark(0);
  driftStage(exec, v, p);
  where.mark(1);
  kinematicStage(exec, v);
  where.mark(2);
  v = where.refreshContactList(v);
  where.mark(3);
  forceStage(exec, v, p, MarksFrom<Where>{&where, 4});  // after bonds, elements, projectiles
  kickStage(exec, v, p);
  where.mark(7);
  where.swapContactBuffers();
}

}  // namespace frac::bdem
