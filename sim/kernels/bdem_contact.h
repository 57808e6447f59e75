#pragma once
// Contact between unbonded elements and against planes (Lu et al. 2021, sec. 3.3): linear normal repulsion with a
// viscous term set by the coefficient of restitution, and Coulomb friction through an accumulated tangential spring.
#include "core/math.h"

namespace frac {

// Normal stiffness k_r = k_n of a virtual bond (eq. 3 with the paper's k_r = k_n) between the smaller element and its
// mirror image: E pi r^2 / (2 r). Equal radii give exactly k_n; a small element on a large projectile is not made
// stiffer by the projectile's size. E is the series combination of the two materials.
FRAC_HD inline float contactStiffness(float youngI, float youngJ, float ri, float rj) {
  const float e = 2.0f * youngI * youngJ / (youngI + youngJ);
  const float r = ri < rj ? ri : rj;
  return 0.5f * kPi * e * r;
}

// Damping ratio of a linear spring-dashpot that gives the coefficient of restitution e:
// e = exp(-zeta pi / sqrt(1 - zeta^2))  <=>  zeta = -ln e / sqrt(pi^2 + ln^2 e).
FRAC_HD inline float dampingRatioForRestitution(float e) {
  if (e >= 1.0f) return 0.0f;
  if (e <= 1e-6f) return 1.0f;
  const float l = logf(e);
  return -l / sqrtf(kPi * kPi + l * l);
}

struct ContactParams {
  float kr;        // normal stiffness (N/m)
  float kt;        // tangential spring stiffness (N/m): k_r G / E
  float friction;  // mu (eq. 27, mu_s = mu_d)
  float zeta;      // normal damping ratio
  float massEff;   // m_i m_j / (m_i + m_j), or m_i against an infinite mass
};

struct ContactResult {
  vec3 forceOnI;
  vec3 torqueOnI;
  vec3 spring;     // updated tangential spring xi (eq. 23-27), kept for the next step
  double energy;   // k_r delta^2 / 2 + k_t |xi|^2 / 2
};

// Element i touching a surface with normal n (pointing towards i) at overlap delta; `arm` is the distance from i's
// centre to the contact point. vRelContact is the velocity of i's contact point minus the other side's.
// The paper's eq. 25 uses the centre velocities; the spin terms (w x r at the contact point, Cundall & Strack) are
// included here so that friction makes rolling elements roll instead of sliding forever.
FRAC_HD inline ContactResult contactForce(const vec3& n, float delta, float arm, const vec3& vRelContact,
                                          const vec3& previousSpring, const ContactParams& p, float dt) {
  ContactResult out;
  // eq. 22: repulsion, plus the dashpot on the normal relative velocity.
  const float vn = glm::dot(vRelContact, n);
  const float repulsion = p.kr * delta;
  const float dashpot = -2.0f * p.zeta * sqrtf(p.kr * p.massEff) * vn;
  const vec3 normalForce = (repulsion + dashpot) * n;
  // eq. 23: rotate the old spring into the current tangent plane; eq. 24-25: accumulate the tangential slip.
  const vec3 vt = vRelContact - vn * n;
  vec3 spring = previousSpring - glm::dot(previousSpring, n) * n;
  spring += vt * dt;
  // eq. 26: static friction; eq. 27: sliding when it exceeds mu |F_r|.
  vec3 friction = -p.kt * spring;
  const float limit = p.friction * fabsf(repulsion);
  const float f2 = glm::dot(friction, friction);
  if (f2 > limit * limit && f2 > 0.0f) {
    friction *= limit / sqrtf(f2);
    spring = -friction / p.kt;
  }
  out.forceOnI = normalForce + friction;
  out.torqueOnI = glm::cross(-arm * n, friction);
  out.spring = spring;
  out.energy = 0.5 * double(p.kr) * delta * delta + 0.5 * double(p.kt) * glm::dot(spring, spring);
  return out;
}

}  // namespace frac
