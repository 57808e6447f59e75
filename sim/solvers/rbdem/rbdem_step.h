#pragma once
// One Rod-Bonded DEM time step (Zhang et al.) as parallel_for stages over BDEM's views plus the rod and solve groups
// (rbdem_arrays.h): the implicit step of Algorithm 1 (eq. 12 linearised once, Gauss-Newton Hessian, Jacobi PCG) and
// the explicit variant (the paper's Ours_exp: velocity Verlet with the rod forces). Their stage orders are written
// once here (implicitStages, explicitStages). Every sum over an element's bonds and contacts is gathered per element
// in a fixed order and every CG dot product is summed in a fixed tree, so results do not depend on the thread count
// or the backend.
#include "backend/exec.h"
#include "kernels/integrate.h"
#include "kernels/rbdem_contact.h"
#include "kernels/rbdem_rod.h"
#include "kernels/rbdem_rod_product.h"
#include "solvers/bdem/bdem_step.h"
#include "solvers/fixed_tree_sum.h"

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
// and the Hessian diagonal. A broken bond contributes nothing.
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
  rv.diagonal[b] = rodHessianDiagonal(jac, k);
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

// ---- the shared stages -------------------------------------------------------------------------------------------

// Bonds linearised at the current state, then every element's force and torque (and, for the solve, its barrier
// blocks and their diagonal, kept in inverseDiagonalX until the solve's first stage turns it into the preconditioner).
template <class Exec>
void forceStage(const Exec& exec, const BdemViews& v, const RbdemStepParams& p, bool checkBreakage, bool blocks) {
  parallel_for(exec, v.bonds.count, [=] FRAC_HD(int b) { rodLinearisePass(v, p, b, checkBreakage, blocks); });
  if (checkBreakage && p.fracture == RodFracture::Hydrostatic) {
    // eq. 32: every bond of an element whose tensile hydrostatic stress exceeds the threshold breaks
    const BdemElementView e = v.elements;
    parallel_for(exec, e.count, [=] FRAC_HD(int i) { v.solve.hydrostatic[i] = hydrostaticStress(v, i); });
    parallel_for(exec, v.bonds.count, [=] FRAC_HD(int b) {
      if (v.bonds.broken[b]) return;
      const int i = v.bonds.first[b], j = v.bonds.second[b];
      if (v.solve.hydrostatic[i] > p.hydrostaticStrength || v.solve.hydrostatic[j] > p.hydrostaticStrength) {
        v.bonds.broken[b] = kBondBroken;
        v.rods.out[b] = RodDofs{vec3(0.0f), glm::vec4(0.0f), vec3(0.0f), glm::vec4(0.0f)};
        v.rods.diagonal[b] = v.rods.out[b];
      }
    });
  }
  parallel_for(exec, v.gridElementCount, [=] FRAC_HD(int s) {
    const int i = v.gridElements[s];
    elementForcePass(v, p, i, blocks, v.solve.inverseDiagonalX ? &v.solve.inverseDiagonalX[i] : nullptr);
  });
  parallel_for(exec, v.projectileCount * kProjectileChunks,
               [=] FRAC_HD(int item) { projectileChunkPass(v, p, item, nullptr); });
  parallel_for(exec, v.projectileCount, [=] FRAC_HD(int s) {
    const int i = v.projectiles[s];
    vec3 diag(0.0f);
    elementForcePass(v, p, i, blocks, &diag);  // projectiles and planes
    const RodProjectilePartial grid = projectileSum(v, s);
    if (!(v.elements.flags[i] & kFlagInactive)) v.elements.force[i] -= grid.value;
    if (blocks) v.solve.inverseDiagonalX[i] = diag + grid.diagonal;
  });
}

// ---- the implicit step (Algorithm 1) -----------------------------------------------------------------------------

// Lines 2-3: x* = x + h v, q* = normalize(q + h/2 [0, w] q); the start of the step kept for lines 10-11.
template <class Exec>
void predictStage(const Exec& exec, const BdemViews& v, const RbdemStepParams& p) {
  const BdemElementView e = v.elements;
  const RbdemSolveView sv = v.solve;
  const float h = p.base.dt;
  parallel_for(exec, e.count, [=] FRAC_HD(int i) {
    sv.startPosition[i] = e.position[i];
    sv.startPositionLow[i] = e.positionLow[i];
    sv.startOrientation[i] = e.orientation[i];
    if (!turnsFree(e, i)) return;
    if (isFree(e, i))
      addCompensated(e.position[i], e.positionLow[i], h * e.velocity[i]);
    else if (slides(e.flags[i]))
      addCompensated(e.position[i], e.positionLow[i], onAxes(slideMask(e.flags[i]), h * e.velocity[i]));
    const quat spin(0.0f, e.angularVelocity[i].x, e.angularVelocity[i].y, e.angularVelocity[i].z);
    e.orientation[i] = normalized(fromWxyz(wxyz(e.orientation[i]) + (0.5f * h) * wxyz(mul(spin, e.orientation[i]))));
  });
}

// The residual r = -grad E_total at the prediction (eq. 12: inertia terms, eq. 31, bonds, barriers, gravity), the
// Jacobi preconditioner, and the CG's start: step 0, z = M^-1 r, p = z. Fixed unknowns get zeros throughout (all 7
// of a clamp's element, the 3 of position of a pin's, 2 of a roller's).
template <class Exec>
void residualStage(const Exec& exec, const BdemViews& v, const RbdemStepParams& p) {
  const BdemElementView e = v.elements;
  const RbdemSolveView sv = v.solve;
  const float h = p.base.dt, kq = p.quaternionStiffness;
  parallel_for(exec, e.count, [=] FRAC_HD(int i) {
    const vec3 zero3(0.0f);
    const glm::vec4 zero4(0.0f);
    sv.stepX[i] = zero3;
    sv.stepQ[i] = zero4;
    const vec3 axes = solvedAxes(e, i);
    const bool moves = axes != zero3;
    if (!moves) sv.residualX[i] = sv.preconditionedX[i] = sv.directionX[i] = sv.inverseDiagonalX[i] = zero3;
    if (!turnsFree(e, i)) {
      sv.residualQ[i] = sv.preconditionedQ[i] = sv.directionQ[i] = sv.inverseDiagonalQ[i] = zero4;
      return;
    }
    const float mass = moves ? 1.0f / e.invMass[i] : 0.0f, inertia = 1.0f / e.invInertia[i];
    const float linear = mass / (h * h), angular = 4.0f * inertia / (h * h);
    // rotational inertia (supplement eq. 6): (2/h^2) |Im(q conj(q_n)) - h/2 w|^2_I, gradient at q*
    const glm::vec4 qn = wxyz(sv.startOrientation[i]), q = wxyz(e.orientation[i]);
    const quat rel = mul(e.orientation[i], conjugate(sv.startOrientation[i]));
    const vec3 a = vec3(rel.x, rel.y, rel.z) - 0.5f * h * e.angularVelocity[i];
    const glm::vec4 inertiaGrad = angular * wxyz(mul(quat(0.0f, a.x, a.y, a.z), sv.startOrientation[i]));
    const float qNorm = sqrtf(glm::dot(q, q));
    const glm::vec4 normGrad = kq * (qNorm - 1.0f) / qNorm * q;  // eq. 31
    // the force pass left -dE/dx (with gravity) in force and -dE/dq in torqueParameter
    const vec3 rX = e.force[i];  // x* = s: the linear inertia term has no gradient there
    const glm::vec4 rQ = sv.torqueParameter[i] - inertiaGrad - normGrad;
    glm::vec4 diagQ(0.0f);
    vec3 diagX(0.0f);
    gatherBonds(v, i, v.rods.diagonal, diagX, diagQ);
    diagX += vec3(linear) + sv.inverseDiagonalX[i];  // barrier diagonal from the force pass
    diagQ += angular * (glm::vec4(1.0f) - qn * qn) + (kq / (qNorm * qNorm)) * q * q;
    const vec3 invX = 1.0f / diagX;
    const glm::vec4 invQ = 1.0f / diagQ;
    sv.inverseDiagonalQ[i] = invQ;
    sv.residualQ[i] = rQ;
    sv.preconditionedQ[i] = sv.directionQ[i] = invQ * rQ;
    if (!moves) return;
    sv.inverseDiagonalX[i] = onAxes(axes, invX);
    sv.residualX[i] = onAxes(axes, rX);
    sv.preconditionedX[i] = sv.directionX[i] = sv.inverseDiagonalX[i] * sv.residualX[i];
  });
}

// Every intact bond's Hessian times the CG direction into its slot (rbdem_rod_product.h), one bond per index.
template <class Exec>
void rodProducts(const Exec& exec, const BdemViews& v, const CgState* cg) {
  const RbdemSolveView sv = v.solve;
  parallel_for(exec, v.bonds.count, [=] FRAC_HD(int b) {
    if (v.bonds.broken[b] || !cg->running) return;
    const int i = v.bonds.first[b], j = v.bonds.second[b];
    float in[14], out[14];
    dofsToArray(RodDofs{sv.directionX[i], sv.directionQ[i], sv.directionX[j], sv.directionQ[j]}, in);
    const RodWordBlock& block = v.rods.jacobian[b / kRodWordLanes];
    const int lane = b % kRodWordLanes;
    rodProductWords<float>([&](int w) { return block.word[w][lane]; }, in, out);
    v.rods.out[b] = dofsFromArray(out);
  });
}
// The CPU's: 8 bonds a vector instruction (rbdem_lanes.cpp), the same words and bits.
void rodProductsLanes(const CpuExec& exec, const BdemViews& v);
inline void rodProducts(const CpuExec& exec, const BdemViews& v, const CgState* cg) {
  if (cg->running) rodProductsLanes(exec, v);
}

// Element i's row of the Hessian times the CG direction, after the bonds' and projectiles' passes (hessianStage): the
// inertia terms, eq. 31, its bonds and its barrier blocks (projectiles: their grid barriers from the chunk partials).
FRAC_HD inline void elementProductPass(const BdemViews& v, const RbdemStepParams& p, int i) {
  const RbdemSolveView& sv = v.solve;
  const BdemElementView& e = v.elements;
  if (!turnsFree(e, i)) {
    sv.productX[i] = vec3(0.0f);
    sv.productQ[i] = glm::vec4(0.0f);
    return;
  }
  const vec3 axes = solvedAxes(e, i);
  const bool moves = axes != vec3(0.0f);
  const float h = p.base.dt, kq = p.quaternionStiffness;
  const int slots = v.contacts.slots;
  const float mass = moves ? 1.0f / e.invMass[i] : 0.0f, inertia = 1.0f / e.invInertia[i];
  const vec3 px = sv.directionX[i];
  const glm::vec4 pq = sv.directionQ[i], qn = wxyz(sv.startOrientation[i]), q = wxyz(e.orientation[i]);
  vec3 ax = (mass / (h * h)) * px;
  glm::vec4 aq = (4.0f * inertia / (h * h)) * (pq - glm::dot(qn, pq) * qn) +
                 (kq * glm::dot(q, pq) / glm::dot(q, q)) * q;
  gatherBonds(v, i, v.rods.out, ax, aq);
  for (int s = 0; s < slots; ++s) {
    const int partner = sv.contactPartner[i * slots + s];
    if (partner == kNoPartner) break;
    const vec3 other = partner >= 0 ? sv.directionX[partner] : vec3(0.0f);
    ax += sv.contactBlock[i * slots + s].times(px - other);
  }
  if (e.flags[i] & kFlagProjectile) {
    for (int k = 0; k < v.projectileCount; ++k)
      if (v.projectiles[k] == i) ax += projectileSum(v, k).value;
  }
  sv.productX[i] = onAxes(axes, ax);  // a pin's or roller's element: the prescribed coordinates stay
  sv.productQ[i] = aq;
}

// Hessian times the CG direction, the passes before the elements' (elementProductPass): bonds into their slots, then
// the projectiles' barriers with the grid elements in chunks.
template <class Exec>
void hessianStage(const Exec& exec, const BdemViews& v, const RbdemStepParams& p) {
  const RbdemSolveView sv = v.solve;
  const CgState* cg = sv.cg;  // a solve that has stopped skips the iterations queued after it
  rodProducts(exec, v, cg);
  parallel_for(exec, v.projectileCount * kProjectileChunks,
               [=] FRAC_HD(int item) {
                 if (cg->running) projectileChunkPass(v, p, item, sv.directionX);
               });
}

FRAC_HD inline float dot7(const vec3& ax, const glm::vec4& aq, const vec3& bx, const glm::vec4& bq) {
  return glm::dot(ax, bx) + glm::dot(aq, bq);
}

// The solve (line 5): Jacobi-preconditioned CG on H d = r, its scalars in the solve group's CgState, its dot products
// summed in a fixed tree (fixed_tree_sum.h) where the vectors are. The host only queues iterations and reads the
// CgState every `where.cgBatch()` iterations (the CPU: every one); kernels of iterations queued after the stop find
// CgState::running false and do nothing, so every backend takes the same iterations and the same bits. Returns the
// iterations.
template <class Exec, class Where>
int conjugateGradient(const Exec& exec, Where& where, const BdemViews& v, const RbdemStepParams& p) {
  const RbdemSolveView sv = v.solve;
  CgState* cg = sv.cg;
  const int n = v.elements.count, maxIterations = p.maxIterations;
  const double tolerance2 = double(p.tolerance) * double(p.tolerance);
  auto always = [] FRAC_HD() { return true; };
  auto running = [=] FRAC_HD() { return cg->running != 0; };
  auto rz = [=] FRAC_HD(int i) {
    return dot7(sv.residualX[i], sv.residualQ[i], sv.preconditionedX[i], sv.preconditionedQ[i]);
  };
  treeSum(exec, n, sv.partials, always, rz, [=] FRAC_HD(double first) {
    cg->rz = first;
    cg->stop = tolerance2 * first;
    cg->iterations = 0;
    cg->running = 0 < maxIterations && first > cg->stop && first > 0.0;
  });
  const int batch = where.cgBatch();
  for (int k = 0; k < maxIterations; ++k) {
    if (k % batch == 0 && !where.cgState().running) break;
    if (k > 0) {  // the last iteration's new direction (beta was taken with its r . z)
      parallel_for(exec, n, [=] FRAC_HD(int i) {
        if (!cg->running) return;
        const float beta = cg->beta;
        sv.directionX[i] = sv.preconditionedX[i] + beta * sv.directionX[i];
        sv.directionQ[i] = sv.preconditionedQ[i] + beta * sv.directionQ[i];
      });
    }
    hessianStage(exec, v, p);
    passWithTreeSum(
        exec, n, sv.terms, sv.partials, running,
        [=] FRAC_HD(int i) {
          elementProductPass(v, p, i);
          return dot7(sv.directionX[i], sv.directionQ[i], sv.productX[i], sv.productQ[i]);
        },
        [=] FRAC_HD(double pap) {
          if (!(pap > 0.0)) {
            cg->running = 0;  // H is not positive definite along d: stop with the step so far
            return;
          }
          cg->alpha = float(cg->rz / pap);
        });
    auto update = [=] FRAC_HD(int i) {
      const float alpha = cg->alpha;
      sv.stepX[i] += alpha * sv.directionX[i];
      sv.stepQ[i] += alpha * sv.directionQ[i];
      sv.residualX[i] -= alpha * sv.productX[i];
      sv.residualQ[i] -= alpha * sv.productQ[i];
      sv.preconditionedX[i] = sv.inverseDiagonalX[i] * sv.residualX[i];
      sv.preconditionedQ[i] = sv.inverseDiagonalQ[i] * sv.residualQ[i];
      return rz(i);
    };
    passWithTreeSum(exec, n, sv.terms, sv.partials, running, update, [=] FRAC_HD(double next) {
      cg->beta = float(next / cg->rz);
      cg->rz = next;
      cg->iterations += 1;
      cg->running = cg->iterations < maxIterations && next > cg->stop && next > 0.0;
    });
  }
  return where.cgState().iterations;
}

// Lines 6-7 and 10-11: the new state, and velocities and spins from it.
template <class Exec>
void updateStage(const Exec& exec, const BdemViews& v, const RbdemStepParams& p) {
  const BdemElementView e = v.elements;
  const RbdemSolveView sv = v.solve;
  const float invH = 1.0f / p.base.dt;
  parallel_for(exec, e.count, [=] FRAC_HD(int i) {
    if (!turnsFree(e, i)) return;
    if (isFree(e, i) || slides(e.flags[i])) {  // a roller's prescribed coordinates: stepX is 0 there
      addCompensated(e.position[i], e.positionLow[i], sv.stepX[i]);
      e.velocity[i] = invH * ((e.position[i] - sv.startPosition[i]) + (e.positionLow[i] - sv.startPositionLow[i]));
    }
    e.orientation[i] = normalized(fromWxyz(wxyz(e.orientation[i]) + sv.stepQ[i]));
    const quat rel = mul(e.orientation[i], conjugate(sv.startOrientation[i]));
    e.angularVelocity[i] = (2.0f * invH) * vec3(rel.x, rel.y, rel.z);  // line 11: [0, w] = 2/h (q q_n^-1 - q_I)
  });
}

// ---- the steps -----------------------------------------------------------------------------------------------------

// Implicit step, Algorithm 1. `where` as bdem::stepStages' (views, refreshContactList, mark) plus cgState() and
// cgBatch() (conjugateGradient). Returns the CG iterations.
template <class Exec, class Where>
int implicitStages(const Exec& exec, Where& where, const RbdemStepParams& p) {
  BdemViews v = where.views();
  predictStage(exec, v, p);                       // lines 2-3
  bdem::kinematicStage(exec, v);                  // prescribed elements at their pose at t + h
  v = where.refreshContactList(v);
  forceStage(exec, v, p, false, true);            // line 4: gradient and barrier blocks at the prediction
  residualStage(exec, v, p);
  const int iterations = conjugateGradient(exec, where, v, p);  // line 5
  updateStage(exec, v, p);                        // lines 6-7, 10-11
  forceStage(exec, v, p, true, false);            // lines 8-9: stresses, breakage; loads on kinematic bodies
  return iterations;
}

// Explicit step (Ours_exp): velocity Verlet (Lu's Algorithm 1) with the rod forces and torques of eq. 26-28.
template <class Exec, class Where>
void explicitStages(const Exec& exec, Where& where, const RbdemStepParams& p) {
  BdemViews v = where.views();
  bdem::driftStage(exec, v, p.base);
  bdem::kinematicStage(exec, v);
  v = where.refreshContactList(v);
  forceStage(exec, v, p, true, false);
  bdem::kickStage(exec, v, p.base);
}

}  // namespace frac::rbdem
