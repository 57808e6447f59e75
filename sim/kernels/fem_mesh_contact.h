#pragma once
// Debris particles against the remaining mesh and against each other (Zhang et al., hybrid FEM / meshfree debris,
// sec. 3.2: "debris particles ... collide with the remaining mesh"): a particle that reaches a boundary face of the
// intact tetrahedra (a face whose other side is failed or outside the body) is pushed back along the face's outward
// normal by a penalty spring with damping and Coulomb friction (eq. 6, fem_contact.h), and the face's three nodes take
// the opposite force in the proportions of the contact point's barycentric weights, so momentum is conserved. Two
// particles that were not mesh neighbours (pieces from different places meeting later) touch like neighbours do:
// the penalty contact of overlapping balls.
//
// Departures: the paper gives no contact model for debris on the mesh; this is its node-to-surface penalty with the
// particle's ball. Only contact inside a face counts (a particle on an edge or a corner of the surface is held by the
// neighbouring faces, or slips past); a particle more than its radius behind a face has passed it and is left alone;
// the pressure force of eq. 19 acts only between mesh neighbours, as before.
#include "core/math.h"
#include "kernels/fem_debris.h"

namespace frac::fem {

// A boundary face of the intact mesh: its corners counter-clockwise seen from outside, their velocities, and the
// smallest corner mass (the contact spring takes the smaller of that and the particle's, as a debris pair does).
struct ContactFace {
  vec3 corner[3];
  vec3 velocity[3];
  float mass;
};

// The force on particle a from face f, and the contact point's barycentric weights (the corners take -weight x force);
// false when they do not touch.
FRAC_HD inline bool particleFaceContact(const DebrisParticle& a, const ContactFace& f, float dt, float friction,
                                        float zeta, vec3& force, float weight[3]) {
  const vec3 e1 = f.corner[1] - f.corner[0], e2 = f.corner[2] - f.corner[0];
  const vec3 cross = glm::cross(e1, e2);
  const float area2 = glm::length(cross);
  if (!(area2 > 0.0f)) return false;
  const vec3 normal = cross / area2;
  const vec3 offset = a.position - f.corner[0];
  const float height = glm::dot(offset, normal);  // > 0 outside
  if (height >= a.radius || height <= -a.radius) return false;
  // Barycentric weights of the particle's projection onto the face's plane.
  const vec3 q = offset - height * normal;
  const float d11 = glm::dot(e1, e1), d12 = glm::dot(e1, e2), d22 = glm::dot(e2, e2);
  const float q1 = glm::dot(q, e1), q2 = glm::dot(q, e2);
  const float denominator = d11 * d22 - d12 * d12;
  if (!(denominator > 0.0f)) return false;
  const float w1 = (d22 * q1 - d12 * q2) / denominator, w2 = (d11 * q2 - d12 * q1) / denominator;
  const float w0 = 1.0f - w1 - w2;
  if (w0 < 0.0f || w1 < 0.0f || w2 < 0.0f) return false;
  weight[0] = w0, weight[1] = w1, weight[2] = w2;
  const vec3 faceVelocity = w0 * f.velocity[0] + w1 * f.velocity[1] + w2 * f.velocity[2];
  force = penaltyContactForce(a.radius - height, normal, a.velocity - faceVelocity, fminf(a.mass, f.mass), dt,
                              friction, zeta, kDebrisContactOmegaDt);
  return true;
}

// The contact of two overlapping particles that were not mesh neighbours: the penalty part of debrisPairForce at the
// sum of their radii (the force on a; b's, computed from b's side, is its exact negative).
FRAC_HD inline vec3 particleParticleContact(const DebrisParticle& a, const DebrisParticle& b, float dt, float friction,
                                            float zeta) {
  const vec3 offset = a.position - b.position;
  const float distance = glm::length(offset);
  const float depth = a.radius + b.radius - distance;
  if (!(depth > 0.0f) || !(distance > 0.0f)) return vec3(0.0f);
  return penaltyContactForce(depth, offset / distance, a.velocity - b.velocity, fminf(a.mass, b.mass), dt, friction,
                             zeta, kDebrisContactOmegaDt);
}

}  // namespace frac::fem
