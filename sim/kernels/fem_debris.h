#pragma once
// Debris particles of Zhang et al.'s hybrid FEM (sec. 3.2-3.4): a mesh node all of whose tetrahedra failed is a
// mass-based particle that keeps its mass, position and velocity, carries the pressure of the equation of state at
// its compression (fem_step.h's debrisPressureStage), and interacts with other particles through the pressure
// soft-sphere potential of eq. 18-19.
//
// Departures, each written where it is used:
// - eq. 19 as printed has p_j in both terms; summing eq. 18 over the pair (U = (p_j r_j V_i + p_i r_i V_j) / r) gives
//   p_i in the first, and that symmetric reading conserves momentum. Equal for equal pressures (the test).
// - the 1/r^2 force is held at its value at contact (r = r_i + r_j) for overlapping particles, and overlapping
//   particles are also pushed apart by the penalty contact of the mesh (fem_contact.h), so particles whose pressure is
//   0 still collide instead of passing through each other.
// - a tensile (negative) pressure is taken as 0: failed material holds no tension, and an attracting 1/r^2 would
//   collapse pairs.
#include "core/math.h"
#include "kernels/fem_contact.h"

namespace frac::fem {

// A debris particle as the pair forces read it.
struct DebrisParticle {
  vec3 position{0.0f}, velocity{0.0f};
  float pressure = 0.0f;  // p (Pa, >= 0)
  float radius = 0.0f;    // r: the radius of a ball of its volume, at most half its shortest mesh edge
  float volume = 0.0f;    // V
  float mass = 0.0f;
};

// The distance at which a pair touches: r_a + r_b, or less when they first met as debris closer than that (`rest`:
// the failed elements between them let them come closer before they converted; pushing them apart from there would
// throw them off with energy they never stored).
FRAC_HD inline float debrisReach(const DebrisParticle& a, const DebrisParticle& b, float rest) {
  return fminf(a.radius + b.radius, rest);
}

// The pressure force on particle a from particle b (eq. 19, symmetric reading): repulsive, magnitude
// (p_a r_a V_b + p_b r_b V_a) / r^2 with r the distance, held at its value at r_a + r_b when they are closer (a pair
// that met almost on top of each other would otherwise feel an unbounded force).
FRAC_HD inline vec3 debrisPressureForce(const DebrisParticle& a, const DebrisParticle& b) {
  const vec3 offset = a.position - b.position;
  const float distance = glm::length(offset);
  if (!(distance > 0.0f)) return vec3(0.0f);
  const float r = fmaxf(distance, a.radius + b.radius);
  const float strength = a.pressure * a.radius * b.volume + b.pressure * b.radius * a.volume;
  return (strength / (r * r * distance)) * offset;
}

// A pair's compression mu = (rest / distance)^3 - 1 counts at most this much (half the volume): a pair that met
// nearly on top of each other would otherwise give an unbounded pressure and throw the particles off.
constexpr float kDebrisMaxCompression = 1.0f;

// A particle may touch all of its ~14 mesh neighbours at once: each pair's contact spring is a third as fast as a
// node's ground spring (omega dt 0.1), so that all of them together stay inside the explicit step's limit.
constexpr float kDebrisContactOmegaDt = 0.1f;


// The whole pair force on a from b: eq. 19 plus the penalty contact of overlapping balls (on the pair's reduced mass,
// symmetric, so the pair's forces are equal and opposite).
FRAC_HD inline vec3 debrisPairForce(const DebrisParticle& a, const DebrisParticle& b, float rest, float dt,
                                    float friction, float zeta) {
  const float reach = debrisReach(a, b, rest);
  vec3 force = debrisPressureForce(a, b);
  const vec3 offset = a.position - b.position;
  const float distance = glm::length(offset);
  const float depth = reach - distance;
  if (depth > 0.0f && distance > 0.0f)
    force += penaltyContactForce(depth, offset / distance, a.velocity - b.velocity, pairMass(a.mass, b.mass), dt,
                                 friction, zeta, kDebrisContactOmegaDt);
  return force;
}

}  // namespace frac::fem
