#pragma once
// Node-to-surface penalty contact with Coulomb friction (Zhang et al., hybrid FEM / meshfree debris, eq. 6): a mesh
// node that has passed through a ground plane or into a rigid ball is pushed back along the surface normal by a
// penalty spring with damping, and its sliding is resisted by friction up to mu times the normal force.
//
// Departure: the paper gives the penalty stiffness as a user constant. Here it follows the node's mass and the step,
// k = m (kContactOmegaDt / dt)^2, so the contact spring stays inside the explicit scheme's stability limit for any
// material and mesh (omega dt = 0.3 << 2) and needs no tuning; the damping comes from the coefficient of restitution
// (the damping ratio of a spring-dashpot that restitutes e), and the friction is a regularised Coulomb law whose
// sticking force stops the tangential velocity within one step.
#include <algorithm>
#include <cmath>

#include "core/math.h"

namespace frac::fem {

constexpr float kContactOmegaDt = 0.3f;

// Damping ratio of a linear spring-dashpot whose collisions restitute e: zeta = -ln e / sqrt(pi^2 + ln^2 e). Taken
// on the host when materials are set (no libm logarithm in a step: glibc's and CUDA's round differently).
inline float restitutionDamping(float restitution) {
  if (restitution >= 1.0f) return 0.0f;
  const float l = std::log(std::max(restitution, 1e-4f));
  return -l / std::sqrt(3.14159265f * 3.14159265f + l * l);
}

// The contact force on a node of mass m that has penetrated `depth` (> 0) along the outward surface normal n, moving
// at `relative` velocity against the surface; zeta from restitutionDamping; omegaDt the spring's omega dt.
FRAC_HD inline vec3 penaltyContactForce(float depth, const vec3& n, const vec3& relative, float mass, float dt,
                                        float friction, float zeta, float omegaDt = kContactOmegaDt) {
  const float omega = omegaDt / dt;
  const float stiffness = mass * omega * omega;
  const float damping = 2.0f * zeta * mass * omega;
  const float normalSpeed = glm::dot(relative, n);
  const float normal = fmaxf(stiffness * depth - damping * normalSpeed, 0.0f);
  const vec3 tangential = relative - normalSpeed * n;
  const float slip = glm::length(tangential);
  vec3 force = normal * n;
  if (slip > 0.0f) {
    const float sticking = mass * slip / dt;  // stops the sliding within this step
    force -= (fminf(friction * normal, sticking) / slip) * tangential;
  }
  return force;
}

}  // namespace frac::fem
