#pragma once
// Cholesky factorisation and solve of a small symmetric positive semi-definite matrix held dense (row-major n x n,
// double) whose row i is zero left of column first[i] (its envelope): the fill stays inside the envelope, so a
// matrix whose unknowns are ordered along a body (a beam's aggregates, rbdem_coarse.h) costs n w^2 for an envelope
// w wide instead of n^3. One thread runs each, in a fixed order: every backend gives the same bits.
//
// A pivot that is not positive, or below kEnvelopeDrop of its row's diagonal (an unknown that the rest already
// determine, or that has no stiffness at all: a coarse mode of fixed elements), is dropped: its reciprocal is stored
// as 0, so its column of L and its unknown in the solution are 0, and the rest is the factor of the matrix without it.
#include "core/math.h"

namespace frac {

constexpr double kEnvelopeDrop = 1e-10;

// In place: the lower triangle becomes L (A = L L^T) with the diagonal holding 1 / L_ii (0 where dropped).
FRAC_HD inline void envelopeFactor(double* a, const int* first, int n) {
  for (int i = 0; i < n; ++i) {
    double* row = a + size_t(i) * size_t(n);
    const int fi = first[i];
    for (int j = fi; j <= i; ++j) {
      const double* other = a + size_t(j) * size_t(n);
      const int start = fi > first[j] ? fi : first[j];
      double s = row[j];
      for (int k = start; k < j; ++k) s -= row[k] * other[k];
      if (j < i) {
        row[j] = s * other[j];  // other[j] = 1 / L_jj
      } else {
        const double diagonal = row[i];
        row[i] = (s > 0.0 && s > kEnvelopeDrop * diagonal) ? 1.0 / sqrt(s) : 0.0;
      }
    }
  }
}

// In place: b becomes the solution of L L^T x = b for envelopeFactor's L.
FRAC_HD inline void envelopeSolve(const double* l, const int* first, int n, double* b) {
  for (int i = 0; i < n; ++i) {
    const double* row = l + size_t(i) * size_t(n);
    double s = b[i];
    for (int k = first[i]; k < i; ++k) s -= row[k] * b[k];
    b[i] = s * row[i];
  }
  for (int i = n - 1; i >= 0; --i) {
    const double* row = l + size_t(i) * size_t(n);
    const double x = b[i] * row[i];
    b[i] = x;
    for (int k = first[i]; k < i; ++k) b[k] -= row[k] * x;
  }
}

}  // namespace frac
