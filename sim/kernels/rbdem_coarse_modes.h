#pragma once
// The coarse space of rod-bonded DEM's two-level preconditioner (solvers/rbdem/rbdem_coarse.h): each aggregate of
// elements moves as one rigid body, six modes (three translations, three rotations about its reference point), and
// these are the projections of the Gauss-Newton Hessian onto them, per bond and per element, as plain functions.
//
// A rigid motion strains no rod, so a Hessian's smooth, slowly converging part (a beam's bending, a block's sag) lives
// close to these modes: the coarse matrix P^T H P over all aggregates is small (6 per aggregate) and solved exactly.
#include "kernels/block7.h"
#include "kernels/integrate.h"
#include "kernels/rbdem_rod_product.h"

namespace frac {

constexpr int kCoarseModes = 6;
constexpr int kSym6Entries = kCoarseModes * (kCoarseModes + 1) / 2;

// A symmetric 6x6, its lower triangle packed row by row as Block7's (the same index for r >= c).
struct Sym6 {
  float a[kSym6Entries];
};
FRAC_HD constexpr int sym6Index(int r, int c) { return block7Index(r, c); }

// One bond's share of the coarse matrix: its two ends' blocks (modes of the first end's aggregate against
// themselves, the second's likewise) and the coupling (rows: the first end's modes, columns: the second's).
struct CoarseBondBlock {
  Sym6 first, second;
  float coupling[kCoarseModes * kCoarseModes];
};

// One element's share of P^T r.
struct CoarseTerms {
  double m[kCoarseModes];
};

// An element's six coarse modes as changes of its unknowns: translation e_k (k < 3), rotation about e_(k-3) through
// the aggregate's reference point c, dx = e x (x - c) and dq = 1/2 [0, e] q (k >= 3). Zero where the element has no
// aggregate or the unknown is prescribed.
struct CoarseModes {
  vec3 x[kCoarseModes];
  glm::vec4 q[kCoarseModes];
};

// The modes of an element at x with orientation q (its rotation solved for), `axes` its solved position coordinates
// (1), relative to the reference point c.
FRAC_HD inline CoarseModes coarseModes(const vec3& x, const quat& q, const vec3& c, const vec3& axes) {
  CoarseModes m;
  const vec3 d = x - c;
  for (int k = 0; k < 3; ++k) {
    const vec3 e(k == 0 ? 1.0f : 0.0f, k == 1 ? 1.0f : 0.0f, k == 2 ? 1.0f : 0.0f);
    m.x[k] = prescribedOrFree(axes, vec3(0.0f), e);
    m.q[k] = glm::vec4(0.0f);
    m.x[3 + k] = prescribedOrFree(axes, vec3(0.0f), glm::cross(e, d));
    m.q[3 + k] = 0.5f * wxyz(mul(quat(0.0f, e.x, e.y, e.z), q));
  }
  return m;
}

FRAC_HD inline CoarseModes noCoarseModes() {
  CoarseModes m;
  for (int k = 0; k < kCoarseModes; ++k) {
    m.x[k] = vec3(0.0f);
    m.q[k] = glm::vec4(0.0f);
  }
  return m;
}

// P_e^T v for one element (the modes of coarseModes, written out: translation axes . vx; rotation d x vx plus the
// quaternion part 1/2 (w v_v - v_w u + u x v_v) for q = (w, u) and vq = (v_w, v_v)), without forming the modes.
FRAC_HD inline CoarseTerms restrictToModes(const vec3& x, const quat& q, const vec3& c, const vec3& axes,
                                           const vec3& vx, const glm::vec4& vq) {
  const vec3 solved = prescribedOrFree(axes, vec3(0.0f), vx);
  const vec3 u(q.x, q.y, q.z), vv(vq[1], vq[2], vq[3]);
  const vec3 turn = glm::cross(x - c, solved) + 0.5f * (q.w * vv - vq[0] * u + glm::cross(u, vv));
  return {{double(solved.x), double(solved.y), double(solved.z), double(turn.x), double(turn.y), double(turn.z)}};
}

// dx, dq += P_e t for coarse amounts t (translation t0-2, rotation t3-5): the transpose of restrictToModes.
FRAC_HD inline void prolongFromModes(const vec3& x, const quat& q, const vec3& c, const vec3& axes, const float t[6],
                                     vec3& dx, glm::vec4& dq) {
  const vec3 move(t[0], t[1], t[2]), turn(t[3], t[4], t[5]);
  dx += prescribedOrFree(axes, vec3(0.0f), move + glm::cross(turn, x - c));
  dq += 0.5f * wxyz(mul(quat(0.0f, turn.x, turn.y, turn.z), q));
}

// The bond's share from its words (rbdem_rod_product.h): u^T H_b w = sum_r kG_r gamma_r(u) gamma_r(w) + kB_r
// omega_r(u) omega_r(w), with u and w any of the two ends' modes (rodEndRates).
template <class Word>
FRAC_HD inline void rodCoarseBlock(const Word& word, const CoarseModes& first, const CoarseModes& second,
                                   CoarseBondBlock& out) {
  float rateI[kCoarseModes][6], rateJ[kCoarseModes][6], k[6];
  for (int r = 0; r < 3; ++r) {
    k[r] = word(kWordStretchShear + r);
    k[3 + r] = word(kWordBendTwist + r);
  }
  for (int m = 0; m < kCoarseModes; ++m) {
    rodEndRates(word, false, first.x[m], first.q[m], rateI[m], rateI[m] + 3);
    rodEndRates(word, true, second.x[m], second.q[m], rateJ[m], rateJ[m] + 3);
  }
  for (int a = 0; a < kCoarseModes; ++a)
    for (int b = 0; b < kCoarseModes; ++b) {
      float ii = 0.0f, jj = 0.0f, ij = 0.0f;
      for (int s = 0; s < 6; ++s) {
        ii += k[s] * rateI[a][s] * rateI[b][s];
        jj += k[s] * rateJ[a][s] * rateJ[b][s];
        ij += k[s] * rateI[a][s] * rateJ[b][s];
      }
      if (b <= a) {
        out.first.a[sym6Index(a, b)] = ii;
        out.second.a[sym6Index(a, b)] = jj;
      }
      out.coupling[a * kCoarseModes + b] = ij;
    }
}

// P_e^T D P_e for one element's own 7x7 block D (inertia, eq. 31, barriers: the terms that couple it to no other
// element).
FRAC_HD inline Sym6 coarseProject(const Block7& d, const CoarseModes& m) {
  Sym6 out;
  for (int b = 0; b < kCoarseModes; ++b) {
    const float u[kBlock7] = {m.x[b].x, m.x[b].y, m.x[b].z, m.q[b][0], m.q[b][1], m.q[b][2], m.q[b][3]};
    float w[kBlock7];
    block7Times(d, u, w);
    for (int a = b; a < kCoarseModes; ++a)
      out.a[sym6Index(a, b)] = (m.x[a].x * w[0] + m.x[a].y * w[1] + m.x[a].z * w[2]) +
                               (m.q[a][0] * w[3] + m.q[a][1] * w[4] + m.q[a][2] * w[5] + m.q[a][3] * w[6]);
  }
  return out;
}

}  // namespace frac
