#pragma once
// The rod bond's Gauss-Newton Hessian times a direction (supplement eq. 15: J^T (l C) J p, every block), computed
// from the bond's linearisation as 47 plain numbers ("words": the Jacobians and l C of rbdem_rod.h) and written
// once over a number type T: float for one bond (every backend), or a CPU vector holding 8 bonds' floats
// (solvers/rbdem/rbdem_lanes.cpp), whose lanes round exactly as float does. The operations and their order are
// those of rotate(), glm's dot and cross and Mat34, so every T gives the bits rodHessianTimes gives.
//
// Bonds keep their words in blocks of 8 bonds, word by word (RodWordBlock): the CPU reads a block's word as one
// vector, and a GPU's threads b .. b + 7 read neighbouring floats.
#include "kernels/block7.h"
#include "kernels/rbdem_rod.h"

namespace frac {

constexpr int kRodWords = 47;
enum RodWordIndex : int {
  kWordFrame = 0,          // Q (w, x, y, z): A = R(Q)^T / l
  kWordInvLength = 4,      // 1 / l
  kWordShearQ = 5,         // dGamma/dq, 3 rows of 4 (w, x, y, z)
  kWordBendI = 17,         // dOmega/dq_i
  kWordBendJ = 29,         // dOmega/dq_j
  kWordStretchShear = 41,  // l C^Gamma
  kWordBendTwist = 44,     // l C^Omega
};

constexpr int kRodWordLanes = 8;
struct RodWordBlock {
  float word[kRodWords][kRodWordLanes];
};

FRAC_HD inline int rodWordBlocks(int bonds) { return (bonds + kRodWordLanes - 1) / kRodWordLanes; }

// A bond's linearisation as its 47 words.
FRAC_HD inline void packRodWords(const RodJacobian& jac, const RodStiffness& k, float word[kRodWords]) {
  word[kWordFrame] = jac.frame.w;
  word[kWordFrame + 1] = jac.frame.x;
  word[kWordFrame + 2] = jac.frame.y;
  word[kWordFrame + 3] = jac.frame.z;
  word[kWordInvLength] = jac.invLength;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) {
      word[kWordShearQ + 4 * r + c] = jac.shearQ.row[r][c];
      word[kWordBendI + 4 * r + c] = jac.bendI.row[r][c];
      word[kWordBendJ + 4 * r + c] = jac.bendJ.row[r][c];
    }
  for (int a = 0; a < 3; ++a) {
    word[kWordStretchShear + a] = k.stretchShear[a];
    word[kWordBendTwist + a] = k.bendTwist[a];
  }
}

// Bond b's linearisation into its block.
FRAC_HD inline void storeRodWords(RodWordBlock* blocks, int b, const RodJacobian& jac, const RodStiffness& k) {
  float word[kRodWords];
  packRodWords(jac, k, word);
  RodWordBlock& block = blocks[b / kRodWordLanes];
  for (int w = 0; w < kRodWords; ++w) block.word[w][b % kRodWordLanes] = word[w];
}

// rotate(q, v) of core/math.h on components: v + w t + u x t with t = 2 u x v, u = (x, y, z) of q.
template <class T>
FRAC_HD inline void rotateComponents(const T& w, const T& ux, const T& uy, const T& uz, const T v[3], T out[3]) {
  const T tx = 2.0f * (uy * v[2] - v[1] * uz), ty = 2.0f * (uz * v[0] - v[2] * ux), tz = 2.0f * (ux * v[1] - v[0] * uy);
  out[0] = v[0] + w * tx + (uy * tz - ty * uz);
  out[1] = v[1] + w * ty + (uz * tx - tz * ux);
  out[2] = v[2] + w * tz + (ux * ty - tx * uy);
}

// out = H_b p. word(k) gives word k as a T; p and out hold x_i (0-2), q_i (3-6, w x y z), x_j (7-9), q_j (10-13).
template <class T, class Word>
FRAC_HD inline void rodProductWords(const Word& word, const T* p, T* out) {
  const T fw = word(kWordFrame), fx = word(kWordFrame + 1), fy = word(kWordFrame + 2), fz = word(kWordFrame + 3);
  const T invLength = word(kWordInvLength);
  // dGamma = A (dx_j - dx_i) + dGamma/dq (dq_i + dq_j), A x = rotate(conjugate(Q), x) / l
  const T d[3] = {p[7] - p[0], p[8] - p[1], p[9] - p[2]};
  T stretch[3];
  rotateComponents<T>(fw, -fx, -fy, -fz, d, stretch);
  T qSum[4];
  for (int c = 0; c < 4; ++c) qSum[c] = p[3 + c] + p[10 + c];
  T yGamma[3], yOmega[3];
  for (int r = 0; r < 3; ++r) {
    const int s = kWordShearQ + 4 * r, bi = kWordBendI + 4 * r, bj = kWordBendJ + 4 * r;
    const T shear = (word(s) * qSum[0] + word(s + 1) * qSum[1]) + (word(s + 2) * qSum[2] + word(s + 3) * qSum[3]);
    const T bendI = (word(bi) * p[3] + word(bi + 1) * p[4]) + (word(bi + 2) * p[5] + word(bi + 3) * p[6]);
    const T bendJ = (word(bj) * p[10] + word(bj + 1) * p[11]) + (word(bj + 2) * p[12] + word(bj + 3) * p[13]);
    yGamma[r] = word(kWordStretchShear + r) * (invLength * stretch[r] + shear);
    yOmega[r] = word(kWordBendTwist + r) * (bendI + bendJ);
  }
  // J^T y: x_j gets A^T y_Gamma = rotate(Q, y_Gamma) / l, x_i its negative; q_i and q_j the rows' combinations
  T force[3];
  rotateComponents<T>(fw, fx, fy, fz, yGamma, force);
  for (int a = 0; a < 3; ++a) {
    out[7 + a] = invLength * force[a];
    out[a] = -out[7 + a];
  }
  for (int c = 0; c < 4; ++c) {
    const T viaShear = (yGamma[0] * word(kWordShearQ + c) + yGamma[1] * word(kWordShearQ + 4 + c)) +
                       yGamma[2] * word(kWordShearQ + 8 + c);
    out[3 + c] = viaShear + ((yOmega[0] * word(kWordBendI + c) + yOmega[1] * word(kWordBendI + 4 + c)) +
                             yOmega[2] * word(kWordBendI + 8 + c));
    out[10 + c] = viaShear + ((yOmega[0] * word(kWordBendJ + c) + yOmega[1] * word(kWordBendJ + 4 + c)) +
                              yOmega[2] * word(kWordBendJ + 8 + c));
  }
}

// Adds this bond's share of one end's 7x7 diagonal Hessian block (J_e^T (l C) J_e, the end e's unknowns x_e, q_e)
// to `m`, from the same words: with A = R(Q)^T / l, m_r = R(Q) e_r (row r of l A), S = dGamma/dq and B_e =
// dOmega/dq_e, the blocks are xx = sum_r kG_r m_r m_r^T / l^2, xq = -+ sum_r kG_r m_r S_r^T / l (- for the first
// end, whose dGamma/dx is -A) and qq = sum_r (kG_r S_r S_r^T + kB_r B_e,r B_e,r^T).
template <class Word>
FRAC_HD inline void rodBlockWords(const Word& word, bool secondEnd, Block7& m) {
  const quat frame(word(kWordFrame), word(kWordFrame + 1), word(kWordFrame + 2), word(kWordFrame + 3));
  const float invLength = word(kWordInvLength), sign = secondEnd ? 1.0f : -1.0f;
  const int bend = secondEnd ? kWordBendJ : kWordBendI;
  for (int r = 0; r < 3; ++r) {
    const vec3 turned = rotate(frame, vec3(r == 0 ? 1.0f : 0.0f, r == 1 ? 1.0f : 0.0f, r == 2 ? 1.0f : 0.0f));
    const float row[3] = {turned.x, turned.y, turned.z};
    const float kG = word(kWordStretchShear + r), kB = word(kWordBendTwist + r);
    const float xx = kG * invLength * invLength, xq = sign * kG * invLength;
    float shear[4], bent[4];
    for (int c = 0; c < 4; ++c) {
      shear[c] = word(kWordShearQ + 4 * r + c);
      bent[c] = word(bend + 4 * r + c);
    }
    for (int a = 0; a < 3; ++a) {
      for (int b = 0; b <= a; ++b) m.a[block7Index(a, b)] += xx * row[a] * row[b];
    }
    for (int c = 0; c < 4; ++c) {
      for (int a = 0; a < 3; ++a) m.a[block7Index(3 + c, a)] += xq * shear[c] * row[a];
      for (int d = 0; d <= c; ++d) m.a[block7Index(3 + c, 3 + d)] += kG * shear[c] * shear[d] + kB * bent[c] * bent[d];
    }
  }
}

// The bond's strain rates J_e u for a change u of one end's unknowns alone (ux, uq; the other end's held): the
// linear part of Gamma, (+-A ux + dGamma/dq uq) (+ for the second end), and of Omega, dOmega/dq_e uq, from the same
// words. With them a bond's Hessian between two such changes is u^T H_b w = sum_r kG_r gamma_r(u) gamma_r(w) +
// kB_r omega_r(u) omega_r(w) (the coarse space of rbdem_coarse.h projects it so).
template <class Word>
FRAC_HD inline void rodEndRates(const Word& word, bool secondEnd, const vec3& ux, const glm::vec4& uq, float gamma[3],
                                float omega[3]) {
  const quat frame(word(kWordFrame), word(kWordFrame + 1), word(kWordFrame + 2), word(kWordFrame + 3));
  const vec3 stretch = rotate(conjugate(frame), ux) * (secondEnd ? word(kWordInvLength) : -word(kWordInvLength));
  const int bend = secondEnd ? kWordBendJ : kWordBendI;
  for (int r = 0; r < 3; ++r) {
    float shear = 0.0f, bent = 0.0f;
    for (int c = 0; c < 4; ++c) {
      shear += word(kWordShearQ + 4 * r + c) * uq[c];
      bent += word(bend + 4 * r + c) * uq[c];
    }
    gamma[r] = stretch[r] + shear;
    omega[r] = bent;
  }
}

FRAC_HD inline void dofsToArray(const RodDofs& d, float out[14]) {
  for (int a = 0; a < 3; ++a) {
    out[a] = d.xI[a];
    out[7 + a] = d.xJ[a];
  }
  for (int c = 0; c < 4; ++c) {
    out[3 + c] = d.qI[c];
    out[10 + c] = d.qJ[c];
  }
}

FRAC_HD inline RodDofs dofsFromArray(const float v[14]) {
  return {vec3(v[0], v[1], v[2]), glm::vec4(v[3], v[4], v[5], v[6]), vec3(v[7], v[8], v[9]),
          glm::vec4(v[10], v[11], v[12], v[13])};
}

// Gauss-Newton Hessian times a direction p for one bond's Jacobians and stiffness (the tests' entry point).
FRAC_HD inline RodDofs rodHessianTimes(const RodJacobian& jac, const RodStiffness& k, const RodDofs& p) {
  float word[kRodWords], in[14], out[14];
  packRodWords(jac, k, word);
  dofsToArray(p, in);
  rodProductWords<float>([&](int w) { return word[w]; }, in, out);
  return dofsFromArray(out);
}

}  // namespace frac
