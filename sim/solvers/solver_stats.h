#pragma once
// SimStats summed where the state lives, as one template the CPU and CUDA both run: a device sends back a few
// kilobytes of partial sums instead of its whole state (a million-particle body's bonds are ~300 MB), and the host's
// union-find over every bond (most of a statistics refresh at that size) becomes element_instances.h's parallel
// fragment keys. Sums run in a fixed order (strided partial sums, each in index order, added in order on the host),
// so both backends and every thread count give the same numbers. parallel_for and readValues come with the exec
// (backend/exec.h, backend/cuda/cuda_exec.cuh).
#include <vector>

#include "core/math.h"

namespace frac {

// What one element or one bond adds to the statistics.
struct StatsTerms {
  double kineticEnergy = 0.0;
  double elasticEnergy = 0.0;
  long long bondsBroken = 0;
  long long fragments = 0;  // pieces: members that are the smallest index of theirs
  double fractureDissipated = 0.0;  // J: what softening bonds spent past their strength (bdem)

  FRAC_HD StatsTerms& operator+=(const StatsTerms& o) {
    kineticEnergy += o.kineticEnergy;
    elasticEnergy += o.elasticEnergy;
    fractureDissipated += o.fractureDissipated;
    bondsBroken += o.bondsBroken;
    fragments += o.fragments;
    return *this;
  }
};

// partial[c] = combine(... combine(combine(zero, term(c)), term(c + chunks)) ..., ) over indices below n, in that
// order.
template <class T, class Exec, class Term, class Combine>
void stridedPartials(const Exec& exec, int n, int chunks, const Term& term, const T& zero, const Combine& combine,
                     T* partial) {
  parallel_for(exec, chunks, [=] FRAC_HD(int c) {
    T result = zero;
    for (int i = c; i < n; i += chunks) result = combine(result, term(i));
    partial[c] = result;
  });
}

struct Plus {
  template <class T>
  FRAC_HD T operator()(T a, const T& b) const {
    a += b;
    return a;
  }
};

// partial[c] = zero + term(c) + term(c + chunks) + ... (T: a sum type with +=).
template <class T, class Exec, class Term>
void stridedPartialSums(const Exec& exec, int n, int chunks, const Term& term, const T& zero, T* partial) {
  stridedPartials(exec, n, chunks, term, zero, Plus{}, partial);
}

constexpr int kStatsChunks = 1024;

// elementTerm over elements [0, n) and bondTerm over bonds [0, bonds), summed in a fixed order. `partial`:
// kStatsChunks StatsTerms in the exec's memory.
template <class Exec, class ElementTerm, class BondTerm>
StatsTerms sumStats(const Exec& exec, int n, const ElementTerm& elementTerm, int bonds, const BondTerm& bondTerm,
                    StatsTerms* partial) {
  StatsTerms total;
  std::vector<StatsTerms> host(kStatsChunks);
  stridedPartialSums(exec, n, kStatsChunks, elementTerm, StatsTerms{}, partial);
  readValues(exec, host.data(), partial, kStatsChunks);
  for (const StatsTerms& t : host) total += t;
  stridedPartialSums(exec, bonds, kStatsChunks, bondTerm, StatsTerms{}, partial);
  readValues(exec, host.data(), partial, kStatsChunks);
  for (const StatsTerms& t : host) total += t;
  return total;
}

}  // namespace frac
