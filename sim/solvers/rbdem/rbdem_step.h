#pragma once
// One Rod-Bonded DEM time step (Zhang et al.) as parallel_for stages over BDEM's views plus the rod and solve groups
// (rbdem_arrays.h): the implicit step of Algorithm 1 (eq. 12 linearised once, Gauss-Newton Hessian, PCG) and
// the explicit variant (the paper's Ours_exp: velocity Verlet with the rod forces). Their stage orders are written
// once here (implicitStages, explicitStages). Every sum over an element's bonds and contacts is gathered per element
// in a fixed order and every CG dot product is summed in a fixed tree, so results do not depend on the thread count
// or the backend.
#include "solvers/rbdem/rbdem_passes.h"
#include "solvers/rbdem/rbdem_solve.h"

namespace frac::rbdem {

// ---- the shared stages -------------------------------------------------------------------------------------------

// Bonds linearised at the current state, then every element's force and torque (and, for the solve, its barrier
// blocks and their diagonal in barrierDiagonal, for the preconditioner).
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
    elementForcePass(v, p, i, blocks, v.solve.barrierDiagonal ? &v.solve.barrierDiagonal[i] : nullptr);
  });
  parallel_for(exec, v.projectileCount * kProjectileChunks,
               [=] FRAC_HD(int item) { projectileChunkPass(v, p, item, nullptr); });
  parallel_for(exec, v.projectileCount, [=] FRAC_HD(int s) {
    const int i = v.projectiles[s];
    vec3 diag(0.0f);
    elementForcePass(v, p, i, blocks, &diag);  // projectiles and planes
    const RodProjectilePartial grid = projectileSum(v, s);
    if (!(v.elements.flags[i] & kFlagInactive)) v.elements.force[i] -= grid.value;
    if (blocks) v.solve.barrierDiagonal[i] = diag + grid.diagonal;
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
// preconditioner, and the CG's start (the last step's correction s, which warmStart scales or drops; z = M^-1 r,
// p = z). Fixed unknowns get zeros throughout (all 7 of a clamp's element, the 3 of position of a pin's, 2 of a
// roller's).
template <class Exec>
void residualStage(const Exec& exec, const BdemViews& v, const RbdemStepParams& p) {
  const BdemElementView e = v.elements;
  const RbdemSolveView sv = v.solve;
  const float h = p.base.dt, kq = p.quaternionStiffness;
  const RodPreconditioner kind = p.preconditioner;
  parallel_for(exec, e.count, [=] FRAC_HD(int i) {
    const vec3 zero3(0.0f);
    const glm::vec4 zero4(0.0f);
    const vec3 axes = solvedAxes(e, i);
    const bool moves = axes != zero3;
    const bool warm = kind != RodPreconditioner::Jacobi;  // Algorithm 1 (Jacobi) starts from dx = 0
    sv.stepX[i] = warm ? onAxes(axes, sv.stepX[i]) : zero3;
    if (!warm) sv.stepQ[i] = zero4;
    if (!moves) sv.residualX[i] = sv.preconditionedX[i] = sv.directionX[i] = sv.inverseDiagonalX[i] = zero3;
    if (!turnsFree(e, i)) {
      sv.stepQ[i] = zero4;
      sv.residualQ[i] = sv.preconditionedQ[i] = sv.directionQ[i] = sv.inverseDiagonalQ[i] = zero4;
      sv.preconditioner[i] = block7Identity();  // its residual is 0, and so stays its z
      return;
    }
    const ElementWeights w = elementWeights(v, p, i, moves);
    const glm::vec4 q = w.q;
    // rotational inertia (supplement eq. 6): (2/h^2) |Im(q conj(q_n)) - h/2 w|^2_I, gradient at q*
    const quat rel = mul(e.orientation[i], conjugate(sv.startOrientation[i]));
    const vec3 a = vec3(rel.x, rel.y, rel.z) - 0.5f * h * e.angularVelocity[i];
    const glm::vec4 inertiaGrad = w.angular * wxyz(mul(quat(0.0f, a.x, a.y, a.z), sv.startOrientation[i]));
    const float qNorm = sqrtf(glm::dot(q, q));
    const glm::vec4 normGrad = kq * (qNorm - 1.0f) / qNorm * q;  // eq. 31
    // the force pass left -dE/dx (with gravity) in force and -dE/dq in torqueParameter
    const vec3 rX = e.force[i];  // x* = s: the linear inertia term has no gradient there
    const glm::vec4 rQ = sv.torqueParameter[i] - inertiaGrad - normGrad;
    sv.residualQ[i] = rQ;
    if (moves) sv.residualX[i] = onAxes(axes, rX);
    if (kind == RodPreconditioner::Jacobi) {  // the diagonal's reciprocals
      glm::vec4 diagQ(0.0f);
      vec3 diagX(0.0f);
      gatherBonds(v, i, v.rods.diagonal, diagX, diagQ);
      diagX += vec3(w.linear) + sv.barrierDiagonal[i];
      diagQ += w.angular * (glm::vec4(1.0f) - w.qn * w.qn) + w.normWeight * q * q;
      sv.inverseDiagonalQ[i] = 1.0f / diagQ;
      if (moves) sv.inverseDiagonalX[i] = onAxes(axes, 1.0f / diagX);
    } else {  // the element's block, inverted
      Block7 m = elementBlock(v, i, w);
      const bool solved[kBlock7] = {axes.x != 0.0f, axes.y != 0.0f, axes.z != 0.0f, true, true, true, true};
      block7Invert(m, solved);
      sv.preconditioner[i] = m;
    }
    precondition(sv, kind, i);
    sv.directionX[i] = sv.preconditionedX[i];
    sv.directionQ[i] = sv.preconditionedQ[i];
  });
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
  if (p.preconditioner == RodPreconditioner::TwoLevel) twoLevelStart(exec, v, p);
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
