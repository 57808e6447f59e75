// The rod bond of Rod-Bonded DEM (Zhang et al. eq. 13-29 and the supplement's derivatives): forces and torque
// parameters against finite differences of the energy, the Gauss-Newton Hessian's symmetry and definiteness, the
// closed-form stretch, bend and twist of a Cosserat rod, and the log barrier of eq. 30.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <vector>

#include "kernels/rbdem_coarse_modes.h"
#include "kernels/rbdem_contact.h"
#include "kernels/rbdem_rod.h"
#include "kernels/rbdem_rod_product.h"

using namespace frac;

namespace {

// A bond of unit-ish size (l = 2, r = 1, E = 1, G = 0.4) so that float finite differences resolve the gradient.
struct Rod {
  vec3 xi{0.1f, -0.2f, 0.3f}, xj{1.9f, 0.6f, 0.4f};
  quat qi{1, 0, 0, 0}, qj{1, 0, 0, 0};
  RodRest rest = rodRest(xi, xj, qi, qj, 1.0f, 1.0f);
  RodStiffness k = rodStiffness(1.0f, 0.4f, 5.0f / 6.0f, rest);
  // A deformed state: moved ends, turned elements.
  void deform() {
    xj += vec3(0.08f, -0.05f, 0.11f);
    xi += vec3(-0.03f, 0.04f, 0.02f);
    qi = normalized(quat(0.98f, 0.1f, -0.12f, 0.05f));
    qj = normalized(quat(0.97f, -0.08f, 0.15f, 0.1f));
  }
  double energy() const { return rodEnergy(rodStrain(xj - xi, qi, qj, rest), k); }
};

// The 14 unknowns as an array (x_i, q_i as (w, x, y, z), x_j, q_j).
float& dof(Rod& r, int k) {
  if (k < 3) return r.xi[k];
  if (k < 7) return k == 3 ? r.qi.w : (k == 4 ? r.qi.x : (k == 5 ? r.qi.y : r.qi.z));
  if (k < 10) return r.xj[k - 7];
  return k == 10 ? r.qj.w : (k == 11 ? r.qj.x : (k == 12 ? r.qj.y : r.qj.z));
}
float component(const RodDofs& d, int k) {
  if (k < 3) return d.xI[k];
  if (k < 7) return d.qI[k - 3];
  if (k < 10) return d.xJ[k - 7];
  return d.qJ[k - 10];
}
RodDofs unit(int k) {
  RodDofs d{vec3(0.0f), glm::vec4(0.0f), vec3(0.0f), glm::vec4(0.0f)};
  if (k < 3) d.xI[k] = 1;
  else if (k < 7) d.qI[k - 3] = 1;
  else if (k < 10) d.xJ[k - 7] = 1;
  else d.qJ[k - 10] = 1;
  return d;
}

}  // namespace

TEST_CASE("rbdem rod at rest: zero strain, Darboux vector and energy (eq. 19-23)") {
  Rod r;
  const RodStrain s = rodStrain(r.xj - r.xi, r.qi, r.qj, r.rest);
  CHECK(glm::length(s.gamma) < 1e-6f);
  CHECK(glm::length(s.omega) < 1e-6f);
  // the same bond after a rigid rotation of everything: still no strain
  const quat turn = normalized(quat(0.8f, 0.3f, -0.4f, 0.2f));
  const RodStrain turned = rodStrain(rotate(turn, r.xj) - rotate(turn, r.xi), turn, turn, r.rest);
  CHECK(glm::length(turned.gamma) < 1e-6f);
  CHECK(glm::length(turned.omega) < 1e-6f);
}

TEST_CASE("rbdem rod forces and torque parameters are the negative energy gradient (finite differences, 1e-3)") {
  Rod r;
  r.deform();
  RodJacobian jac;
  const RodStrain s = rodStrain(r.xj - r.xi, r.qi, r.qj, r.rest, &jac);
  const RodDofs g = rodGradient(s, jac, r.k);
  double largest = 0.0;
  for (int k = 0; k < 14; ++k) largest = std::max(largest, std::abs(double(component(g, k))));
  REQUIRE(largest > 1e-3);
  for (int k = 0; k < 14; ++k) {
    const float h = 1e-3f;
    Rod plus = r, minus = r;
    dof(plus, k) += h;
    dof(minus, k) -= h;
    const double fd = (plus.energy() - minus.energy()) / (2.0 * h);
    CAPTURE(k);
    CHECK(component(g, k) == doctest::Approx(fd).epsilon(1e-3).scale(largest));
  }
}

TEST_CASE("rbdem Gauss-Newton Hessian blocks are symmetric positive semi-definite, their diagonal and element blocks exact") {
  Rod r;
  r.deform();
  RodJacobian jac;
  rodStrain(r.xj - r.xi, r.qi, r.qj, r.rest, &jac);
  double h[14][14];
  for (int c = 0; c < 14; ++c) {
    const RodDofs column = rodHessianTimes(jac, r.k, unit(c));
    for (int row = 0; row < 14; ++row) h[row][c] = component(column, row);
  }
  double scale = 0.0;
  for (auto& row : h)
    for (double x : row) scale = std::max(scale, std::abs(x));
  for (int a = 0; a < 14; ++a)
    for (int b = 0; b < 14; ++b) CHECK(std::abs(h[a][b] - h[b][a]) <= 1e-6 * scale);
  const RodDofs diagonal = rodHessianDiagonal(jac, r.k);
  for (int a = 0; a < 14; ++a) CHECK(component(diagonal, a) == doctest::Approx(h[a][a]).epsilon(1e-5).scale(scale));
  // each end's 7x7 diagonal block as the preconditioner builds it from the bond's words (rodBlockWords)
  float words[kRodWords];
  packRodWords(jac, r.k, words);
  for (int end = 0; end < 2; ++end) {
    Block7 block;
    block7Clear(block);
    rodBlockWords([&](int w) { return words[w]; }, end == 1, block);
    const int o = 7 * end;
    for (int a = 0; a < 7; ++a)
      for (int b = 0; b <= a; ++b)
        CHECK(block.a[block7Index(a, b)] == doctest::Approx(h[o + a][o + b]).epsilon(1e-5).scale(scale));
  }
  // p^T H p >= 0 for a spread of directions (rounding allowance 1e-6 of the scale)
  for (int trial = 0; trial < 50; ++trial) {
    double p[14], quad = 0.0;
    for (int k = 0; k < 14; ++k) p[k] = std::sin(1.7 * trial + 2.3 * k + 0.1 * trial * k);
    for (int a = 0; a < 14; ++a)
      for (int b = 0; b < 14; ++b) quad += p[a] * h[a][b] * p[b];
    CHECK(quad >= -1e-6 * scale);
  }
}

TEST_CASE("rbdem rod stretch, twist and bend against the closed-form Cosserat rod (eq. 17-18, 22, 24-25)") {
  // Bond along z of length l, section radius r: E S strain^2 l / 2, G J (theta / l)^2 l / 2, E I (theta / l)^2 l / 2.
  const float l = 0.02f, radius = 0.01f, young = 1e7f, shear = 4e6f;
  const vec3 xi(0.0f), xj(0, 0, l);
  const quat id(1, 0, 0, 0);
  const RodRest rest = rodRest(xi, xj, id, id, radius, radius);
  const RodStiffness k = rodStiffness(young, shear, 5.0f / 6.0f, rest);
  const double s = M_PI * radius * radius, inertia = M_PI * std::pow(radius, 4) / 4, polar = 2 * inertia;
  SUBCASE("stretch by 1e-3: energy E S eps^2 l / 2, sigma = E eps") {
    const float eps = 1e-3f;
    RodJacobian jac;
    const RodStrain st = rodStrain(vec3(0, 0, l * (1 + eps)) - xi, id, id, rest, &jac);
    CHECK(rodEnergy(st, k) == RelApprox(young * s * eps * eps * l / 2).epsilon(1e-3));
    const RodStress stress = rodStress(st, jac, k, id, id, rest);
    CHECK(stress.sigma == RelApprox(young * eps).epsilon(1e-3));
    CHECK(stress.tau == doctest::Approx(0.0).scale(young * eps * 1e-3));
  }
  SUBCASE("twist by 0.01 rad: energy G J theta^2 / (2 l), tau = G theta r / l, torque G J theta / l") {
    const float theta = 0.01f;
    const quat qj = fromRotationVector(vec3(0, 0, theta));
    RodJacobian jac;
    const RodStrain st = rodStrain(xj - xi, id, qj, rest, &jac);
    CHECK(rodEnergy(st, k) == RelApprox(shear * polar * theta * theta / (2 * l)).epsilon(1e-3));
    const RodStress stress = rodStress(st, jac, k, id, qj, rest);
    CHECK(stress.tau == RelApprox(shear * theta * radius / l).epsilon(2e-3));
    const vec3 torqueJ = torqueFromParameter(-rodGradient(st, jac, k).qJ, qj);
    CHECK(torqueJ.z == RelApprox(-shear * polar * theta / l).epsilon(2e-3));
  }
  SUBCASE("bend by 0.01 rad (both ends turned oppositely): energy E I theta^2 / (2 l), sigma = E theta r / l") {
    const float theta = 0.01f;
    const quat qi = fromRotationVector(vec3(-0.5f * theta, 0, 0)), qj = fromRotationVector(vec3(0.5f * theta, 0, 0));
    RodJacobian jac;
    const RodStrain st = rodStrain(xj - xi, qi, qj, rest, &jac);
    CHECK(glm::length(st.gamma) < 1e-6f);
    CHECK(rodEnergy(st, k) == RelApprox(young * inertia * theta * theta / (2 * l)).epsilon(1e-3));
    CHECK(rodStress(st, jac, k, qi, qj, rest).sigma == RelApprox(young * theta * radius / l).epsilon(2e-3));
  }
}

TEST_CASE("logBasic (the barrier's logarithm without libm) agrees with std::log within 3e-7") {
  double worst = 0.0;
  for (int k = -600; k <= 600; ++k) {
    const double a = std::pow(10.0, k / 100.0) * (1.0 + 0.0137 * (k % 7));
    const double exact = std::log(double(float(a)));
    worst = std::max(worst, std::abs(double(logBasic(float(a))) - exact) / std::max(1.0, std::abs(exact)));
  }
  for (float a : {0.5f, 0.7071f, 0.9999f, 1.0f, 1.0001f, 1.41421f, 1.41422f, 2.0f})
    worst = std::max(worst, std::abs(double(logBasic(a)) - std::log(double(a))));
  MESSAGE("largest error " << worst);
  CHECK(worst < 3e-7);
  CHECK(logBasic(0.0f) == -INFINITY);
}

TEST_CASE("rbdem log barrier (eq. 30 with the IPC sign): zero at d^, slope and curvature from finite differences") {
  const float dHat = 0.02f, k = 1e4f;
  CHECK(barrier(dHat, dHat, k).energy == 0.0f);
  CHECK(barrier(0.021f, dHat, k).slope == 0.0f);
  for (float d : {0.019f, 0.015f, 0.005f}) {
    const BarrierTerms t = barrier(d, dHat, k);
    const double gap = dHat - d;
    CHECK(t.energy == RelApprox(-k * gap * gap * std::log(double(d) / dHat)).epsilon(1e-4));
    CHECK(t.energy > 0.0f);
    CHECK(t.slope < 0.0f);
    CHECK(t.curvature > 0.0f);
    const float h = 1e-5f;
    const double fdSlope = (double(barrier(d + h, dHat, k).energy) - barrier(d - h, dHat, k).energy) / (2.0 * h);
    const double fdCurvature = (double(barrier(d + h, dHat, k).slope) - barrier(d - h, dHat, k).slope) / (2.0 * h);
    CHECK(t.slope == RelApprox(fdSlope).epsilon(2e-3));
    CHECK(t.curvature == RelApprox(fdCurvature).epsilon(2e-3));
  }
}

TEST_CASE("rbdem preconditioner blocks: block7Invert inverts a positive definite 7x7, fixed unknowns get identity rows") {
  // A = B B^T + I/2 for a fixed B: symmetric positive definite; A A^-1 = I within float rounding (1e-5).
  double a[7][7] = {};
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 7; ++j) {
      for (int k = 0; k < 7; ++k) a[i][j] += std::sin(1.3 * i + 0.7 * k + 0.2) * std::sin(1.3 * j + 0.7 * k + 0.2);
      if (i == j) a[i][j] += 0.5;
    }
  Block7 m;
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j <= i; ++j) m.a[block7Index(i, j)] = float(a[i][j]);
  const bool all[7] = {true, true, true, true, true, true, true};
  Block7 inverse = m;
  block7Invert(inverse, all);
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 7; ++j) {
      double s = 0.0;
      for (int k = 0; k < 7; ++k) s += a[i][k] * inverse.a[k >= j ? block7Index(k, j) : block7Index(j, k)];
      CHECK(s == doctest::Approx(i == j ? 1.0 : 0.0).epsilon(1e-5).scale(1.0));
    }
  // unknown 1 fixed (a roller's coordinate): its row and column of the inverse are the identity's, the rest is the
  // inverse of A without them, so z = M^-1 r has z_1 = r_1 = 0 and never couples to the others
  const bool fixed1[7] = {true, false, true, true, true, true, true};
  Block7 partial = m;
  block7Invert(partial, fixed1);
  for (int k = 0; k < 7; ++k) CHECK(partial.a[k >= 1 ? block7Index(k, 1) : block7Index(1, k)] == (k == 1 ? 1.0f : 0.0f));
  float r[7] = {0.3f, 0.0f, -0.2f, 0.1f, 0.5f, -0.4f, 0.2f}, z[7];
  block7Times(partial, r, z);
  for (int i = 0; i < 7; ++i) {
    if (i == 1) continue;
    double s = 0.0;
    for (int k = 0; k < 7; ++k) s += k == 1 ? 0.0 : a[i][k] * z[k];
    CHECK(s == doctest::Approx(r[i]).epsilon(1e-5).scale(1.0));
  }
}

TEST_CASE("rbdem coarse space: a bond's share is U^T H W of the aggregates' modes, rigid modes strain no rod") {
  Rod r;
  r.deform();
  RodJacobian jac;
  rodStrain(r.xj - r.xi, r.qi, r.qj, r.rest, &jac);
  double h[14][14], scale = 0.0;
  for (int c = 0; c < 14; ++c) {
    const RodDofs column = rodHessianTimes(jac, r.k, unit(c));
    for (int row = 0; row < 14; ++row) {
      h[row][c] = component(column, row);
      scale = std::max(scale, std::abs(h[row][c]));
    }
  }
  float words[kRodWords];
  packRodWords(jac, r.k, words);
  auto word = [&](int w) { return words[w]; };
  // each end's modes as 14-vectors (the other end's unknowns 0)
  auto asDofs = [](const CoarseModes& m, int k, bool second) {
    double u[14] = {};
    const int o = second ? 7 : 0;
    for (int a = 0; a < 3; ++a) u[o + a] = m.x[k][a];
    for (int c = 0; c < 4; ++c) u[o + 3 + c] = m.q[k][c];
    return std::vector<double>(u, u + 14);
  };
  auto quadratic = [&](const std::vector<double>& u, const std::vector<double>& w) {
    double s = 0.0;
    for (int a = 0; a < 14; ++a)
      for (int b = 0; b < 14; ++b) s += u[a] * h[a][b] * w[b];
    return s;
  };
  SUBCASE("two aggregates: the ends' blocks and the coupling against the Hessian's products") {
    const CoarseModes mi = coarseModes(r.xi, r.qi, vec3(-0.4f, 0.3f, 0.1f), vec3(1.0f));
    const CoarseModes mj = coarseModes(r.xj, r.qj, vec3(2.5f, 0.2f, -0.3f), vec3(1.0f));
    CoarseBondBlock share;
    rodCoarseBlock(word, mi, mj, share);
    double largest = 0.0;
    for (int a = 0; a < 6; ++a)
      for (int b = 0; b < 6; ++b) largest = std::max(largest, std::abs(quadratic(asDofs(mi, a, false), asDofs(mj, b, true))));
    REQUIRE(largest > 1e-3);
    for (int a = 0; a < 6; ++a)
      for (int b = 0; b < 6; ++b) {
        CAPTURE(a);
        CAPTURE(b);
        const auto ui = asDofs(mi, a, false), wi = asDofs(mi, b, false), uj = asDofs(mj, a, true), wj = asDofs(mj, b, true);
        if (b <= a) {
          CHECK(share.first.a[sym6Index(a, b)] == doctest::Approx(quadratic(ui, wi)).epsilon(1e-5).scale(largest));
          CHECK(share.second.a[sym6Index(a, b)] == doctest::Approx(quadratic(uj, wj)).epsilon(1e-5).scale(largest));
        }
        CHECK(share.coupling[a * 6 + b] == doctest::Approx(quadratic(ui, wj)).epsilon(1e-5).scale(largest));
      }
  }
  SUBCASE("one aggregate: its six rigid motions move both ends and strain nothing (objectivity)") {
    const vec3 c(0.7f, -0.1f, 0.2f);
    const CoarseModes mi = coarseModes(r.xi, r.qi, c, vec3(1.0f));
    const CoarseModes mj = coarseModes(r.xj, r.qj, c, vec3(1.0f));
    CoarseBondBlock share;
    rodCoarseBlock(word, mi, mj, share);
    for (int k = 0; k < 6; ++k) {
      const double energy = share.first.a[sym6Index(k, k)] + share.second.a[sym6Index(k, k)] + 2.0 * share.coupling[k * 6 + k];
      const double oneEnd = share.first.a[sym6Index(k, k)];
      CAPTURE(k);
      CHECK(oneEnd > 1e-3 * scale);     // one end alone strains the rod
      CHECK(std::abs(energy) <= 2e-5 * oneEnd);  // both together: a rigid motion
    }
  }
  SUBCASE("restriction and prolongation are the modes and their transpose") {
    const vec3 c(0.3f, 0.5f, -0.2f), axes(1.0f, 0.0f, 1.0f);  // a roller's element: y prescribed
    const CoarseModes m = coarseModes(r.xj, r.qj, c, axes);
    const vec3 vx(0.3f, -1.1f, 0.7f);
    const glm::vec4 vq(0.2f, -0.4f, 0.9f, 0.05f);
    const CoarseTerms terms = restrictToModes(r.xj, r.qj, c, axes, vx, vq);
    const float t[6] = {0.4f, -0.2f, 0.9f, 0.3f, -0.7f, 0.15f};
    vec3 dx(0.0f), expectX(0.0f);
    glm::vec4 dq(0.0f), expectQ(0.0f);
    prolongFromModes(r.xj, r.qj, c, axes, t, dx, dq);
    for (int k = 0; k < 6; ++k) {
      CHECK(terms.m[k] == doctest::Approx(glm::dot(m.x[k], vx) + glm::dot(m.q[k], vq)).epsilon(1e-6));
      expectX += t[k] * m.x[k];
      expectQ += t[k] * m.q[k];
    }
    CHECK(dx.y == 0.0f);
    for (int a = 0; a < 3; ++a) CHECK(dx[a] == doctest::Approx(expectX[a]).epsilon(1e-6));
    for (int a = 0; a < 4; ++a) CHECK(dq[a] == doctest::Approx(expectQ[a]).epsilon(1e-6));
  }
}
