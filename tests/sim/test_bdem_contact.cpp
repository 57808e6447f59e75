// Contact model (Lu et al. 2021, eq. 20-27): restitution of a linear spring-dashpot and Coulomb friction, against
// the closed-form answers of rigid-body mechanics.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <cmath>

#include "bdem_test_scenes.h"
#include "solvers/bdem/bdem_solver.h"

using namespace frac;

TEST_CASE("a sphere bouncing on the ground leaves with e times its impact speed") {
  for (float e : {0.2f, 0.5f, 0.9f}) {
    CAPTURE(e);
    MaterialDesc m = test::testMaterial();
    m.restitution = e;
    BdemSolver solver;
    solver.initEmpty({m}, vec3(0.0f), true);
    const float r = 0.01f;
    const int ball = solver.addElement(vec3(0.0f, r + 1e-4f, 0.0f), r, 0);
    solver.elements().velocity[ball] = vec3(0.0f, -1.0f, 0.0f);
    solver.addPlane(vec3(0.0f), vec3(0, 1, 0), 0);
    solver.prepare();
    for (int s = 0; s < 4000; ++s) solver.step(1e-6);  // contact lasts about pi sqrt(m / k) = 0.8 ms
    // Closed form for a linear spring-dashpot: e = exp(-zeta pi / sqrt(1 - zeta^2)); tolerance 1% (time stepping).
    CHECK(solver.elements().velocity[ball].y == RelApprox(e).epsilon(0.01));
    CHECK(solver.elements().position[ball].y > r);
  }
}

TEST_CASE("a sliding sphere ends rolling at 5/7 of its speed after t = 2 v0 / (7 mu g)") {
  MaterialDesc m = test::testMaterial();
  m.friction = 0.3f;
  BdemSolver solver;
  const float g = 9.81f, r = 0.01f, v0 = 1.0f;
  solver.initEmpty({m}, vec3(0.0f, -g, 0.0f), true);
  const float mass = m.density * 4.0f / 3.0f * kPi * r * r * r;
  const float k = 0.5f * kPi * m.young * r;
  const int ball = solver.addElement(vec3(0.0f, r - mass * g / k, 0.0f), r, 0);  // resting on the ground
  solver.elements().velocity[ball] = vec3(v0, 0.0f, 0.0f);
  solver.addPlane(vec3(0.0f), vec3(0, 1, 0), 0);
  solver.prepare();
  const double dt = 1e-5;
  const double slideTime = 2.0 * v0 / (7.0 * m.friction * g);
  double rollStart = -1.0;
  for (int s = 1; s <= 20000; ++s) {
    solver.step(dt);
    const float slip = solver.elements().velocity[ball].x - solver.elements().angularVelocity[ball].z * -r;
    if (rollStart < 0.0 && std::abs(slip) < 1e-3f * v0) rollStart = s * dt;
  }
  const vec3 v = solver.elements().velocity[ball];
  const vec3 w = solver.elements().angularVelocity[ball];
  CHECK(v.x == RelApprox(5.0 / 7.0 * v0).epsilon(0.01));
  CHECK(-w.z * r == RelApprox(v.x).epsilon(0.01));  // rolling without slip
  CHECK(rollStart == RelApprox(slideTime).epsilon(0.03));
}

TEST_CASE("two unbonded elements collide head-on and conserve momentum exactly") {
  MaterialDesc m = test::testMaterial();
  m.restitution = 1.0f;
  BdemSolver solver;
  solver.initEmpty({m}, vec3(0.0f), true);
  const float r = 0.01f;
  const int a = solver.addElement(vec3(-r - 1e-4f, 0, 0), r, 0);
  const int b = solver.addElement(vec3(r + 1e-4f, 0.002f, 0), r, 0);
  solver.elements().velocity[a] = vec3(1, 0, 0);
  solver.elements().velocity[b] = vec3(-0.5f, 0, 0);
  solver.prepare();
  for (int s = 0; s < 3000; ++s) solver.step(1e-6);
  const vec3 p = solver.elements().velocity[a] + solver.elements().velocity[b];
  CHECK(p.x == RelApprox(0.5).epsilon(1e-5));
  CHECK(std::abs(p.y) < 1e-6f);
  CHECK(solver.elements().velocity[a].x < 0.0f);  // they bounced
}

TEST_CASE("a large element touched by 40 small ones keeps every friction spring: momentum and angular momentum hold") {
  MaterialDesc m = test::testMaterial();
  m.friction = 0.5f;
  BdemSolver solver;
  solver.initEmpty({m}, vec3(0.0f), true);
  const float bigR = 0.04f, r = 0.01f;
  const int big = solver.addElement(vec3(0.0f), bigR, 0);
  solver.elements().velocity[big] = vec3(0.3f, 0.0f, 0.0f);
  solver.elements().angularVelocity[big] = vec3(0.0f, 5.0f, 3.0f);
  const int count = 40;
  for (int k = 0; k < count; ++k) {  // Fibonacci directions, slightly overlapping the big sphere
    const float y = 1.0f - 2.0f * (k + 0.5f) / count, ring = std::sqrt(1.0f - y * y);
    const float phi = 2.399963f * k;
    solver.addElement(vec3(ring * std::cos(phi), y, ring * std::sin(phi)) * (bigR + r - 2e-4f), r, 0);
  }
  solver.prepare();
  auto momenta = [&](vec3& p, vec3& l) {
    p = l = vec3(0.0f);
    const auto& e = solver.elements();
    for (int i = 0; i < e.size(); ++i) {
      const float mass = 1.0f / e.invMass[i], inertia = 1.0f / e.invInertia[i];
      p += mass * e.velocity[i];
      l += glm::cross(e.position[i], mass * e.velocity[i]) + inertia * e.angularVelocity[i];
    }
  };
  vec3 p0, l0, p1, l1;
  momenta(p0, l0);
  for (int s = 0; s < 300; ++s) solver.step(1e-6);
  momenta(p1, l1);
  CHECK(glm::length(p1 - p0) < 1e-4f * glm::length(p0));
  CHECK(glm::length(l1 - l0) < 1e-4f * glm::length(l0));
}
