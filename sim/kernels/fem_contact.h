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

// A contact can appear already deep: when elements fail, a face is exposed or a particle converted next to a node or
// particle that was not touching it (inside a particle's radius, or behind a face of a crushed region). Its spring
// would throw the two apart at omega x depth (1,000 m/s for 2 mm at a stone wall's step: such runs blew up). A contact
// that builds up from touching at approach speed v reaches about v / omega (10 um at 15 m/s on that wall); one deeper
// than kDeepContactFactor times the approach speed now, plus kDeepContactRelease, pushes no more once the two
// separate at kDeepContactRelease (m/s). Only the approach counts: with the relative speed either way (as first
// written), a contact that appeared deep while the two approached fast kept its whole spring as they flew apart,
// and the 25 m/s vase's debris gained 100 J that way (kinetic energy 67 J -> 148 J between 1 and 4 ms; 2026-11-28).
// Departure: not in the paper (its penalty contacts start from touching).
constexpr float kDeepContactRelease = 1.0f;
constexpr float kDeepContactFactor = 10.0f;

// The mass a contact between two free bodies of masses a and b acts on: the reduced mass a b / (a + b), with which the
// spring's omega is that of the pair's relative motion and the deep-contact and friction limits (one step to the
// target relative speed) reach the target without overshoot. The smaller mass, used first, made both bodies take
// the whole correction: a deep pair parted at twice the release speed plus its approach (more energy than it came
// with) and a sliding pair's slip reversed.
FRAC_HD inline float pairMass(float a, float b) { return a * b / (a + b); }

// The contact force on a node of mass m that has penetrated `depth` (> 0) along the outward surface normal n, moving
// at `relative` velocity against the surface; zeta from restitutionDamping; omegaDt the spring's omega dt;
// `releaseDeep`: a contact that appeared deep (above) is released at kDeepContactRelease.
FRAC_HD inline vec3 penaltyContactForce(float depth, const vec3& n, const vec3& relative, float mass, float dt,
                                        float friction, float zeta, float omegaDt = kContactOmegaDt,
                                        bool releaseDeep = false) {
  const float omega = omegaDt / dt;
  const float stiffness = mass * omega * omega;
  const float damping = 2.0f * zeta * mass * omega;
  const float normalSpeed = glm::dot(relative, n);
  float normal = fmaxf(stiffness * depth - damping * normalSpeed, 0.0f);
  if (releaseDeep && depth * omega > kDeepContactFactor * fmaxf(-normalSpeed, 0.0f) + kDeepContactRelease)
    normal = fminf(normal, fmaxf(mass * (kDeepContactRelease - normalSpeed) / dt, 0.0f));
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
