// Bond forces and moments of Lu et al. 2021 (eq. 3-18) against closed-form answers for pure stretch, shear, bend and
// twist of one bond between two equal elements.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <cmath>
#include <initializer_list>

#include "kernels/bdem_bond.h"

using namespace frac;

namespace {

constexpr float kRadius = 0.01f, kYoung = 1e7f, kShear = 4e6f;

struct OneBond {
  BondRest rest{vec3(1, 0, 0), kRadius, 2 * kRadius};
  BondStiffness k = bondStiffness(kYoung, kShear, kRadius, 2 * kRadius);
  vec3 pi{0.0f}, pj{2 * kRadius, 0, 0};
  quat qi{1, 0, 0, 0}, qj{1, 0, 0, 0};
  BondLoad load() const { return bondLoad(bondDeformation(pj - pi, qi, qj, rest.d0), rest, k); }
};

quat axisAngle(const vec3& axis, float angle) { return fromRotationVector(angle * glm::normalize(axis)); }

}  // namespace

TEST_CASE("stiffnesses follow eq. 3, 11 and 16") {
  const BondStiffness k = bondStiffness(kYoung, kShear, kRadius, 2 * kRadius);
  const double s = M_PI * kRadius * kRadius, inertia = M_PI * std::pow(kRadius, 4) / 4;
  CHECK(k.kn == RelApprox(kYoung * s / (2 * kRadius)).epsilon(1e-6));
  CHECK(k.ks == RelApprox(kShear * s).epsilon(1e-6));
  CHECK(k.kb == RelApprox(kYoung * inertia / (2 * kRadius)).epsilon(1e-6));
  CHECK(k.kt == RelApprox(kShear * 2 * inertia / (2 * kRadius)).epsilon(1e-6));
}

TEST_CASE("pure stretch: F = k_n (l - l0), sigma = F / S, no moments") {
  OneBond b;
  const float stretch = 1e-4f;
  b.pj.x += stretch;
  const BondLoad load = b.load();
  const double expected = b.k.kn * stretch;
  CHECK(load.forceOnJ.x == RelApprox(-expected).epsilon(1e-4));  // pulls j back towards i
  CHECK(std::abs(load.forceOnJ.y) < 1e-6 * expected);
  CHECK(glm::length(load.torqueShared) < 1e-9);
  CHECK(glm::length(load.torqueRelative) < 1e-9);
  CHECK(bondSigma(load, b.k) == RelApprox(expected / b.k.area).epsilon(1e-4));
  CHECK(load.tau == doctest::Approx(0.0).epsilon(1e-6));
  b.pj.x -= 2 * stretch;  // compression pushes j away and is not tensile stress
  CHECK(b.load().forceOnJ.x == RelApprox(expected).epsilon(1e-3));
  CHECK(bondSigma(b.load(), b.k) == doctest::Approx(0.0));
}

TEST_CASE("pure shear: F_s = k_s sin(theta) t and M = l/2 n x F_s on both elements (eq. 7-10)") {
  OneBond b;
  const float offset = 2e-4f;
  b.pj.y += offset;
  const BondLoad load = b.load();
  const double l = std::hypot(2 * kRadius, offset);
  const double sinTheta = offset / l;
  const double stretchForce = b.k.kn * (l - 2 * kRadius);
  // The shear force is perpendicular to the current bond direction and points back towards the rest direction.
  const vec3 n(2 * kRadius / l, offset / l, 0);
  const vec3 shear = load.forceOnJ + float(stretchForce) * n;
  CHECK(glm::length(shear) == RelApprox(b.k.ks * sinTheta).epsilon(1e-3));
  CHECK(shear.y < 0.0f);
  CHECK(std::abs(glm::dot(shear, n)) < 1e-4 * glm::length(shear));
  CHECK(load.torqueShared.z == RelApprox(0.5 * l * b.k.ks * sinTheta).epsilon(1e-3));
  CHECK(glm::length(load.torqueRelative) < 1e-9);
  CHECK(load.tau == RelApprox(b.k.ks * sinTheta / b.k.area).epsilon(1e-3));
  // Angular momentum balance: the force couple plus both torques sum to zero.
  const vec3 couple = glm::cross(b.pj - b.pi, load.forceOnJ);
  CHECK(glm::length(couple + 2.0f * load.torqueShared) < 1e-6 * glm::length(couple));
}

TEST_CASE("pure bend: M_b = k_b theta restores the relative rotation (eq. 12-15)") {
  OneBond b;
  const float angle = 0.01f;
  b.qj = axisAngle(vec3(0, 0, 1), angle);
  const BondLoad load = b.load();
  // j receives torqueShared - torqueRelative; the bending part of it is -k_b theta about z.
  CHECK(load.torqueRelative.z == RelApprox(b.k.kb * angle).epsilon(1e-3));
  CHECK(std::abs(load.torqueRelative.x) < 1e-6 * b.k.kb * angle);
  // Rotating one cross-section by theta tilts the mean direction by theta/2: shear force k_s sin(theta/2).
  CHECK(glm::length(load.forceOnJ) == RelApprox(b.k.ks * std::sin(angle / 2)).epsilon(1e-3));
  CHECK(bondSigma(load, b.k) == RelApprox(b.k.kb * angle * kRadius / b.k.inertia).epsilon(1e-3));
}

TEST_CASE("pure twist: M_t = k_t theta about the bond axis, no force (eq. 14)") {
  OneBond b;
  const float angle = 0.02f;
  b.qj = axisAngle(vec3(1, 0, 0), angle);
  const BondLoad load = b.load();
  CHECK(load.torqueRelative.x == RelApprox(b.k.kt * angle).epsilon(1e-3));
  CHECK(glm::length(load.forceOnJ) < 1e-6);
  CHECK(load.tau == RelApprox(b.k.kt * angle * kRadius / b.k.polar).epsilon(1e-3));
  CHECK(bondSigma(load, b.k) == doctest::Approx(0.0).epsilon(1e-6));
}

TEST_CASE("a rigid rotation of the whole bond leaves no load") {
  OneBond b;
  const quat q = axisAngle(vec3(1, 2, 3), 0.7f);
  b.pj = rotate(q, b.pj);
  b.qi = b.qj = q;
  const BondLoad load = b.load();
  CHECK(glm::length(load.forceOnJ) < 1e-2f);  // float rounding of sin(theta) ~ 1e-7 times k_s
  CHECK(glm::length(load.torqueRelative) < 1e-6f);
}

TEST_CASE("anisotropy factor of eq. 30") {
  CHECK(anisotropyFactor(3.0f, vec3(0, 1, 0), vec3(0, 1, 0)) == RelApprox(4.0f));
  CHECK(anisotropyFactor(3.0f, vec3(0, 1, 0), vec3(1, 0, 0)) == RelApprox(1.0f));
  const float c = std::cos(float(M_PI) / 4);
  CHECK(anisotropyFactor(3.0f, vec3(0, 1, 0), vec3(c, c, 0)) == RelApprox(1.75f));
}

TEST_CASE("the square-root-free breakage test agrees with sigma > sigma_c or tau > tau_c (eq. 17-18)") {
  OneBond b;
  b.pj += vec3(3e-4f, 1e-4f, -2e-4f);
  int checked = 0;
  for (float bendAngle : {0.0f, 0.01f, 0.05f})
    for (float twistAngle : {0.0f, 0.02f}) {
      b.qj = mul(axisAngle(vec3(0, 0, 1), bendAngle), axisAngle(vec3(1, 0, 0), twistAngle));
      const BondLoad load = b.load();
      const float sigma = bondSigma(load, b.k);
      for (float strength : {0.5f * sigma, 0.99f * sigma, 1.01f * sigma, 2.0f * sigma, 0.5f * load.tau, 2.0f * load.tau}) {
        if (!(strength > 0.0f)) continue;
        const bool expected = sigma > strength || load.tau > strength;
        CHECK(exceedsStrength(load, b.k, strength, strength) == expected);
        ++checked;
      }
    }
  CHECK(checked > 20);
}
