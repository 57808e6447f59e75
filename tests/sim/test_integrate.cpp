// Velocity Verlet with the quaternion update (Lu et al. 2021, Algorithm 1).
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <algorithm>
#include <cmath>

#include "kernels/integrate.h"

using namespace frac;

TEST_CASE("a free element with constant angular velocity keeps |q| = 1 and turns by w t") {
  vec3 p(0.0f), pLow(0.0f), v(0.0f), w(0.0f, 0.0f, 3.0f);
  quat q(1, 0, 0, 0);
  const float dt = 1e-4f;
  const int steps = 20000;  // t = 2 s, angle 6 rad
  for (int s = 0; s < steps; ++s) {
    halfKick(v, w, vec3(0.0f), vec3(0.0f), 1.0f, 1.0f, dt);
    drift(p, pLow, q, v, w, dt);
    halfKick(v, w, vec3(0.0f), vec3(0.0f), 1.0f, 1.0f, dt);
  }
  const double norm = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  CHECK(norm == RelApprox(1.0).epsilon(1e-6));
  const vec3 x = rotate(q, vec3(1, 0, 0));
  const double angle = std::atan2(x.y, x.x);
  const double expected = std::remainder(3.0 * steps * dt, 2 * M_PI);
  CHECK(angle == RelApprox(expected).epsilon(1e-3));
  CHECK(std::abs(x.z) < 1e-5);
}

TEST_CASE("constant force gives x = a t^2 / 2 exactly with velocity Verlet") {
  vec3 p(0.0f), pLow(0.0f), v(0.0f), w(0.0f);
  quat q(1, 0, 0, 0);
  const vec3 force(0.0f, -2.0f, 0.0f);  // invMass 0.5 -> a = -1
  const float dt = 1e-3f;
  for (int s = 0; s < 1000; ++s) {
    halfKick(v, w, force, vec3(0.0f), 0.5f, 1.0f, dt);
    drift(p, pLow, q, v, w, dt);
    halfKick(v, w, force, vec3(0.0f), 0.5f, 1.0f, dt);
  }
  // Exact up to float rounding: 2,000 half kicks of 5e-4 summed in float drift by at most 2,000 x 2^-24 ~ 1.2e-4.
  CHECK(p.y == RelApprox(-0.5).epsilon(1.2e-4));
  CHECK(v.y == RelApprox(-1.0).epsilon(1.2e-4));
}

TEST_CASE("a slow element 1 m from the origin moves by v t: the drift keeps what float rounding drops") {
  // A step moves it 1e-10 m, less than half the float spacing at 1 m (6e-8 m): a plain float sum would leave it
  // where it started. Exact: x = 1 + v t = 1 + 1e-5 m after 1e5 steps of 1e-5 s at 1e-5 m/s.
  vec3 p(1.0f, -1.0f, 0.25f), pLow(0.0f), w(0.0f);
  const vec3 v(1e-5f, 2e-5f, -1e-5f);
  quat q(1, 0, 0, 0);
  const float dt = 1e-5f;
  const int steps = 100000;
  for (int s = 0; s < steps; ++s) drift(p, pLow, q, v, w, dt);
  const double start[3] = {1.0, -1.0, 0.25};
  for (int c = 0; c < 3; ++c) {
    const double exact = double(dt * v[c]) * steps;  // each step adds the float dt v, rounded once
    const double moved = (double(p[c]) - start[c]) + double(pLow[c]);
    // The remainder is carried, not dropped (a plain float sum moves 0 m): each step rounds the low part's sum once,
    // half a float spacing at its size (below 6e-8 m: 3.5e-15 m), so 1e5 steps stay within 3.5e-10 m.
    CHECK(std::abs(moved - exact) < 3.5e-10);
    // and the high part is the float nearest the position
    const float spacing = std::nextafter(std::abs(p[c]), 4.0f) - std::abs(p[c]);
    CHECK(std::abs(double(p[c]) - (start[c] + exact)) <= 0.5 * double(spacing));
  }
}

TEST_CASE("rotation vector <-> quaternion without libm: against double-precision sin, cos and atan2 for 0 to 3.1 rad") {
  // Lu eq. 13's rotation vector; both directions are libm-free so that CPU and CUDA round alike. Reference: the
  // closed forms q = (cos(t/2), sin(t/2) a), t = 2 atan2(|Im q|, w), in double.
  const frac::vec3 axes[3] = {frac::vec3(1, 0, 0), glm::normalize(frac::vec3(1, 2, -3)), glm::normalize(frac::vec3(-0.3f, 0.1f, 0.9f))};
  double worstQuat = 0.0, worstVector = 0.0;
  for (const frac::vec3& axis : axes)
    for (int k = 0; k <= 310; ++k) {
      const double angle = 0.01 * k;
      const frac::vec3 r = float(angle) * axis;
      const frac::quat q = frac::fromRotationVector(r);
      const double h = 0.5 * double(glm::length(r));
      const double expected[4] = {std::cos(h), std::sin(h) * axis.x, std::sin(h) * axis.y, std::sin(h) * axis.z};
      const double got[4] = {q.w, q.x, q.y, q.z};
      for (int c = 0; c < 4; ++c) worstQuat = std::max(worstQuat, std::abs(got[c] - expected[c]));
      const frac::vec3 back = frac::toRotationVector(q);
      const double s = std::sqrt(double(q.x) * q.x + double(q.y) * q.y + double(q.z) * q.z);
      const double theta = 2.0 * std::atan2(s, double(q.w));
      for (int c = 0; c < 3; ++c) {
        const double reference = s > 0.0 ? theta / s * double(q[c]) : 0.0;  // glm quat: q[0..2] = x, y, z
        worstVector = std::max(worstVector, std::abs(double(back[c]) - reference));
      }
    }
  MESSAGE("largest error: quaternion " << worstQuat << ", rotation vector " << worstVector << " rad");
  CHECK(worstQuat < 1e-6);     // a few float ulp of 1
  CHECK(worstVector < 2e-6);   // a few float ulp of pi
}
