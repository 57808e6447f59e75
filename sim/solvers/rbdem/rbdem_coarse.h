#pragma once
// The two-level preconditioner of the implicit rod-bonded DEM step (`pcg_preconditioner: two_level`; our addition,
// Zhang's Algorithm 1 uses Jacobi): z = B^-1 r + P (P^T H P)^-1 P^T r, with B the elements' 7x7 blocks
// (rbdem_solve.h) and P the aggregates' rigid-body modes (kernels/rbdem_coarse_modes.h). The block preconditioner
// alone leaves the smooth deformations of a long body (a cantilever's sag, a beam's bending) to the CG, which needs
// about as many iterations as the body is elements long for them; the coarse solve removes them in one go.
//
// The coarse matrix is P^T H P of the bonds (every bond's share from its words, summed per 6x6 block in the fixed
// order of coarseEntry), plus each element's own terms (inertia, eq. 31, its barriers' 7x7 block). Barriers between
// two elements are counted on each element's own block but their coupling is left out, which only makes the coarse
// matrix stiffer along those contacts (a preconditioner need not be exact; the CG stays exact). It is factored once
// a step (envelope Cholesky, kernels/envelope_cholesky.h, one thread) and solved once per CG iteration.
#include "kernels/envelope_cholesky.h"
#include "kernels/rbdem_coarse_modes.h"
#include "solvers/rbdem/rbdem_passes.h"

namespace frac::rbdem {

// Which share of a bond a coarse block's entry adds (the low 2 bits of coarseEntry).
enum CoarsePart : int { kCoarseFirst = 0, kCoarseSecond = 1, kCoarseCoupling = 2, kCoarseCouplingTransposed = 3 };

// Element i's modes (none outside the aggregates or where it is prescribed), about its aggregate's first member at
// the linearisation point.
FRAC_HD inline CoarseModes elementModes(const BdemViews& v, int i) {
  const RbdemSolveView& sv = v.solve;
  const BdemElementView& e = v.elements;
  const int a = sv.aggregateOf[i];
  if (a < 0 || !turnsFree(e, i)) return noCoarseModes();
  const int reference = sv.aggregateMember[sv.aggregateStart[a]];
  return coarseModes(e.position[i], e.orientation[i], e.position[reference], solvedAxes(e, i));
}

// Bond b's share of the coarse matrix (after rodLinearisePass wrote its words).
FRAC_HD inline void coarseBondPass(const BdemViews& v, int b) {
  if (v.bonds.broken[b]) return;  // the assembly skips it
  const RodWordBlock& block = v.rods.jacobian[b / kRodWordLanes];
  const int lane = b % kRodWordLanes;
  rodCoarseBlock([&](int w) { return block.word[w][lane]; }, elementModes(v, v.bonds.first[b]),
                 elementModes(v, v.bonds.second[b]), v.solve.coarseBond[b]);
}

// The 6x6 block g of the coarse matrix, (a, b) with a >= b: its bonds' shares in coarseEntry's order, then (a == b)
// its members' own terms in member order, written into the dense matrix (the lower triangle of a diagonal block).
FRAC_HD inline void coarseBlockPass(const BdemViews& v, int g) {
  const RbdemSolveView& sv = v.solve;
  double sum[kCoarseModes][kCoarseModes];
  for (int r = 0; r < kCoarseModes; ++r)
    for (int c = 0; c < kCoarseModes; ++c) sum[r][c] = 0.0;
  auto addSymmetric = [&](const Sym6& s) {
    for (int r = 0; r < kCoarseModes; ++r)
      for (int c = 0; c < kCoarseModes; ++c) sum[r][c] += double(s.a[r >= c ? sym6Index(r, c) : sym6Index(c, r)]);
  };
  for (int k = sv.coarseEntryStart[g]; k < sv.coarseEntryStart[g + 1]; ++k) {
    const int entry = sv.coarseEntry[k], bond = entry >> 2, part = entry & 3;
    if (v.bonds.broken[bond]) continue;
    const CoarseBondBlock& share = sv.coarseBond[bond];
    if (part == kCoarseFirst) addSymmetric(share.first);
    else if (part == kCoarseSecond) addSymmetric(share.second);
    else
      for (int r = 0; r < kCoarseModes; ++r)
        for (int c = 0; c < kCoarseModes; ++c)
          sum[r][c] += double(part == kCoarseCoupling ? share.coupling[r * kCoarseModes + c]
                                                      : share.coupling[c * kCoarseModes + r]);
  }
  const int a = sv.coarseBlockRow[g], b = sv.coarseBlockColumn[g], n = kCoarseModes * v.solve.aggregates;
  if (a == b)
    for (int k = sv.aggregateStart[a]; k < sv.aggregateStart[a + 1]; ++k) addSymmetric(sv.coarseOwn[sv.aggregateMember[k]]);
  for (int r = 0; r < kCoarseModes; ++r)
    for (int c = 0; c < (a == b ? r + 1 : kCoarseModes); ++c)
      sv.coarseMatrix[size_t(kCoarseModes * a + r) * size_t(n) + size_t(kCoarseModes * b + c)] = sum[r][c];
}

// Element i's share of P^T r (its current residual), for coarseCorrection.
FRAC_HD inline void coarseTermsPass(const BdemViews& v, int i) {
  const RbdemSolveView& sv = v.solve;
  const BdemElementView& e = v.elements;
  const int a = sv.aggregateOf[i];
  if (a < 0) return;
  if (!turnsFree(e, i)) {
    sv.coarseTerms[i] = CoarseTerms{{0.0, 0.0, 0.0, 0.0, 0.0, 0.0}};
    return;
  }
  const vec3 c = e.position[sv.aggregateMember[sv.aggregateStart[a]]];
  sv.coarseTerms[i] = restrictToModes(e.position[i], e.orientation[i], c, solvedAxes(e, i), sv.residualX[i],
                                      sv.residualQ[i]);
}

// P^T r of aggregate a: its members' shares in member order.
FRAC_HD inline void coarseRestrictPass(const BdemViews& v, int a) {
  const RbdemSolveView& sv = v.solve;
  double sum[kCoarseModes] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  for (int k = sv.aggregateStart[a]; k < sv.aggregateStart[a + 1]; ++k) {
    const CoarseTerms& part = sv.coarseTerms[sv.aggregateMember[k]];
    for (int m = 0; m < kCoarseModes; ++m) sum[m] += part.m[m];
  }
  for (int m = 0; m < kCoarseModes; ++m) sv.coarseVector[kCoarseModes * a + m] = sum[m];
}

// z_i += P_i c: element i's share of the coarse correction (coarseCorrection left c in coarseVector).
FRAC_HD inline void prolongPass(const BdemViews& v, int i) {
  const RbdemSolveView& sv = v.solve;
  const BdemElementView& e = v.elements;
  const int a = sv.aggregateOf[i];
  if (a < 0 || !turnsFree(e, i)) return;
  float t[kCoarseModes];
  for (int k = 0; k < kCoarseModes; ++k) t[k] = float(sv.coarseVector[kCoarseModes * a + k]);
  const vec3 c = e.position[sv.aggregateMember[sv.aggregateStart[a]]];
  prolongFromModes(e.position[i], e.orientation[i], c, solvedAxes(e, i), t, sv.preconditionedX[i],
                   sv.preconditionedQ[i]);
}

// Once a step, after the force pass's words and the residual stage (own(i) gives element i's own 7x7 block): every
// bond's and element's share, the blocks, the factor.
template <class Exec, class Own>
void coarseSetupStage(const Exec& exec, const BdemViews& v, Own own) {
  const RbdemSolveView sv = v.solve;
  const int n = kCoarseModes * sv.aggregates;
  if (n == 0) return;  // no element joins an aggregate (every bonded one is prescribed): the blocks alone
  parallel_for(exec, n, [=] FRAC_HD(int r) {  // the envelope of row r: the factor fills it
    for (int c = sv.coarseFirst[r]; c <= r; ++c) sv.coarseMatrix[size_t(r) * size_t(n) + size_t(c)] = 0.0;
  });
  parallel_for(exec, v.bonds.count, [=] FRAC_HD(int b) { coarseBondPass(v, b); });
  parallel_for(exec, v.elements.count, [=] FRAC_HD(int i) {
    if (sv.aggregateOf[i] >= 0) sv.coarseOwn[i] = coarseProject(own(i), elementModes(v, i));
  });
  parallel_for(exec, sv.coarseBlocks, [=] FRAC_HD(int g) { coarseBlockPass(v, g); });
  parallel_for(exec, 1, [=] FRAC_HD(int) { envelopeFactor(sv.coarseMatrix, sv.coarseFirst, n); });
}

// c = (P^T H P)^-1 P^T r into coarseVector from the elements' coarseTerms, when guard() (read by every thread).
template <class Exec, class Guard>
void coarseCorrection(const Exec& exec, const BdemViews& v, Guard guard) {
  const RbdemSolveView sv = v.solve;
  if (sv.aggregates == 0) return;
  parallel_for(exec, sv.aggregates, [=] FRAC_HD(int a) {
    if (guard()) coarseRestrictPass(v, a);
  });
  parallel_for(exec, 1, [=] FRAC_HD(int) {
    if (guard()) envelopeSolve(sv.coarseMatrix, sv.coarseFirst, kCoarseModes * sv.aggregates, sv.coarseVector);
  });
}

}  // namespace frac::rbdem
