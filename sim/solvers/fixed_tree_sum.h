#pragma once
// A sum of n terms in a fixed tree, for any exec: groups of kTreeSumGroup consecutive terms added in index order (in
// double), then groups of those partial sums likewise, until at most kTreeSumGroup are left, which one thread adds and
// hands to `finish` (where the result stays: on a GPU nothing comes back to the host). The tree depends on n alone,
// so every thread count and backend adds the same numbers in the same order; on a GPU the first level runs n / 32
// threads. `guard()` is read by every thread first: false makes the whole sum a no-op (an iteration of a solver
// that has already stopped, while the host has not yet looked).
#include "backend/exec.h"
#include "core/math.h"

namespace frac {

constexpr int kTreeSumGroup = 32;

// Partial sums the tree needs for n terms (the `partials` array's size).
inline int treeSumPartials(int n) {
  int count = (n + kTreeSumGroup - 1) / kTreeSumGroup, total = count;
  while (count > kTreeSumGroup) {
    count = (count + kTreeSumGroup - 1) / kTreeSumGroup;
    total += count;
  }
  return total > 0 ? total : 1;
}

// The levels above the first: `count` partial sums in `partials` added in groups until one thread finishes.
template <class Exec, class Guard, class Finish>
void treeSumUpperLevels(const Exec& exec, int count, double* partials, Guard guard, Finish finish) {
  constexpr int G = kTreeSumGroup;
  double* level = partials;
  while (count > G) {
    const int next = (count + G - 1) / G, size = count;
    const double* in = level;
    double* out = level + count;
    parallel_for(exec, next, [=] FRAC_HD(int g) {
      if (!guard()) return;
      double sum = 0.0;
      const int end = (g + 1) * G < size ? (g + 1) * G : size;
      for (int k = g * G; k < end; ++k) sum += in[k];
      out[g] = sum;
    });
    level = out;
    count = next;
  }
  const double* last = level;
  const int size = count;
  parallel_for(exec, 1, [=] FRAC_HD(int) {
    if (!guard()) return;
    double sum = 0.0;
    for (int k = 0; k < size; ++k) sum += last[k];
    finish(sum);
  });
}

// The first level: group g's terms added in index order, in double. term(i) -> float or double.
template <class Guard, class Term>
FRAC_HD inline void treeSumGroup(int g, int n, double* partials, const Guard& guard, const Term& term) {
  if (!guard()) return;
  double sum = 0.0;
  const int end = (g + 1) * kTreeSumGroup < n ? (g + 1) * kTreeSumGroup : n;
  for (int i = g * kTreeSumGroup; i < end; ++i) sum += double(term(i));
  partials[g] = sum;
}

// term(i) -> float or double; finish(double) runs once, on one thread, after the whole sum.
template <class Exec, class Guard, class Term, class Finish>
void treeSum(const Exec& exec, int n, double* partials, Guard guard, Term term, Finish finish) {
  const int count = (n + kTreeSumGroup - 1) / kTreeSumGroup;
  parallel_for(exec, count, [=] FRAC_HD(int g) { treeSumGroup(g, n, partials, guard, term); });
  treeSumUpperLevels(exec, count, partials, guard, finish);
}

// A pass over n indices fused with the sum of what each index returns: work(i) does index i's work and returns its
// term (float), and finish gets treeSum's sum of the terms, the same bits. A device runs work on a thread per index
// and keeps the terms in `terms` (n floats) for treeSum; the CPU (below) runs whole groups on each thread, so the
// pass and the first level are one parallel loop and no thread reads the terms of another's indices.
template <class Exec, class Guard, class Work, class Finish>
void passWithTreeSum(const Exec& exec, int n, float* terms, double* partials, Guard guard, Work work, Finish finish) {
  parallel_for(exec, n, [=] FRAC_HD(int i) {
    if (guard()) terms[i] = work(i);
  });
  treeSum(exec, n, partials, guard, [=] FRAC_HD(int i) { return terms[i]; }, finish);
}
template <class Guard, class Work, class Finish>
void passWithTreeSum(const CpuExec& exec, int n, float*, double* partials, Guard guard, Work work, Finish finish) {
  const int count = (n + kTreeSumGroup - 1) / kTreeSumGroup;
  CpuExec groups = exec;  // parallel when the indices (not the groups) are many enough
  groups.minParallel = exec.minParallel / kTreeSumGroup > 1 ? exec.minParallel / kTreeSumGroup : 1;
  parallel_for(groups, count, [=](int g) { treeSumGroup(g, n, partials, guard, work); });
  treeSumUpperLevels(exec, count, partials, guard, finish);
}

}  // namespace frac
