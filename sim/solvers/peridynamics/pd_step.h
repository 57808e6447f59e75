#pragma once
// One step of bond-based peridynamics (Levine et al. 2014, the PMB model of Silling & Askari 2005 and LAMMPS
// peri/pmb), or of state-based elastoplastic peridynamics (Chen et al. 2018; its bond passes in pd_state_passes.h)
// on the same particles, families, contacts and projectiles, as a sequence of parallel_for over plain views: velocity
// Verlet (Levine sec. 4), the bonds (stretch, breakage, eq. 2-5) and a per-particle pass (bond forces eq. 3, contact
// eq. 6 or LAMMPS', projectiles eq. 7 or LAMMPS' indenter, gravity). The stage order is written once (stepStages)
// and run by the CPU (pd_solver.cpp) and by CUDA (pd_device.cu).
// Every force is summed per particle: no atomics, results independent of the thread count.
#include <array>

#include "kernels/integrate.h"
#include "kernels/pd_bond.h"
#include "kernels/pd_contact.h"
#include "solvers/peridynamics/pd_arrays.h"
#include "solvers/peridynamics/pd_family_slots.h"
#include "solvers/peridynamics/pd_state_passes.h"
#include "solvers/solver_stats.h"

namespace frac {

struct PdStepParams {
  PdForcePass forces = PdForcePass::Bonds;
  float dt = 1e-7f;
  float damping = 0.0f;  // 1/s: force density -rho c v
  vec3 gravity{0.0f};
  PdContact contact = PdContact::Levine;
  float contactStiffness = 1e8f;  // K_c of eq. 6
  float spacing = 1e-3f;          // lattice spacing lambda
  float horizon = 3e-3f;          // delta
  float restitution = 0.99f;      // floor
  bool partialVolume = true;      // LAMMPS' partial-volume factor beta (pmbPartialVolume); set at load
  bool lammpsStrengthening = false;
  bool forceInBreakingStep = false;  // LAMMPS: a bond that breaks still acts in that step
};

}  // namespace frac

namespace frac::pd {

FRAC_HD inline vec3 currentPosition(const PdParticleView& p, int i) { return p.reference[i] + p.displacement[i]; }

// beta of a bond of length |xi|: the build stores it per bond (bondPass reads it) and the family pass recomputes it
// from |xi| instead of streaming it: the same function of the same floats, so the same bits. (pd-bond's surface
// correction multiplies the stored beta; the family pass then streams it, familyBeta.)
FRAC_HD inline float bondBeta(const PdStepParams& sp, float xiLength) {
  return sp.partialVolume ? pmbPartialVolume(xiLength, sp.horizon, sp.spacing) : 1.0f;
}

// Bond (i, j) seen from particle i (kernels/pd_bond.h pmbBond): its threshold is s0 of the bond's material (that of
// its lower-numbered particle) times its scatter, shifted by eq. 5 with the smaller shift of the two particles (from
// the previous step, as LAMMPS does). Every input that is not a difference of the two ends is taken by (lower, higher)
// index, so both ends get the same bits.
FRAC_HD inline PmbBond bondSeenFrom(const PdViews& v, const PdStepParams& sp, int i, int j, float xiLength, float beta,
                                    float thresholdScale, bool wasBroken) {
  const PdParticleView& p = v.particles;
  const int lower = i < j ? i : j, higher = i < j ? j : i;
  const PdMaterial& m = v.materials[p.material[lower]];
  const float shiftLower = p.thresholdShift[lower], shiftHigher = p.thresholdShift[higher];
  const float threshold = m.criticalStretch * thresholdScale + (shiftLower < shiftHigher ? shiftLower : shiftHigher);
  return pmbBond(p.reference[j] - p.reference[i], p.displacement[j] - p.displacement[i], xiLength, beta,
                 m.micromodulus, threshold, wasBroken, sp.forceInBreakingStep);
}

// What a particle's family adds up to: the bond forces of eq. 3 (times the neighbours' volumes), the smallest stretch
// for eq. 5 of the next step, and the intact bonds for Chen eq. 19's damage.
struct FamilySum {
  vec3 force{0.0f};
  float minStretch = kBrokenStretch;  // broken bonds record kBrokenStretch and carry a zero force
  int intact = 0;
  int family = 0;

  FRAC_HD void add(const vec3& weightedForce, float stretch) {
    force += weightedForce;
    minStretch = stretch < minStretch ? stretch : minStretch;
    intact += stretch != kBrokenStretch;
  }
};

// PdForcePass::Bonds: each bond computed once (from its first end) into both ends' family slots, for the gather
// (familySlotSum). Written without branches, so that GCC vectorises the loop over bonds (8 per AVX2 op).
FRAC_HD inline void bondPass(const PdViews& v, const PdStepParams& sp, int b) {
  const PdBondView& bv = v.bonds;
  const PmbBond bond = bondSeenFrom(v, sp, bv.first[b], bv.second[b], bv.xiLength[b], bv.beta[b],
                                    bv.thresholdScale[b], bv.broken[b] != 0);
  bv.broken[b] = bond.broken;
  storeBond(v, b, bond.force, bond.stretch);
}

// PdForcePass::Families: every bond of i's family computed here, in family order, the break kept at this end's
// slot. Each bond is computed at both ends, twice the arithmetic of bondPass, but nothing is stored and gathered: a
// warp reads its 32 families' constants side by side (one coalesced load per entry) and the neighbours' positions,
// which on a lattice are mostly neighbours too. The sums have bondPass + familySlotSum's bits.
FRAC_HD inline FamilySum familyBondPass(const PdViews& v, const PdStepParams& sp, int i) {
  const PdBondView& bv = v.bonds;
  FamilySum sum;
  sum.family = bv.particleStart[i + 1] - bv.particleStart[i];
  for (int k = 0, at = familySlot(bv, i, 0), stride = familySlotStride(bv); k < sum.family; ++k, at += stride) {
    const FamilyBond e = bv.familyBond[at];
    const float scale = bv.familyThresholdScale ? bv.familyThresholdScale[at] : 1.0f;  // see FRAC_PD_FAMILY_ARRAYS
    const float beta = bv.familyBeta ? bv.familyBeta[at] : bondBeta(sp, e.xiLength);
    const PmbBond bond = bondSeenFrom(v, sp, i, e.neighbor, e.xiLength, beta, scale, bv.endBroken[at] != 0);
    bv.endBroken[at] = bond.broken;
    sum.add(v.particles.volume[e.neighbor] * bond.force, bond.stretch);
  }
  return sum;
}

// The family's slots, left by bondPass or by the bond passes of pd_state_passes.h, in order.
FRAC_HD inline FamilySum familySlotSum(const PdViews& v, int i) {
  const PdBondView& bv = v.bonds;
  FamilySum sum;
  sum.family = bv.particleStart[i + 1] - bv.particleStart[i];
  for (int k = 0, at = familySlot(bv, i, 0), stride = familySlotStride(bv); k < sum.family; ++k, at += stride) {
    const FamilySlot slot = bv.slot[at];
    sum.add(slot.force, slot.stretch);
  }
  return sum;
}

// After family passes, the bond state as the rest of the solver reads it (frames, statistics, fragments, the host
// copy), from the first end's slot: broken, and the stretch of an intact bond at the current displacements (what
// the last pass saw).
FRAC_HD inline void bondStateFromEnds(const PdViews& v, int b) {
  const PdBondView& bv = v.bonds;
  const PdParticleView& p = v.particles;
  const bool broken = bv.endBroken[bv.slotOfFirst[b]] != 0;
  const int i = bv.first[b], j = bv.second[b];
  float length;
  const float s = pmbStretch(p.reference[j] - p.reference[i], bv.xiLength[b], p.displacement[j] - p.displacement[i],
                             length);
  bv.broken[b] = broken;
  bv.stretch[b] = broken ? kBrokenStretch : s;
}

// Short-range contact of particle i with j (kernels/pd_contact.h) as force density on i.
FRAC_HD inline vec3 contactForceDensity(const PdViews& v, const PdStepParams& sp, int i, int j, const vec3& xI) {
  const PdParticleView& p = v.particles;
  const vec3 d = xI - currentPosition(p, j);
  if (sp.contact == PdContact::Levine) return levineContactForceDensity(d, sp.spacing, sp.contactStiffness, p.volume[i]);
  return lammpsContactForceDensity(d, p.reference[i] - p.reference[j], sp.spacing, sp.horizon,
                                   v.materials[p.material[i]].micromodulus, p.volume[j]);
}

// Projectile k on a particle at xI (kernels/pd_contact.h).
FRAC_HD inline vec3 projectileForceDensityAt(const PdViews& v, int k, const vec3& xI) {
  const PdProjectileView& pr = v.projectiles;
  return projectileForceDensity(xI - pr.centre[k], pr.radius[k], pr.velocity[k], pr.forceConstant[k], pr.model[k]);
}

// Contact-list candidates of particle i at xI: every other particle within `reach` in the grid (bonded or not:
// contact acts between any two particles that come too close). The CPU and the device build their lists with it.
template <class F>
FRAC_HD inline void forEachContactCandidate(const GridView& grid, int i, const vec3& xI, float reach, F&& f) {
  grid.forEachCandidate(xI, [&](int j, const glm::vec4& sphere) {
    const vec3 d = xI - vec3(sphere);
    if (j != i && glm::dot(d, d) < reach * reach) f(j);
  });
}

// Particle pass: the family's sum (eq. 3), the threshold shift of eq. 5 for the next step from its smallest stretch
// (into nextThresholdShift: the bonds of this step read the current ones), Chen's damage for pd-state, and contacts,
// projectiles and gravity.
template <PdForcePass kPass>
FRAC_HD inline void particlePass(const PdViews& v, const PdStepParams& sp, int i, const FamilySum& family) {
  const PdParticleView& p = v.particles;
  vec3 f = family.force;
  const float minStretch = family.minStretch;
  const float alpha = v.materials[p.material[i]].alpha;
  const float limited = sp.lammpsStrengthening ? minStretch : (minStretch < 0.0f ? minStretch : 0.0f);
  p.nextThresholdShift[i] = minStretch == kBrokenStretch ? 0.0f : -alpha * limited;
  if constexpr (kPass == PdForcePass::States)  // Chen eq. 19's phi for the next step's fracture test
    p.damage[i] = family.family > 0 ? 1.0f - float(family.intact) / float(family.family) : 0.0f;
  if (p.externalForce) f += p.externalForce[i];
  f -= (p.density[i] * sp.damping) * p.velocity[i];
  const vec3 xI = currentPosition(p, i);
  if (sp.contact != PdContact::Off)
    for (int k = v.neighborStart[i]; k < v.neighborStart[i + 1]; ++k)
      f += contactForceDensity(v, sp, i, v.neighborList[k], xI);
  for (int k = 0; k < v.projectiles.count; ++k)
    if (v.projectiles.active[k]) f += projectileForceDensityAt(v, k, xI);
  p.forceDensity[i] = f + p.density[i] * sp.gravity;
}

// ---- the step's stages ------------------------------------------------------------------------------------------

// Velocity Verlet, first half: v += dt/2 f/rho, u += dt v (gripped particles move at their grip's velocity); then the
// floor (Levine sec. 4): a particle that crossed a plane is put back on it and its normal velocity reflected,
// keeping `restitution` of it.
template <class Exec>
void driftStage(const Exec& exec, const PdViews& v, const PdStepParams& sp) {
  const PdParticleView p = v.particles;
  const PdPlaneView planes = v.planes;
  const float dt = sp.dt, e = sp.restitution;
  parallel_for(exec, p.count, [=] FRAC_HD(int i) {
    const int grip = p.drivenBy ? p.drivenBy[i] : -1;
    const vec3 free = p.velocity[i] + (0.5f * dt / p.density[i]) * p.forceDensity[i];
    vec3 vel = grip >= 0 ? prescribedOrFree(p.driveSlide[grip], p.driveVelocity[grip], free) : free;
    vec3 u = p.displacement[i] + dt * vel;
    for (int k = 0; k < planes.count; ++k) {
      const vec3 n = planes.normal[k];
      const float depth = glm::dot(p.reference[i] + u - planes.point[k], n);
      if (depth >= 0.0f) continue;
      u -= depth * n;
      const float vn = glm::dot(vel, n);
      if (vn < 0.0f) vel -= ((1.0f + e) * vn) * n;
    }
    p.velocity[i] = vel;
    p.displacement[i] = u;
  });
}

// The forces of one pass kind; the next threshold shifts are left in nextThresholdShift for the caller to swap in.
template <PdForcePass kPass, class Exec>
void forcePasses(const Exec& exec, const PdViews& v, const PdStepParams& sp) {
  if constexpr (kPass == PdForcePass::Families) {
    parallel_for(exec, v.particles.count,
                 [=] FRAC_HD(int i) { particlePass<kPass>(v, sp, i, familyBondPass(v, sp, i)); });
    return;
  } else {
    if constexpr (kPass == PdForcePass::Bonds) {
      parallel_for(exec, v.bonds.count, [=] FRAC_HD(int b) { bondPass(v, sp, b); });
    } else {
      parallel_for(exec, v.bonds.count, [=] FRAC_HD(int b) { stateExtensionPass(v, b); });
      parallel_for(exec, v.particles.count, [=] FRAC_HD(int i) { dilatationPass(v, i); });
      parallel_for(exec, v.bonds.count, [=] FRAC_HD(int b) { stateBondPass(v, b); });
    }
    parallel_for(exec, v.particles.count, [=] FRAC_HD(int i) { particlePass<kPass>(v, sp, i, familySlotSum(v, i)); });
  }
}

// Forces of sp.forces' kind (the one place where the kind is chosen).
template <class Exec>
void forceStage(const Exec& exec, const PdViews& v, const PdStepParams& sp) {
  switch (sp.forces) {
    case PdForcePass::Bonds: return forcePasses<PdForcePass::Bonds>(exec, v, sp);
    case PdForcePass::Families: return forcePasses<PdForcePass::Families>(exec, v, sp);
    case PdForcePass::States: return forcePasses<PdForcePass::States>(exec, v, sp);
  }
}

// Families: every bond's broken flag and stretch from its first end (bondStateFromEnds).
template <class Exec>
void bondStateStage(const Exec& exec, const PdViews& v) {
  parallel_for(exec, v.bonds.count, [=] FRAC_HD(int b) { bondStateFromEnds(v, b); });
}

// Velocity Verlet, second half: v += dt/2 f(t + dt)/rho.
template <class Exec>
void kickStage(const Exec& exec, const PdViews& v, const PdStepParams& sp) {
  const PdParticleView p = v.particles;
  const float dt = sp.dt;
  parallel_for(exec, p.count, [=] FRAC_HD(int i) {
    const int grip = p.drivenBy ? p.drivenBy[i] : -1;
    const vec3 free = p.velocity[i] + (0.5f * dt / p.density[i]) * p.forceDensity[i];
    p.velocity[i] = grip >= 0 ? prescribedOrFree(p.driveSlide[grip], p.driveVelocity[grip], free) : free;
  });
}

// ---- the step -----------------------------------------------------------------------------------------------------

// The stages of one step in their order, for every backend. `where` is the backend's side of it:
//   views()                  the views of the state where it lives (host arrays, or device memory),
//   refreshContactList(v)    v with the contact list current, rebuilt where the state lives (when contact is on),
//   swapThresholdShifts()    the shifts the force stage just wrote become the current ones,
//   mark(k)                  before stage k of kStageNames, and mark(kStageCount) after the last (timing).
// Grips' and projectiles' inputs for this step were set before (host arrays, or the device's inputs).
constexpr int kStageCount = 4;
constexpr std::array<const char*, kStageCount> kStageNames = {"drift", "contact list", "forces", "kick"};

template <class Exec, class Where>
void stepStages(const Exec& exec, Where& where, const PdStepParams& sp) {
  PdViews v = where.views();
  where.mark(0);
  driftStage(exec, v, sp);
  where.mark(1);
  v = where.refreshContactList(v);
  where.mark(2);
  forceStage(exec, v, sp);
  where.swapThresholdShifts();
  where.mark(3);
  kickStage(exec, v, sp);
  where.mark(4);
}

// The force the particles exert on projectile k (the reaction to eq. 7's push, summed over V_i times the force
// density): partial sums over kReactionChunks strided chunks (particles c, c + chunks, ...), each in particle order, so
// that the caller's ordered sum of the partials is the same on every backend and thread count.
constexpr int kReactionChunks = 4096;

struct ProjectileReaction {
  PdViews v;
  int k;
  FRAC_HD glm::dvec3 operator()(int i) const {
    const PdParticleView& p = v.particles;
    return glm::dvec3(p.volume[i] * projectileForceDensityAt(v, k, currentPosition(p, i)));
  }
};

template <class Exec>
void projectileReactionStage(const Exec& exec, const PdViews& v, int k, glm::dvec3* partial) {
  stridedPartialSums(exec, v.particles.count, kReactionChunks, ProjectileReaction{v, k}, glm::dvec3(0.0), partial);
}

}  // namespace frac::pd
