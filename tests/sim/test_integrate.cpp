// Velocity Verlet with the quaternion update (Lu et al. 2021, Algorithm 1).
#include <doctest/doctest.h>

#include <cmath>

#include "kernels/integrate.h"

using namespace frac;

TEST_CASE("a free element with constant angular velocity keeps |q| = 1 and turns by w t") {
  vec3 p(0.0f), v(0.0f), w(0.0f, 0.0f, 3.0f);
  quat q(1, 0, 0, 0);
  const float dt = 1e-4f;
  const int steps = 20000;  // t = 2 s, angle 6 rad
  for (int s = 0; s < steps; ++s) {
    halfKick(v, w, vec3(0.0f), vec3(0.0f), 1.0f, 1.0f, dt);
    drift(p, q, v, w, dt);
    halfKick(v, w, vec3(0.0f), vec3(0.0f), 1.0f, 1.0f, dt);
  }
  const double norm = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  CHECK(norm == doctest::Approx(1.0).epsilon(1e-6));
  const vec3 x = rotate(q, vec3(1, 0, 0));
  const double angle = std::atan2(x.y, x.x);
  const double expected = std::remainder(3.0 * steps * dt, 2 * M_PI);
  CHECK(angle == doctest::Approx(expected).epsilon(1e-3));
  CHECK(std::abs(x.z) < 1e-5);
}

TEST_CASE("constant force gives x = a t^2 / 2 exactly with velocity Verlet") {
  vec3 p(0.0f), v(0.0f), w(0.0f);
  quat q(1, 0, 0, 0);
  const vec3 force(0.0f, -2.0f, 0.0f);  // invMass 0.5 -> a = -1
  const float dt = 1e-3f;
  for (int s = 0; s < 1000; ++s) {
    halfKick(v, w, force, vec3(0.0f), 0.5f, 1.0f, dt);
    drift(p, q, v, w, dt);
    halfKick(v, w, force, vec3(0.0f), 0.5f, 1.0f, dt);
  }
  CHECK(p.y == doctest::Approx(-0.5).epsilon(1e-4));
  CHECK(v.y == doctest::Approx(-1.0).epsilon(1e-5));
}
