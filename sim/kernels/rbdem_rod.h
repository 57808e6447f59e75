#pragma once
// The rod bond of Rod-Bonded DEM (Zhang et al., sec. 3.3): a Cosserat rod element rigidly attached to two elements,
// with its stretch/shear strain Gamma (eq. 19) and Darboux vector Omega (eq. 23), their energies (eq. 18, 22), the
// exact first derivatives (supplement eq. 9-13) and the Gauss-Newton Hessian blocks (supplement eq. 15), and the bond
// stresses of eq. 24-25. Pure functions of plain values, host and device.
//
// Quaternions enter as 4-vectors (w, x, y, z): the implicit step solves for q_i in R^4 (eq. 12), normalised after.
// Where we depart from the paper's text:
//  - Omega is taken in the rod's frame q_ij q0_ij, like Gamma (eq. 19), not in q_ij's: only then are its third
//    component the twist about the bond and the first two the bending (sec. 3.4 reads them so); for q0 = identity
//    the two are equal.
//  - the normal stress of eq. 24 divides by the section S = pi r^2, not by the effective shear area A = kappa S.
#include <cstdint>

#include "core/math.h"

namespace frac {

enum class RodFracture : uint8_t { Bond, Hydrostatic };  // sec. 3.4 (eq. 24-25), or eq. 32 (Hertzian cones)
enum class RodIntegration : uint8_t { Implicit, Explicit };  // Algorithm 1, or velocity Verlet (Ours_exp)
// The implicit solve's preconditioner: each element's 7x7 diagonal block inverted (ours), or its diagonal (Zhang's
// Jacobi), or the blocks plus an exact solve on the aggregates' rigid modes (ours, solvers/rbdem/rbdem_coarse.h).
enum class RodPreconditioner : uint8_t { Block, Jacobi, TwoLevel };

// (w, x, y, z) of a quaternion and back.
FRAC_HD inline glm::vec4 wxyz(const quat& q) { return glm::vec4(q.w, q.x, q.y, q.z); }
FRAC_HD inline quat fromWxyz(const glm::vec4& v) { return quat(v.x, v.y, v.z, v.w); }

// A 3x4 matrix as three rows (each in (w, x, y, z) column order).
struct Mat34 {
  glm::vec4 row[3];
  FRAC_HD vec3 apply(const glm::vec4& v) const {
    return vec3(glm::dot(row[0], v), glm::dot(row[1], v), glm::dot(row[2], v));
  }
  FRAC_HD glm::vec4 applyTransposed(const vec3& y) const { return y.x * row[0] + y.y * row[1] + y.z * row[2]; }
};

// Rows 1-3 (the imaginary part) of the left-product matrix L(a): a (x) b = L(a) b.
FRAC_HD inline Mat34 leftProductIm(const quat& a) {
  return {{glm::vec4(a.x, a.w, -a.z, a.y), glm::vec4(a.y, a.z, a.w, -a.x), glm::vec4(a.z, -a.y, a.x, a.w)}};
}
// Rows 1-3 of the right-product matrix R(b): a (x) b = R(b) a.
FRAC_HD inline Mat34 rightProductIm(const quat& b) {
  return {{glm::vec4(b.x, b.w, b.z, -b.y), glm::vec4(b.y, -b.z, b.w, b.x), glm::vec4(b.z, b.y, -b.x, b.w)}};
}
// M (I - u u^T) s for a 3x4 M, a unit 4-vector u and a scalar s.
FRAC_HD inline Mat34 projectColumns(const Mat34& m, const glm::vec4& u, float s) {
  Mat34 out;
  for (int r = 0; r < 3; ++r) out.row[r] = s * (m.row[r] - glm::dot(m.row[r], u) * u);
  return out;
}
// R^T M: the rows of M rotated into the frame of R (columns of R are the frame's axes).
FRAC_HD inline Mat34 rotateRows(const quat& frame, const Mat34& m) {
  // (R^T M)_r = sum_k R_kr M_k = (R^T applied to the column vectors of M); rotate each column by conj(frame).
  const quat inv = conjugate(frame);
  Mat34 out;
  for (int c = 0; c < 4; ++c) {
    const vec3 col = rotate(inv, vec3(m.row[0][c], m.row[1][c], m.row[2][c]));
    out.row[0][c] = col.x;
    out.row[1][c] = col.y;
    out.row[2][c] = col.z;
  }
  return out;
}

// Rest data of one rod bond (sec. 4.1): length l, section radius min(r_i, r_j), and q0_ij with
// R(q0)^T (x_j - x_i) / l = e3 at rest (eq. 20), stored once per bond.
struct RodRest {
  quat q0;
  float length;
  float radius;
  float unused[2] = {0.0f, 0.0f};
};

// The diagonal stiffness matrices of eq. 17: C^Gamma = (kappa G S, kappa G S, E S), C^Omega = (E I, E I, G J), each
// already multiplied by the rod length l (the energies are l/2 Gamma^T C Gamma, eq. 18 and 22).
struct RodStiffness {
  vec3 stretchShear;  // l C^Gamma
  vec3 bendTwist;     // l C^Omega
};

FRAC_HD inline RodStiffness rodStiffness(float young, float shear, float kappa, const RodRest& rest) {
  const float r = rest.radius, s = kPi * r * r, inertia = 0.25f * kPi * r * r * r * r, polar = 2.0f * inertia;
  const float l = rest.length;
  return {l * vec3(kappa * shear * s, kappa * shear * s, young * s),
          l * vec3(young * inertia, young * inertia, shear * polar)};
}

// q0 of eq. 20 for a bond whose elements have orientations qi, qj now: the rotation taking e3 to the bond direction
// seen from the rod's middle frame q_ij (eq. 21).
FRAC_HD inline RodRest rodRest(const vec3& xi, const vec3& xj, const quat& qi, const quat& qj, float ri, float rj) {
  RodRest rest;
  const vec3 d = xj - xi;
  rest.length = sqrtf(glm::dot(d, d));
  rest.radius = ri < rj ? ri : rj;
  const quat qm = normalized(quat(0.5f * (qi.w + qj.w), 0.5f * (qi.x + qj.x), 0.5f * (qi.y + qj.y),
                                  0.5f * (qi.z + qj.z)));
  const vec3 t = rotate(conjugate(qm), d / rest.length);  // unit, in q_ij's frame
  // shortest arc e3 -> t: q = normalize(1 + e3.t, e3 x t); opposite directions: a half turn about x
  const vec3 e3(0.0f, 0.0f, 1.0f);
  const float c = glm::dot(e3, t);
  rest.q0 = c < -0.999999f ? quat(0.0f, 1.0f, 0.0f, 0.0f) : normalized(quat(1.0f + c, -t.y, t.x, 0.0f));
  return rest;
}

// Strains and their Jacobians at one state (the Gauss-Newton linearisation point).
//   Gamma = R(Q)^T (x_j - x_i) / l - e3, Q = q_ij q0 (eq. 19),   Omega = 2/l R(q0)^T Im(conj(q_ij) (q_j - q_i)) (eq. 23)
//   dGamma/dx_j = A = R(Q)^T / l = -dGamma/dx_i (supplement eq. 10)
//   dGamma/dq_i = dGamma/dq_j = shearQ (eq. 11; q_ij depends on q_i + q_j only)
//   dOmega/dq_i = bendI, dOmega/dq_j = bendJ (eq. 13)
struct RodJacobian {
  quat frame;  // Q: A = R(Q)^T / l
  float invLength;
  Mat34 shearQ, bendI, bendJ;
  FRAC_HD vec3 stretchOf(const vec3& dxI, const vec3& dxJ) const {
    return invLength * rotate(conjugate(frame), dxJ - dxI);
  }
};

struct RodStrain {
  vec3 gamma;  // eq. 19
  vec3 omega;  // eq. 23 (in the rod frame)
};

// d: x_j - x_i (BdemElementView's separation).
FRAC_HD inline RodStrain rodStrain(const vec3& d, const quat& qi, const quat& qj, const RodRest& rest,
                                   RodJacobian* jacobian = nullptr) {
  const glm::vec4 qm = 0.5f * (wxyz(qi) + wxyz(qj));  // eq. 21
  const float qmNorm = sqrtf(glm::dot(qm, qm));
  const glm::vec4 u = qm / qmNorm;
  const quat q = fromWxyz(u);
  const quat frame = mul(q, rest.q0);
  const float invL = 1.0f / rest.length;
  RodStrain s;
  s.gamma = invL * rotate(conjugate(frame), d) - vec3(0.0f, 0.0f, 1.0f);
  const quat delta = fromWxyz(wxyz(qj) - wxyz(qi));
  const quat g = mul(conjugate(q), delta);
  s.omega = (2.0f * invL) * rotate(conjugate(rest.q0), vec3(g.x, g.y, g.z));
  if (jacobian) {
    RodJacobian& jac = *jacobian;
    jac.frame = frame;
    jac.invLength = invL;
    // f(q) = Im(conj(q) [0, d] q): df = Im(L(conj(q) [0,d]) dq + R([0,d] q) C dq), C = diag(1, -1, -1, -1).
    const quat v(0.0f, d.x, d.y, d.z);
    Mat34 rightC = rightProductIm(mul(v, q));
    for (int r = 0; r < 3; ++r) rightC.row[r] *= glm::vec4(1.0f, -1.0f, -1.0f, -1.0f);
    Mat34 df = leftProductIm(mul(conjugate(q), v));
    for (int r = 0; r < 3; ++r) df.row[r] += rightC.row[r];
    // dq_ij / dq_i = (I - q q^T) / (2 |q_m|) (supplement eq. 12 with dq_m / dq_i = 1/2)
    const float half = 0.5f / qmNorm;
    jac.shearQ = rotateRows(rest.q0, projectColumns(df, u, invL * half));
    // g = conj(q) delta: dg = R(delta) C dq + L(conj(q)) d(delta)
    Mat34 rd = rightProductIm(delta);
    for (int r = 0; r < 3; ++r) rd.row[r] *= glm::vec4(1.0f, -1.0f, -1.0f, -1.0f);
    const Mat34 viaMiddle = projectColumns(rd, u, half);
    const Mat34 lq = leftProductIm(conjugate(q));
    Mat34 bi, bj;
    for (int r = 0; r < 3; ++r) {
      bi.row[r] = 2.0f * invL * (viaMiddle.row[r] - lq.row[r]);
      bj.row[r] = 2.0f * invL * (viaMiddle.row[r] + lq.row[r]);
    }
    jac.bendI = rotateRows(rest.q0, bi);
    jac.bendJ = rotateRows(rest.q0, bj);
  }
  return s;
}

FRAC_HD inline float rodEnergy(const RodStrain& s, const RodStiffness& k) {
  return 0.5f * (glm::dot(s.gamma, k.stretchShear * s.gamma) + glm::dot(s.omega, k.bendTwist * s.omega));
}

// The 14 unknowns of one bond (or their gradient, or a direction): x_i, q_i, x_j, q_j.
struct RodDofs {
  vec3 xI;
  glm::vec4 qI;
  vec3 xJ;
  glm::vec4 qJ;
};

// J^T (y_gamma, y_omega): maps strain-space vectors back to the 14 unknowns.
FRAC_HD inline RodDofs rodJacobianTransposed(const RodJacobian& jac, const vec3& yGamma, const vec3& yOmega) {
  RodDofs out;
  out.xJ = jac.invLength * rotate(jac.frame, yGamma);
  out.xI = -out.xJ;
  const glm::vec4 viaShear = jac.shearQ.applyTransposed(yGamma);
  out.qI = viaShear + jac.bendI.applyTransposed(yOmega);
  out.qJ = viaShear + jac.bendJ.applyTransposed(yOmega);
  return out;
}

// Gradient of eq. 18 + 22 (the negative forces and torque parameters of eq. 26-27 and supplement eq. 14).
FRAC_HD inline RodDofs rodGradient(const RodStrain& s, const RodJacobian& jac, const RodStiffness& k) {
  return rodJacobianTransposed(jac, k.stretchShear * s.gamma, k.bendTwist * s.omega);
}

// The diagonal of the Gauss-Newton Hessian (the Jacobi preconditioner's share of this bond).
FRAC_HD inline RodDofs rodHessianDiagonal(const RodJacobian& jac, const RodStiffness& k) {
  RodDofs d;
  // x columns: A = R(Q)^T / l, column c of A is row c of R(Q) / l: sum_r kG_r A_rc^2
  const float il2 = jac.invLength * jac.invLength;
  for (int c = 0; c < 3; ++c) {
    vec3 axis(0.0f);
    axis[c] = 1.0f;
    const vec3 column = rotate(conjugate(jac.frame), axis);  // A e_c * l
    d.xI[c] = il2 * glm::dot(k.stretchShear, column * column);
  }
  d.xJ = d.xI;
  for (int c = 0; c < 4; ++c) {
    float sumI = 0.0f, sumJ = 0.0f;
    for (int r = 0; r < 3; ++r) {
      const float g = k.stretchShear[r] * jac.shearQ.row[r][c] * jac.shearQ.row[r][c];
      sumI += g + k.bendTwist[r] * jac.bendI.row[r][c] * jac.bendI.row[r][c];
      sumJ += g + k.bendTwist[r] * jac.bendJ.row[r][c] * jac.bendJ.row[r][c];
    }
    d.qI[c] = sumI;
    d.qJ[c] = sumJ;
  }
  return d;
}

// Torque (world frame) from a torque parameter T~ = -dE/dq (eq. 28): [0, T] = 1/2 T~ (x) conj(q).
FRAC_HD inline vec3 torqueFromParameter(const glm::vec4& parameter, const quat& q) {
  const quat t = mul(fromWxyz(parameter), conjugate(q));
  return 0.5f * vec3(t.x, t.y, t.z);
}

// The bond's largest normal and shear stress on its section (eq. 24-25) from the force and torque decomposition of
// eq. 29: normal force E S Gamma_3 (tension positive), shear force kappa G S |Gamma_12|, bending and twisting torques
// from the Darboux parts, the larger of the two ends' (Brown et al. via sec. 3.4).
struct RodStress {
  float sigma;  // Pa, tension positive
  float tau;    // Pa
};

FRAC_HD inline RodStress rodStress(const RodStrain& s, const RodJacobian& jac, const RodStiffness& k, const quat& qi,
                                   const quat& qj, const RodRest& rest) {
  const float r = rest.radius, area = kPi * r * r, inertia = 0.25f * kPi * r * r * r * r, polar = 2.0f * inertia;
  const float invL = 1.0f / rest.length;
  const float normalForce = invL * k.stretchShear.z * s.gamma.z;
  const vec3 shearPart = invL * k.stretchShear * vec3(s.gamma.x, s.gamma.y, 0.0f);
  const float shearForce = sqrtf(glm::dot(shearPart, shearPart));
  const vec3 bendY = k.bendTwist * vec3(s.omega.x, s.omega.y, 0.0f);
  const vec3 twistY = k.bendTwist * vec3(0.0f, 0.0f, s.omega.z);
  const float bendI = glm::length(torqueFromParameter(jac.bendI.applyTransposed(bendY), qi));
  const float bendJ = glm::length(torqueFromParameter(jac.bendJ.applyTransposed(bendY), qj));
  const float twistI = glm::length(torqueFromParameter(jac.bendI.applyTransposed(twistY), qi));
  const float twistJ = glm::length(torqueFromParameter(jac.bendJ.applyTransposed(twistY), qj));
  RodStress out;
  out.sigma = normalForce / area + (bendI > bendJ ? bendI : bendJ) * r / inertia;
  out.tau = 4.0f * shearForce / (3.0f * area) + (twistI > twistJ ? twistI : twistJ) * r / polar;
  return out;
}

}  // namespace frac
