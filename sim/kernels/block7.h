#pragma once
// A symmetric 7x7 block: one element's unknowns in the rod-bonded DEM solve (x: 0-2, q: 3-6 as w x y z, the order
// of rbdem_rod_product.h's ends), packed as its lower triangle row by row. The implicit step's preconditioner keeps
// each element's diagonal block of the Gauss-Newton Hessian inverted once a step (block7Invert, by Cholesky) and
// multiplies the residual by it in every iteration (block7Times: independent products, no chain of divisions).
#include "core/math.h"

namespace frac {

constexpr int kBlock7 = 7;
constexpr int kBlock7Entries = kBlock7 * (kBlock7 + 1) / 2;

struct Block7 {
  float a[kBlock7Entries];
};

// Entry (r, c) of the packed lower triangle, r >= c.
FRAC_HD constexpr int block7Index(int r, int c) { return r * (r + 1) / 2 + c; }

FRAC_HD inline void block7Clear(Block7& m) {
  for (int k = 0; k < kBlock7Entries; ++k) m.a[k] = 0.0f;
}

FRAC_HD inline Block7 block7Identity() {
  Block7 m;
  block7Clear(m);
  for (int k = 0; k < kBlock7; ++k) m.a[block7Index(k, k)] = 1.0f;
  return m;
}

// In place: m = L L^T, L's diagonal stored as its reciprocal (so block7Invert only multiplies). Rows and columns of
// the unknowns with solved[k] false become the identity's. Where m is not positive definite on the solved unknowns,
// L is the square root of its positive diagonal (plain Jacobi) and the identity elsewhere.
FRAC_HD inline void block7Factor(Block7& m, const bool solved[kBlock7]) {
  Block7 in = m;
  for (int r = 0; r < kBlock7; ++r)
    for (int c = 0; c <= r; ++c)
      if (!solved[r] || !solved[c]) in.a[block7Index(r, c)] = r == c ? 1.0f : 0.0f;
  Block7 l = in;
  bool ok = true;
  for (int j = 0; j < kBlock7 && ok; ++j) {
    float d = in.a[block7Index(j, j)];
    for (int k = 0; k < j; ++k) d -= l.a[block7Index(j, k)] * l.a[block7Index(j, k)];
    if (!(d > 0.0f)) {
      ok = false;
      break;
    }
    const float inv = 1.0f / sqrtf(d);
    l.a[block7Index(j, j)] = inv;
    for (int i = j + 1; i < kBlock7; ++i) {
      float s = in.a[block7Index(i, j)];
      for (int k = 0; k < j; ++k) s -= l.a[block7Index(i, k)] * l.a[block7Index(j, k)];
      l.a[block7Index(i, j)] = s * inv;
    }
  }
  if (ok) {
    m = l;
    return;
  }
  block7Clear(m);
  for (int j = 0; j < kBlock7; ++j) {
    const float d = in.a[block7Index(j, j)];
    m.a[block7Index(j, j)] = d > 0.0f ? 1.0f / sqrtf(d) : 1.0f;
  }
}

// In place: m^-1 (symmetric, packed) = L^-T L^-1 from m's Cholesky factor L (block7Factor, whose plain Jacobi
// fallback is diagonal and so inverts the same way). L^-1's columns are independent of each other, so the
// substitutions interleave instead of waiting on one another.
FRAC_HD inline void block7Invert(Block7& m, const bool solved[kBlock7]) {
  Block7 l = m;
  block7Factor(l, solved);
  Block7 inv;  // L^-1, lower triangular, packed
  for (int i = 0; i < kBlock7; ++i) {
    inv.a[block7Index(i, i)] = l.a[block7Index(i, i)];  // block7Factor keeps the diagonal's reciprocals
    for (int j = 0; j < i; ++j) {
      float s = 0.0f;
      for (int k = j; k < i; ++k) s += l.a[block7Index(i, k)] * inv.a[block7Index(k, j)];
      inv.a[block7Index(i, j)] = -s * l.a[block7Index(i, i)];
    }
  }
  for (int r = 0; r < kBlock7; ++r)
    for (int c = 0; c <= r; ++c) {
      float s = 0.0f;
      for (int k = r; k < kBlock7; ++k) s += inv.a[block7Index(k, r)] * inv.a[block7Index(k, c)];
      m.a[block7Index(r, c)] = s;
    }
}

// z = m r for a symmetric packed m.
FRAC_HD inline void block7Times(const Block7& m, const float r[kBlock7], float z[kBlock7]) {
  for (int i = 0; i < kBlock7; ++i) {
    float s = 0.0f;
    for (int k = 0; k < kBlock7; ++k) s += m.a[i >= k ? block7Index(i, k) : block7Index(k, i)] * r[k];
    z[i] = s;
  }
}

}  // namespace frac
