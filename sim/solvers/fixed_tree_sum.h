#pragma once
// A sum of n terms in a fixed tree, for any exec: groups of kTreeSumGroup consecutive terms added in index order (in
// double), then groups of those partial sums likewise, until at most kTreeSumGroup are left, which one thread adds and
// hands to `finish` (where the result stays: on a GPU nothing comes back to the host). The tree depends on n alone,
// so every thread count and backend adds the same numbers in the same order; on a GPU the first level runs n / 32
// threads. `guard()` is read by every thread first: false makes the whole sum a no-op (an iteration of a solver
// that has already stopped, while the host has not yet looked).
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

// term(i) -> float or double; finish(double) runs once, on one thread, after the whole sum.
template <class Exec, class Guard, class Term, class Finish>
void treeSum(const Exec& exec, int n, double* partials, Guard guard, Term term, Finish finish) {
  constexpr int G = kTreeSumGroup;
  int count = (n + G - 1) / G;
  parallel_for(exec, count, [=] FRAC_HD(int g) {
    if (!guard()) return;
    double sum = 0.0;
    const int end = (g + 1) * G < n ? (g + 1) * G : n;
    for (int i = g * G; i < end; ++i) sum += double(term(i));
    partials[g] = sum;
  });
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

}  // namespace frac
