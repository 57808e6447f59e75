#pragma once
// The implicit Rod-Bonded DEM step's linear solve (Zhang Algorithm 1, line 5): the Gauss-Newton Hessian's products
// (matrix-free: the bonds' words, rbdem_rod_product.h), the preconditioner (each element's 7x7 block inverted, or
// Zhang's Jacobi), the warm start from the last step's correction, and the CG, its dot products summed in a fixed
// tree so that the iterations and bits are the same for any thread count and backend.
#include "kernels/block7.h"
#include "solvers/fixed_tree_sum.h"
#include "solvers/rbdem/rbdem_coarse.h"
#include "solvers/rbdem/rbdem_passes.h"

namespace frac::rbdem {

// The weights of element i's own Hessian terms at the linearisation point: linear inertia m / h^2 (0 where its
// position is prescribed), rotational 4 I / h^2 (supplement eq. 6), eq. 31's k_q / |q|^2, and q_n, q as (w, x, y, z).
struct ElementWeights {
  float linear, angular, normWeight;
  glm::vec4 qn, q;
};
FRAC_HD inline ElementWeights elementWeights(const BdemViews& v, const RbdemStepParams& p, int i, bool moves) {
  const BdemElementView& e = v.elements;
  const float h = p.base.dt;
  const float mass = moves ? 1.0f / e.invMass[i] : 0.0f, inertia = 1.0f / e.invInertia[i];
  const glm::vec4 q = wxyz(e.orientation[i]);
  const float qNorm = sqrtf(glm::dot(q, q));
  return {mass / (h * h), 4.0f * inertia / (h * h), p.quaternionStiffness / (qNorm * qNorm),
          wxyz(v.solve.startOrientation[i]), q};
}

// Adds element i's own terms to its block m: the linear and rotational inertia and eq. 31 (weights as in
// elementProductPass), and its barriers (the force pass's diagonal of all of them, the off-diagonal parts of those
// in its contact slots).
FRAC_HD inline void addOwnTerms(const BdemViews& v, int i, const ElementWeights& w, Block7& m) {
  const RbdemSolveView& sv = v.solve;
  const vec3 barriers = sv.barrierDiagonal[i];
  for (int r = 0; r < 3; ++r) m.a[block7Index(r, r)] += w.linear + barriers[r];
  const int slots = v.contacts.slots;
  for (int s = 0; s < slots; ++s) {
    if (sv.contactPartner[i * slots + s] == kNoPartner) break;
    const BarrierBlock& c = sv.contactBlock[i * slots + s];
    for (int r = 1; r < 3; ++r)
      for (int col = 0; col < r; ++col) m.a[block7Index(r, col)] += c.curvature * c.normal[r] * c.normal[col];
  }
  for (int r = 0; r < 4; ++r)
    for (int col = 0; col <= r; ++col)
      m.a[block7Index(3 + r, 3 + col)] +=
          w.angular * ((r == col ? 1.0f : 0.0f) - w.qn[r] * w.qn[col]) + w.normWeight * w.q[r] * w.q[col];
}

// Element i's 7x7 diagonal block of the Hessian that elementProductPass multiplies by (unknowns x 0-2, q 3-6): its
// intact bonds' shares (rodBlockWords), then its own terms (addOwnTerms).
FRAC_HD inline Block7 elementBlock(const BdemViews& v, int i, const ElementWeights& weights) {
  const BdemBondView& bv = v.bonds;
  Block7 m;
  block7Clear(m);
  for (int k = bv.elementStart[i]; k < bv.elementStart[i + 1]; ++k) {
    const int entry = bv.elementEntry[k], b = entry >> 1;
    if (bv.broken[b]) continue;
    const RodWordBlock& block = v.rods.jacobian[b / kRodWordLanes];
    const int lane = b % kRodWordLanes;
    rodBlockWords([&](int w) { return block.word[w][lane]; }, (entry & 1) != 0, m);
  }
  addOwnTerms(v, i, weights, m);
  return m;
}

// z = M^-1 r for element i.
FRAC_HD inline void precondition(const RbdemSolveView& sv, RodPreconditioner kind, int i) {
  if (kind == RodPreconditioner::Jacobi) {
    sv.preconditionedX[i] = sv.inverseDiagonalX[i] * sv.residualX[i];
    sv.preconditionedQ[i] = sv.inverseDiagonalQ[i] * sv.residualQ[i];
    return;
  }
  const vec3 rx = sv.residualX[i];
  const glm::vec4 rq = sv.residualQ[i];
  const float r[kBlock7] = {rx.x, rx.y, rx.z, rq[0], rq[1], rq[2], rq[3]};
  float z[kBlock7];
  block7Times(sv.preconditioner[i], r, z);
  sv.preconditionedX[i] = vec3(z[0], z[1], z[2]);
  sv.preconditionedQ[i] = glm::vec4(z[3], z[4], z[5], z[6]);
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
// The CPU's: 8 bonds a vector instruction (rbdem_lanes.cpp), the same words and bits; with `projectiles`, the same
// parallel loop also runs projectileChunkPass for every projectile's chunks after the bonds.
void rodProductsLanes(const CpuExec& exec, const BdemViews& v, const RbdemStepParams* projectiles = nullptr);
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
// The CPU's: the projectiles' chunks in the bonds' parallel loop. In one of their own they are too few for the
// threads (kProjectileChunks a projectile) and ran on one while the other waited: 2% of the default scene's step.
inline void hessianStage(const CpuExec& exec, const BdemViews& v, const RbdemStepParams& p) {
  if (v.solve.cg->running) rodProductsLanes(exec, v, &p);
}

FRAC_HD inline float dot7(const vec3& ax, const glm::vec4& aq, const vec3& bx, const glm::vec4& bq) {
  return glm::dot(ax, bx) + glm::dot(aq, bq);
}
// Element i's share of r . z (the CG's residual times the preconditioned residual).
FRAC_HD inline float rz(const RbdemSolveView& sv, int i) {
  return dot7(sv.residualX[i], sv.residualQ[i], sv.preconditionedX[i], sv.preconditionedQ[i]);
}

// One pass over the elements that changes their residuals (before(i)), preconditions them where refresh() (read by
// every thread; z = M^-1 r, the coarse correction added for two_level) and returns a term of a dot product
// (after(i)), summed in the fixed tree into finish. With the one-level preconditioners it is one pass; two_level
// needs every residual before the coarse solve, so it takes a pass, the correction, and a pass.
template <class Exec, class Guard, class Refresh, class Before, class After, class Finish>
void preconditionedPass(const Exec& exec, const BdemViews& v, const RbdemStepParams& p, Guard guard, Refresh refresh,
                        Before before, After after, Finish finish) {
  const RbdemSolveView sv = v.solve;
  const int n = v.elements.count;
  const RodPreconditioner kind = p.preconditioner;
  if (kind != RodPreconditioner::TwoLevel) {
    passWithTreeSum(
        exec, n, sv.terms, sv.partials, guard,
        [=] FRAC_HD(int i) {
          before(i);
          if (refresh()) precondition(sv, kind, i);
          return after(i);
        },
        finish);
    return;
  }
  parallel_for(exec, n, [=] FRAC_HD(int i) {
    if (!guard()) return;
    before(i);
    if (!refresh()) return;
    precondition(sv, kind, i);
    coarseTermsPass(v, i);
  });
  coarseCorrection(exec, v, [=] FRAC_HD() { return guard() && refresh(); });
  passWithTreeSum(
      exec, n, sv.terms, sv.partials, guard,
      [=] FRAC_HD(int i) {
        if (refresh()) prolongPass(v, i);
        return after(i);
      },
      finish);
}

// H times the CG direction into product (hessianStage, then every element's row), finish(d^T H d) after.
template <class Exec, class Guard, class Finish>
void directionProduct(const Exec& exec, const BdemViews& v, const RbdemStepParams& p, Guard guard, Finish finish) {
  const RbdemSolveView sv = v.solve;
  hessianStage(exec, v, p);
  passWithTreeSum(
      exec, v.elements.count, sv.terms, sv.partials, guard,
      [=] FRAC_HD(int i) {
        elementProductPass(v, p, i);
        return dot7(sv.directionX[i], sv.directionQ[i], sv.productX[i], sv.productQ[i]);
      },
      finish);
}

// The CG's first guess (our addition; Algorithm 1 starts from dx = 0): the last step's correction s scaled by the
// alpha that minimises the quadratic model along it, alpha = s . r / s^T H s (a Galerkin step on span{s}). The
// correction is h^2 times the last step's acceleration, so s points where this one's goes wherever the motion is
// smooth (a falling or sagging body), or against it where the last solve's remainder is being undone (alpha < 0);
// either way the start is never worse than 0 in H's norm. The stop test stays tolerance^2 times r . z at dx = 0, so
// the answer is as accurate as from 0.
template <class Exec>
void warmStart(const Exec& exec, const BdemViews& v, const RbdemStepParams& p) {
  const RbdemSolveView sv = v.solve;
  CgState* cg = sv.cg;
  const int n = v.elements.count;
  auto always = [] FRAC_HD() { return true; };
  auto running = [=] FRAC_HD() { return cg->running != 0; };
  parallel_for(exec, n, [=] FRAC_HD(int i) {
    if (!cg->running) return;
    sv.directionX[i] = sv.stepX[i];
    sv.directionQ[i] = sv.stepQ[i];
  });
  directionProduct(exec, v, p, running, [=] FRAC_HD(double curvature) { cg->warmCurvature = curvature; });
  treeSum(
      exec, n, sv.partials, running,
      [=] FRAC_HD(int i) { return dot7(sv.stepX[i], sv.stepQ[i], sv.residualX[i], sv.residualQ[i]); },
      [=] FRAC_HD(double slope) {
        if (cg->warmCurvature > 0.0) cg->alpha = float(slope / cg->warmCurvature);
      });
  preconditionedPass(
      exec, v, p, always, [=] FRAC_HD() { return cg->alpha != 0.0f; },  // 0 unless a warm start was taken
      [=] FRAC_HD(int i) {
        const float alpha = cg->alpha;
        if (alpha != 0.0f) {
          sv.stepX[i] *= alpha;
          sv.stepQ[i] *= alpha;
          sv.residualX[i] -= alpha * sv.productX[i];
          sv.residualQ[i] -= alpha * sv.productQ[i];
        } else {
          sv.stepX[i] = vec3(0.0f);
          sv.stepQ[i] = glm::vec4(0.0f);
        }
      },
      [=] FRAC_HD(int i) {
        sv.directionX[i] = sv.preconditionedX[i];
        sv.directionQ[i] = sv.preconditionedQ[i];
        return rz(sv, i);
      },
      [=] FRAC_HD(double next) {
        if (cg->alpha == 0.0f) return;
        cg->rz = next;
        cg->running = next > cg->stop && next > 0.0;
      });
}

// The two-level preconditioner's start of a step (after residualStage, whose z is the blocks' alone): the coarse
// matrix assembled and factored, and the first residual's coarse correction added to z and the direction.
template <class Exec>
void twoLevelStart(const Exec& exec, const BdemViews& v, const RbdemStepParams& p) {
  const RbdemSolveView sv = v.solve;
  coarseSetupStage(exec, v, [=] FRAC_HD(int i) {
    Block7 m;
    block7Clear(m);
    addOwnTerms(v, i, elementWeights(v, p, i, solvedAxes(v.elements, i) != vec3(0.0f)), m);
    return m;
  });
  parallel_for(exec, v.elements.count, [=] FRAC_HD(int i) { coarseTermsPass(v, i); });
  coarseCorrection(exec, v, [] FRAC_HD() { return true; });
  parallel_for(exec, v.elements.count, [=] FRAC_HD(int i) {
    prolongPass(v, i);
    sv.directionX[i] = sv.preconditionedX[i];
    sv.directionQ[i] = sv.preconditionedQ[i];
  });
}

// The solve (line 5): preconditioned CG on H d = r (RodPreconditioner: the element blocks from warmStart's guess,
// or Zhang's Jacobi from 0), its scalars in the solve group's CgState, its dot products
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
  auto rz = [=] FRAC_HD(int i) { return rbdem::rz(sv, i); };
  treeSum(exec, n, sv.partials, always, rz, [=] FRAC_HD(double first) {
    cg->rz = first;
    cg->stop = tolerance2 * first;
    cg->iterations = 0;
    cg->running = 0 < maxIterations && first > cg->stop && first > 0.0;
    cg->alpha = 0.0f;  // no warm start unless warmStart takes one
    cg->warmCurvature = 0.0;
  });
  if (p.preconditioner != RodPreconditioner::Jacobi) warmStart(exec, v, p);
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
    directionProduct(exec, v, p, running, [=] FRAC_HD(double pap) {
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
    };
    preconditionedPass(exec, v, p, running, always, update, rz, [=] FRAC_HD(double next) {
      cg->beta = float(next / cg->rz);
      cg->rz = next;
      cg->iterations += 1;
      cg->running = cg->iterations < maxIterations && next > cg->stop && next > 0.0;
    });
  }
  return where.cgState().iterations;
}

}  // namespace frac::rbdem
