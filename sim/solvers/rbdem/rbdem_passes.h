#pragma once
// Rod-Bonded DEM (Zhang et al.): the step's parameters and its per-item physics (one bond, one element, one
// projectile chunk), the bodies of the parallel_for stages of rbdem_solve.h and rbdem_step.h.
#include "backend/exec.h"
#include "kernels/integrate.h"
#include "kernels/rbdem_contact.h"
#include "kernels/rbdem_rod.h"
#include "kernels/rbdem_rod_product.h"
#include "solvers/bdem/bdem_step.h"
#include "solvers/rbdem/rbdem_arrays.h"

namespace frac {

struct RbdemStepParams {
  BdemStepParams base;           // dt, gravity, contact
  float kappa = 5.0f / 6.0f;     // Timoshenko shear factor of eq. 17
  float contactStiffness = 1e7f; // k_c of eq. 30 (Pa)
  float quaternionStiffness = 1.0f;  // k_q of eq. 31 (J), the paper's 1
  float tolerance = 2e-5f;       // PCG: stop when the preconditioned residual fell by this factor
  int maxIterations = 500;
  RodFracture fracture = RodFracture::Bond;
  float hydrostaticStrength = 4e6f;  // sigma_c of eq. 32 (Pa)
  RodPreconditioner preconditioner = RodPreconditioner::Block;
};

}  // namespace frac

namespace frac::rbdem {

// ---- per-item physics ------------------------------------------------------------------------------------------

// Elements whose 3 position unknowns the step solves for: not kinematic (prescribed), not a projectile waiting for
// launch. Their 4 quaternion unknowns are solved for too, and those of pins' and rollers' elements (kinematics that
// prescribe position only, or two coordinates of it: turnsFreely), with a roller's coordinate along its axis.
FRAC_HD inline bool isFree(const BdemElementView& e, int i) {
  return e.invMass[i] > 0.0f && !(e.flags[i] & (kFlagKinematic | kFlagInactive));
}
FRAC_HD inline bool turnsFree(const BdemElementView& e, int i) {
  return isFree(e, i) || ((e.flags[i] & kFlagKinematic) && turnsFreely(e.flags[i]));
}
// Which of element i's position unknowns the step solves for (1) or leaves at their prescribed value (0).
FRAC_HD inline vec3 solvedAxes(const BdemElementView& e, int i) {
  return isFree(e, i) ? vec3(1.0f) : slides(e.flags[i]) ? slideMask(e.flags[i]) : vec3(0.0f);
}
// v on the solved axes, 0 on the prescribed ones (a select, so no 0 * inf): the step moves no prescribed coordinate.
FRAC_HD inline vec3 onAxes(const vec3& axes, const vec3& v) { return prescribedOrFree(axes, vec3(0.0f), v); }

FRAC_HD inline RodStiffness bondRodStiffness(const BdemViews& v, const RbdemStepParams& p, int b) {
  const BdemMaterial& m = v.materials[v.bonds.material[b]];
  const float scale = v.bonds.stiffnessScale[b];
  return rodStiffness(m.young * scale, m.shear * scale, p.kappa, v.rods.rest[b]);
}

// Bond b at the current state: strains, Jacobians and gradient (eq. 26-27), breakage by eq. 24-25 when
// `checkBreakage` (Algorithm 1 lines 8-9) and, for the solve (`blocks`), the Jacobians' words for the CG's products
// (the CG's products and the preconditioner's blocks read them), and for the Jacobi preconditioner the Hessian's
// diagonal. A broken bond contributes nothing.
FRAC_HD inline void rodLinearisePass(const BdemViews& v, const RbdemStepParams& p, int b, bool checkBreakage,
                                     bool blocks) {
  const BdemBondView& bv = v.bonds;
  const RbdemRodView& rv = v.rods;
  const BdemElementView& e = v.elements;
  const int i = bv.first[b], j = bv.second[b];
  RodDofs zero{vec3(0.0f), glm::vec4(0.0f), vec3(0.0f), glm::vec4(0.0f)};
  if (bv.broken[b]) {
    rv.out[b] = zero;
    rv.diagonal[b] = zero;
    return;
  }
  RodJacobian jac;
  const RodStrain s = rodStrain(separation(e, i, j), e.orientation[i], e.orientation[j], rv.rest[b], &jac);
  const RodStiffness k = bondRodStiffness(v, p, b);
  if (checkBreakage && p.fracture == RodFracture::Bond) {
    const RodStress stress = rodStress(s, jac, k, e.orientation[i], e.orientation[j], rv.rest[b]);
    const BondCoefficients& c = bv.coefficients[b];
    if (stress.sigma > c.tensileStrength || stress.tau > c.shearStrength) {
      bv.broken[b] = kBondBroken;
      rv.out[b] = zero;
      rv.diagonal[b] = zero;
      return;
    }
  }
  rv.out[b] = rodGradient(s, jac, k);
  if (!blocks) return;  // the forces after the update and the explicit step's: no solve reads the rest
  storeRodWords(rv.jacobian, b, jac, k);
  if (p.preconditioner == RodPreconditioner::Jacobi) rv.diagonal[b] = rodHessianDiagonal(jac, k);
}

// Tensile hydrostatic stress of element i (eq. 32): trace / 3 of (1 / 4V) sum_j (x_ij F_i + F_i x_ij), with F_i the
// stretch-shear force of each intact bond (the x part of its gradient, negated).
FRAC_HD inline float hydrostaticStress(const BdemViews& v, int i) {
  const BdemBondView& bv = v.bonds;
  const BdemElementView& e = v.elements;
  float sum = 0.0f;
  for (int k = bv.elementStart[i]; k < bv.elementStart[i + 1]; ++k) {
    const int entry = bv.elementEntry[k], b = entry >> 1;
    if (bv.broken[b]) continue;
    const int j = bv.elementNeighbor[k];
    const vec3 force = (entry & 1) ? -v.rods.out[b].xJ : -v.rods.out[b].xI;
    sum += glm::dot(separation(e, i, j), force);
  }
  const float r = e.radius[i], volume = 4.0f / 3.0f * kPi * r * r * r;
  return sum / (6.0f * volume);  // trace / 3 = (2 sum x.F) / (4 V) / 3
}

// The touching unbonded partners of element i (Verlet list, partners of broken bonds, projectiles, planes) with the
// barrier of eq. 30: f(partner, normal from the partner to i, BarrierTerms). Partners come in index order (as BDEM's
// TouchingPartners give them), then projectiles, then planes. Grid elements only; projectiles use the chunk passes.
template <class F>
FRAC_HD inline void forEachBarrier(const BdemViews& v, const RbdemStepParams& p, int i, F&& f) {
  const BdemElementView& e = v.elements;
  const BdemBondView& bv = v.bonds;
  if (!p.base.contact || (e.flags[i] & kFlagInactive)) return;
  const vec3 pi = e.position[i];
  const float ri = e.radius[i];
  const bool kinematicI = e.flags[i] & kFlagKinematic;
  auto evaluate = [&](int j) {
    const vec3 d = separation(e, j, i);
    const float dist = sqrtf(glm::dot(d, d)), dHat = ri + e.radius[j];
    if (dist >= dHat || dist <= 0.0f) return;
    if (kinematicI && (e.flags[j] & kFlagKinematic)) return;
    f(j, d / dist, barrier(dist, dHat, barrierStiffness(p.contactStiffness, ri, e.radius[j])));
  };
  bdem::TouchingPartners<32> touching;
  auto consider = [&](int j) {
    const vec3 d = pi - e.position[j];
    const float rs = ri + e.radius[j];
    if (glm::dot(d, d) < rs * rs && !touching.insert(j)) evaluate(j);
  };
  if (!(e.flags[i] & kFlagProjectile)) {
    for (int k = v.neighborStart[i]; k < v.neighborStart[i + 1]; ++k) consider(v.neighborList[k]);
    for (int k = bv.elementStart[i]; k < bv.elementStart[i + 1]; ++k)
      if (bv.broken[bv.elementEntry[k] >> 1] != kBondIntact) consider(bv.elementNeighbor[k]);
    for (int k = 0; k < touching.count; ++k) evaluate(touching.index[k]);
  }
  for (int k = 0; k < v.projectileCount; ++k) {
    const int j = v.projectiles[k];
    if (j != i && !(e.flags[j] & kFlagInactive)) evaluate(j);
  }
  for (int k = 0; k < v.planes.count; ++k) {
    const vec3 n = v.planes.normal[k];
    const float dist = glm::dot(offsetFrom(e, i, v.planes.point[k]), n);
    if (dist < ri && dist > 0.0f && e.invMass[i] > 0.0f)
      f(kPlanePartnerBase - k, n, barrier(dist, ri, barrierStiffness(p.contactStiffness, ri, ri)));
  }
}

// Sum over element i's intact bonds of their per-bond result (out or diagonal), its x and q parts.
FRAC_HD inline void gatherBonds(const BdemViews& v, int i, const RodDofs* perBond, vec3& x, glm::vec4& q) {
  const BdemBondView& bv = v.bonds;
  for (int k = bv.elementStart[i]; k < bv.elementStart[i + 1]; ++k) {
    const int entry = bv.elementEntry[k], b = entry >> 1;
    if (bv.broken[b]) continue;
    const RodDofs& d = perBond[b];
    if (entry & 1) {
      x += d.xJ;
      q += d.qJ;
    } else {
      x += d.xI;
      q += d.qI;
    }
  }
}

// Element i's force and torque at the current state (bonds, barriers, gravity), after rodLinearisePass: F = -dE/dx,
// T from the torque parameter (eq. 28). With `blocks`, also keeps the barrier Hessians in i's contact slots and
// returns their diagonal in `contactDiagonal`, for the implicit solve.
FRAC_HD inline void elementForcePass(const BdemViews& v, const RbdemStepParams& p, int i, bool blocks,
                                     vec3* contactDiagonal) {
  const BdemElementView& e = v.elements;
  const RbdemSolveView& sv = v.solve;
  vec3 gradX(0.0f);
  glm::vec4 gradQ(0.0f);
  gatherBonds(v, i, v.rods.out, gradX, gradQ);
  vec3 diag(0.0f);
  int slot = 0;
  const int slots = v.contacts.slots;
  forEachBarrier(v, p, i, [&](int partner, const vec3& n, const BarrierTerms& t) {
    gradX += t.slope * n;
    if (!blocks) return;
    diag += t.curvature * n * n;
    if (slot < slots) {
      sv.contactPartner[i * slots + slot] = partner;
      sv.contactBlock[i * slots + slot] = BarrierBlock{n, t.curvature};
      ++slot;
    }
  });
  if (blocks) {
    for (int s = slot; s < slots; ++s) sv.contactPartner[i * slots + s] = kNoPartner;
    *contactDiagonal = diag;
  }
  const vec3 weight = e.invMass[i] > 0.0f ? p.base.gravity / e.invMass[i] : vec3(0.0f);
  e.force[i] = weight - gradX;
  sv.torqueParameter[i] = -gradQ;
  e.torque[i] = torqueFromParameter(-gradQ, e.orientation[i]);
}

// Projectile k's barriers with the grid elements of chunk c (item = k kProjectileChunks + c): gradient and diagonal
// (`direction` null) or the Hessian times the direction.
FRAC_HD inline void projectileChunkPass(const BdemViews& v, const RbdemStepParams& p, int item, const vec3* direction) {
  const BdemElementView& e = v.elements;
  const int i = v.projectiles[item / kProjectileChunks];
  RodProjectilePartial sum{vec3(0.0f), vec3(0.0f)};
  if (p.base.contact && !(e.flags[i] & kFlagInactive)) {
    const float ri = e.radius[i];
    for (int s = item % kProjectileChunks; s < v.gridElementCount; s += kProjectileChunks) {
      const int j = v.gridElements[s];
      const vec3 d = separation(e, j, i);
      const float dist2 = glm::dot(d, d), dHat = ri + e.radius[j];
      if (dist2 >= dHat * dHat || dist2 <= 0.0f) continue;
      const float dist = sqrtf(dist2);
      const vec3 n = d / dist;
      const BarrierTerms t = barrier(dist, dHat, barrierStiffness(p.contactStiffness, ri, e.radius[j]));
      if (direction) {
        sum.value += BarrierBlock{n, t.curvature}.times(direction[i] - direction[j]);
      } else {
        sum.value += t.slope * n;
        sum.diagonal += t.curvature * n * n;
      }
    }
  }
  v.solve.projectilePartials[item] = sum;
}

FRAC_HD inline RodProjectilePartial projectileSum(const BdemViews& v, int s) {
  RodProjectilePartial total{vec3(0.0f), vec3(0.0f)};
  for (int c = 0; c < kProjectileChunks; ++c) {
    const RodProjectilePartial& part = v.solve.projectilePartials[s * kProjectileChunks + c];
    total.value += part.value;
    total.diagonal += part.diagonal;
  }
  return total;
}

}  // namespace frac::rbdem
