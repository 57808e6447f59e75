#pragma once
// One step of bond-based peridynamics (Levine et al. 2014, the PMB model of Silling & Askari 2005 and LAMMPS
// peri/pmb), or of state-based elastoplastic peridynamics (Chen et al. 2018; its bond passes in pd_state_passes.h)
// on the same particles, families, contacts and projectiles, as a sequence of parallel_for over plain views: velocity
// Verlet (Levine sec. 4), the bonds (stretch, breakage, eq. 2-5) and a per-particle pass (bond forces eq. 3, contact
// eq. 6 or LAMMPS', projectiles eq. 7 or LAMMPS' indenter, gravity). Instantiated for the CPU in pd_bond_solver.cpp
// and for CUDA in pd_bond_step_cuda.cu.
// Every force is summed per particle: no atomics, results independent of the thread count.
#include "kernels/pd_bond.h"
#include "solvers/pd_bond/pd_bond_views.h"
#include "solvers/pd_bond/pd_family_slots.h"
#include "solvers/pd_bond/pd_state_passes.h"
#include "solvers/solver_stats.h"

namespace frac::pd {

FRAC_HD inline vec3 currentPosition(const PdParticleView& p, int i) { return p.reference[i] + p.displacement[i]; }

// One bond seen from particle i with neighbour j (Levine eq. 2-5): its stretch from the displacements, breakage when
// the stretch exceeds the bond's threshold s0 shifted by eq. 5 (the smaller shift of the two particles, from the
// previous step, as LAMMPS does), and the bond's force on i of eq. 3 (per unit volume of j). A bond that breaks
// carries nothing from this step on (Levine: removed, then the remaining springs act) or, with forceInBreakingStep,
// acts once more in this step (LAMMPS: force first, then the break test). The bond's material is that of its first
// (lower-numbered) particle; lower and higher are i and j in index order. Both ends get the same bits: xi, eta and
// the current bond vector change sign exactly, dot products do not change, and every other input is taken by
// (lower, higher) index, so the stretch, the break and the force's magnitude agree and the forces are exactly
// opposite.
struct PmbBond {
  vec3 force;     // c s beta (x_j - x_i) / |x_j - x_i|, zero when the bond does not act
  float stretch;  // kBrokenStretch once broken
  bool broken;
};

FRAC_HD inline PmbBond pmbBond(const PdViews& v, const PdStepParams& sp, int i, int j, int lower, int higher,
                               float xiLength, float beta, float thresholdScale, bool wasBroken) {
  const PdParticleView& p = v.particles;
  const vec3 xi = p.reference[j] - p.reference[i];
  const vec3 eta = p.displacement[j] - p.displacement[i];
  float length;
  const float s = pmbStretch(xi, xiLength, eta, length);
  const PdMaterial& m = v.materials[p.material[lower]];
  const float shiftLower = p.thresholdShift[lower], shiftHigher = p.thresholdShift[higher];
  const float threshold = m.criticalStretch * thresholdScale + (shiftLower < shiftHigher ? shiftLower : shiftHigher);
  const bool broken = wasBroken || s > threshold;
  const bool acts = sp.forceInBreakingStep ? !wasBroken : !broken;
  const float scale = (!acts || length <= 0.0f) ? 0.0f : m.micromodulus * s * beta / length;
  return PmbBond{scale * (xi + eta), broken ? kBrokenStretch : s, broken};
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

// pd-bond on the CPU: each bond computed once (pmbBond from its first end) into both ends' family slots, for the
// gather (familySlotSum). Written without branches, so that GCC vectorises the loop over bonds (8 per AVX2 op).
FRAC_HD inline void bondPass(const PdViews& v, const PdStepParams& sp, int b) {
  const PdBondView& bv = v.bonds;
  const int i = bv.first[b], j = bv.second[b];  // i < j
  const PmbBond bond = pmbBond(v, sp, i, j, i, j, bv.xiLength[b], bv.beta[b], bv.thresholdScale[b], bv.broken[b] != 0);
  bv.broken[b] = bond.broken;
  storeBond(v, b, bond.force, bond.stretch);
}

// pd-bond on CUDA (PdStepParams::familyPass): every bond of i's family computed here (pmbBond), in family order, the
// break kept at this end's slot. Each bond is computed at both ends, twice the arithmetic of bondPass, but nothing is
// stored and gathered: a warp reads its 32 families' constants side by side (one coalesced load per entry) and the
// neighbours' positions, which on a lattice are mostly neighbours too. The sums have bondPass + familySlotSum's bits.
FRAC_HD inline FamilySum familyBondPass(const PdViews& v, const PdStepParams& sp, int i) {
  const PdBondView& bv = v.bonds;
  FamilySum sum;
  sum.family = bv.particleStart[i + 1] - bv.particleStart[i];
  for (int k = 0, at = familySlot(bv, i, 0); k < sum.family; ++k, at += kSlotGroup) {
    const FamilyBond e = bv.familyBond[at];
    const int j = e.neighbor, lower = i < j ? i : j, higher = i < j ? j : i;
    const PmbBond bond =
        pmbBond(v, sp, i, j, lower, higher, e.xiLength, e.beta, e.thresholdScale, bv.endBroken[at] != 0);
    bv.endBroken[at] = bond.broken;
    sum.add(v.particles.volume[j] * bond.force, bond.stretch);
  }
  return sum;
}

// The family's slots, left by bondPass or by the bond passes of pd_state_passes.h, in order.
FRAC_HD inline FamilySum familySlotSum(const PdViews& v, int i) {
  const PdBondView& bv = v.bonds;
  FamilySum sum;
  sum.family = bv.particleStart[i + 1] - bv.particleStart[i];
  for (int k = 0, at = familySlot(bv, i, 0); k < sum.family; ++k, at += kSlotGroup) {
    const FamilySlot slot = bv.slot[at];
    sum.add(slot.force, slot.stretch);
  }
  return sum;
}

// After family passes, pd-bond's bond state as the rest of the solver reads it (frames, statistics, fragments, the
// host copy), from the first end's slot: broken, and the stretch of an intact bond at the current displacements
// (what the last pass saw).
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

// Short-range contact of i with j as force density on i: Levine eq. 6, f = K_c (d - lambda/2)^2 (x_i - x_j)/d for
// d < lambda/2 (a force, divided by V_i), or LAMMPS peri/pmb: f = -15 c V_j (d - d_ij)/delta (x_i - x_j)/d for
// d < d_ij = min(0.9 |X_i - X_j|, 1.35 lambda).
FRAC_HD inline vec3 contactForceDensity(const PdViews& v, const PdStepParams& sp, int i, int j, const vec3& xI) {
  const PdParticleView& p = v.particles;
  const vec3 d = xI - currentPosition(p, j);
  const float dist2 = glm::dot(d, d);
  if (sp.contact == PdContact::Levine) {
    const float reach = 0.5f * sp.spacing;
    if (dist2 >= reach * reach || dist2 <= 0.0f) return vec3(0.0f);
    const float dist = sqrtf(dist2), gap = dist - reach;
    return (sp.contactStiffness * gap * gap / (dist * p.volume[i])) * d;
  }
  const vec3 d0 = p.reference[i] - p.reference[j];
  const float r0 = sqrtf(glm::dot(d0, d0));
  const float reach = 0.9f * r0 < 1.35f * sp.spacing ? 0.9f * r0 : 1.35f * sp.spacing;
  if (dist2 >= reach * reach || dist2 <= 0.0f) return vec3(0.0f);
  const float dist = sqrtf(dist2);
  const float c = v.materials[p.material[i]].micromodulus;
  return (-15.0f * c * p.volume[j] * (dist - reach) / (sp.horizon * dist)) * d;
}

// Projectile k on particle i as force density: Levine eq. 7, K_S (16 (d - 3r/4)(d - 3r/2)^2)^(2/3) for d in
// [3r/4, 3r/2] (peak K_S r^2 at d = r), along the normalised sum of the projectile's direction of motion and the
// outward direction, or LAMMPS fix indent sphere: K (R - d)^2 outward for d < R. Both act on force densities, as
// LAMMPS' indenter does on peri atoms (the paper leaves the unit of K_S open; as a force on a particle its 1e10 to
// 1e20 would give accelerations beyond any scale).
FRAC_HD inline vec3 projectileForceDensity(const PdViews& v, int k, const vec3& xI) {
  const PdProjectileView& pr = v.projectiles;
  const vec3 d = xI - pr.centre[k];
  const float dist = sqrtf(glm::dot(d, d));
  const float r = pr.radius[k];
  if (dist <= 0.0f) return vec3(0.0f);
  const vec3 outward = d / dist;
  if (pr.model[k] == PdProjectileModel::Indenter) {
    if (dist >= r) return vec3(0.0f);
    return (pr.forceConstant[k] * (r - dist) * (r - dist)) * outward;
  }
  if (dist < 0.75f * r || dist > 1.5f * r) return vec3(0.0f);
  const float far = dist - 1.5f * r;
  const float inner = 16.0f * (dist - 0.75f * r) * far * far;
  const float magnitude = pr.forceConstant[k] * cubeRoot(inner * inner);
  const float speed = sqrtf(glm::dot(pr.velocity[k], pr.velocity[k]));
  vec3 direction = speed > 0.0f ? pr.velocity[k] / speed + outward : outward;
  const float len = sqrtf(glm::dot(direction, direction));
  direction = len > 0.0f ? direction / len : outward;
  return magnitude * direction;
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

// Particle pass: the family's sum (eq. 3), the threshold shift of eq. 5 for the next step from its smallest stretch,
// and contacts, projectiles and gravity.
FRAC_HD inline void particlePass(const PdViews& v, const PdStepParams& sp, int i, const FamilySum& family) {
  const PdParticleView& p = v.particles;
  vec3 f = family.force;
  const float minStretch = family.minStretch;
  const float alpha = v.materials[p.material[i]].alpha;
  const float limited = sp.lammpsStrengthening ? minStretch : (minStretch < 0.0f ? minStretch : 0.0f);
  float* shift = p.nextThresholdShift ? p.nextThresholdShift : p.thresholdShift;
  shift[i] = minStretch == kBrokenStretch ? 0.0f : -alpha * limited;
  if (p.damage) {  // Chen eq. 19's phi for the next step's fracture test
    p.damage[i] = family.family > 0 ? 1.0f - float(family.intact) / float(family.family) : 0.0f;
  }
  if (p.externalForce) f += p.externalForce[i];
  f -= (p.density[i] * sp.damping) * p.velocity[i];
  const vec3 xI = currentPosition(p, i);
  if (sp.contact != PdContact::Off && v.neighborStart)
    for (int k = v.neighborStart[i]; k < v.neighborStart[i + 1]; ++k)
      f += contactForceDensity(v, sp, i, v.neighborList[k], xI);
  for (int k = 0; k < v.projectiles.count; ++k)
    if (v.projectiles.active[k]) f += projectileForceDensity(v, k, xI);
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
    vec3 vel = grip >= 0 ? p.driveVelocity[grip] : p.velocity[i] + (0.5f * dt / p.density[i]) * p.forceDensity[i];
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

// Forces: pd-bond, a bond pass and the gather of the slots or (familyPass) one pass over the families that leaves the
// next threshold shifts in nextThresholdShift for the caller to swap in; pd-state, extensions, dilatations and the end
// force scalars per bond, then the gather.
template <class Exec>
void forceStage(const Exec& exec, const PdViews& v, const PdStepParams& sp) {
  if (sp.model == PdModel::Bond && sp.familyPass) {
    parallel_for(exec, v.particles.count, [=] FRAC_HD(int i) { particlePass(v, sp, i, familyBondPass(v, sp, i)); });
    return;
  }
  if (sp.model == PdModel::Bond) {
    parallel_for(exec, v.bonds.count, [=] FRAC_HD(int b) { bondPass(v, sp, b); });
  } else {
    parallel_for(exec, v.bonds.count, [=] FRAC_HD(int b) { stateExtensionPass(v, b); });
    parallel_for(exec, v.particles.count, [=] FRAC_HD(int i) { dilatationPass(v, i); });
    parallel_for(exec, v.bonds.count, [=] FRAC_HD(int b) { stateBondPass(v, b); });
  }
  parallel_for(exec, v.particles.count, [=] FRAC_HD(int i) { particlePass(v, sp, i, familySlotSum(v, i)); });
}

// pd-bond after family passes: every bond's broken flag and stretch from its first end (bondStateFromEnds).
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
    p.velocity[i] = grip >= 0 ? p.driveVelocity[grip] : p.velocity[i] + (0.5f * dt / p.density[i]) * p.forceDensity[i];
  });
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
    return glm::dvec3(p.volume[i] * projectileForceDensity(v, k, currentPosition(p, i)));
  }
};

template <class Exec>
void projectileReactionStage(const Exec& exec, const PdViews& v, int k, glm::dvec3* partial) {
  stridedPartialSums(exec, v.particles.count, kReactionChunks, ProjectileReaction{v, k}, glm::dvec3(0.0), partial);
}

}  // namespace frac::pd
