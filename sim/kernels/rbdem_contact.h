#pragma once
// Rod-Bonded DEM contact (Zhang et al., sec. 3.5): the smooth log barrier of IPC (eq. 30) between unbonded elements
// and against planes, as an energy with its first and second derivative in the distance, so the implicit step can
// include it (eq. 12). Frictionless, as in the paper.
//
// Eq. 30 reads E = k_c pi r / 2 (d^ - d)^2 ln(d / d^); ln(d / d^) < 0 inside the barrier, so as printed the energy is
// negative and attracts. We use the IPC sign (Li et al. 2020): E = -k_c pi r / 2 (d^ - d)^2 ln(d / d^) >= 0, zero at
// d = d^ with zero slope and curvature growing to infinity as d -> 0.
#include "core/math.h"

namespace frac {

struct BarrierTerms {
  float energy;
  float slope;      // dE/dd (<= 0: the energy falls as the elements separate)
  float curvature;  // d2E/dd2 (>= 0)
};

// k = k_c pi r / 2 (N/m); d^ = r_i + r_j (or r against a plane). Zero outside the barrier.
FRAC_HD inline BarrierTerms barrier(float d, float dHat, float k) {
  BarrierTerms t{0.0f, 0.0f, 0.0f};
  if (d >= dHat || d <= 0.0f) return t;
  const float gap = dHat - d, logRatio = logBasic(d / dHat), invD = 1.0f / d;  // no libm: CPU = CUDA
  t.energy = -k * gap * gap * logRatio;
  t.slope = -k * (-2.0f * gap * logRatio + gap * gap * invD);
  t.curvature = -k * (2.0f * logRatio - 4.0f * gap * invD - gap * gap * invD * invD);
  return t;
}

// The 3x3 Hessian of E(|x_i - x_j|) with respect to x_i, made positive semi-definite as IPC does: curvature along
// n = (x_i - x_j) / d, and the tangential part slope / d (I - n n^T) dropped, since slope <= 0 makes it negative.
// Stored as n and the curvature: H = c n n^T.
struct BarrierBlock {
  vec3 normal;
  float curvature;
  FRAC_HD vec3 times(const vec3& p) const { return (curvature * glm::dot(normal, p)) * normal; }
};

// k_c pi r / 2 with r the smaller radius of the two (a small element against a large projectile gets its own).
FRAC_HD inline float barrierStiffness(float contactStiffness, float ri, float rj) {
  return contactStiffness * 0.5f * kPi * (ri < rj ? ri : rj);
}

}  // namespace frac
