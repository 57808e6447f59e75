#pragma once
// Debris particles against the remaining mesh and against each other (Zhang et al., hybrid FEM / meshfree debris,
// sec. 3.2: "debris particles ... collide with the remaining mesh"): a particle that reaches a boundary face of its own
// body's intact tetrahedra (a face whose other side is failed or outside the body) is pushed back along the face's outward
// normal by a penalty spring with damping and Coulomb friction (eq. 6, fem_contact.h), and the face's three nodes take
// the opposite force in the proportions of the contact point's barycentric weights, so momentum is conserved. Two
// particles that were not mesh neighbours (pieces from different places meeting later) touch like neighbours do:
// the penalty contact of overlapping balls.
//
// Departures: the paper gives no contact model for debris on the mesh; this is its node-to-surface penalty with the
// particle's ball. Only contact inside a face counts (a particle on an edge or a corner of the surface is held by the
// neighbouring faces, or slips past); a particle more than its radius behind a face has passed it and is left alone;
// the pressure force of eq. 19 acts only between mesh neighbours, as before.
//
// Bodies against each other (eq. 6, "contact between bodies ... by node-to-surface penalty"), and a particle against
// another body's faces, as a point: nodeFaceCandidate and nodeFaceForce below.
#include "core/math.h"
#include "kernels/fem_debris.h"

namespace frac::fem {

// A boundary face of the intact mesh: its corners counter-clockwise seen from outside, their velocities, and the
// smallest corner mass (the contact spring acts on the pair mass of that and the particle's, as a debris pair does:
// the point of a face moves at most as freely as its lightest corner).
struct ContactFace {
  vec3 corner[3];
  vec3 velocity[3];
  float mass;
};

// Where a point lies against face f: the face's outward unit normal, the point's height above its plane along it, and
// the barycentric weights of the point's projection; false for a degenerate face or a projection outside it.
struct FaceProjection {
  vec3 normal;
  float height;
  float weight[3];
};
FRAC_HD inline bool projectOntoFace(const vec3& point, const ContactFace& f, FaceProjection& out) {
  const vec3 e1 = f.corner[1] - f.corner[0], e2 = f.corner[2] - f.corner[0];
  const vec3 cross = glm::cross(e1, e2);
  const float area2 = glm::length(cross);
  if (!(area2 > 0.0f)) return false;
  out.normal = cross / area2;
  const vec3 offset = point - f.corner[0];
  out.height = glm::dot(offset, out.normal);  // > 0 outside
  const vec3 q = offset - out.height * out.normal;
  const float d11 = glm::dot(e1, e1), d12 = glm::dot(e1, e2), d22 = glm::dot(e2, e2);
  const float q1 = glm::dot(q, e1), q2 = glm::dot(q, e2);
  const float denominator = d11 * d22 - d12 * d12;
  if (!(denominator > 0.0f)) return false;
  const float w1 = (d22 * q1 - d12 * q2) / denominator, w2 = (d11 * q2 - d12 * q1) / denominator;
  const float w0 = 1.0f - w1 - w2;
  if (w0 < 0.0f || w1 < 0.0f || w2 < 0.0f) return false;
  out.weight[0] = w0, out.weight[1] = w1, out.weight[2] = w2;
  return true;
}

FRAC_HD inline vec3 faceVelocityAt(const ContactFace& f, const float weight[3]) {
  return weight[0] * f.velocity[0] + weight[1] * f.velocity[1] + weight[2] * f.velocity[2];
}

// The force on particle a from face f, and the contact point's barycentric weights (the corners take -weight x force);
// false when they do not touch.
FRAC_HD inline bool particleFaceContact(const DebrisParticle& a, const ContactFace& f, float dt, float friction,
                                        float zeta, vec3& force, float weight[3]) {
  FaceProjection q;
  if (!projectOntoFace(a.position, f, q) || q.height >= a.radius || q.height <= -a.radius) return false;
  for (int m = 0; m < 3; ++m) weight[m] = q.weight[m];
  force = penaltyContactForce(a.radius - q.height, q.normal, a.velocity - faceVelocityAt(f, q.weight),
                              pairMass(a.mass, f.mass), dt, friction, zeta, kDebrisContactOmegaDt, true);
  return true;
}

// A surface node of one body against the boundary faces of another (eq. 6's node-to-surface penalty between bodies): of
// the faces within half their longest edge of the node, the nearest one (by the distance to its closest point) is its
// contact face; when the node is behind that face's plane (and, where the closest point is an edge or a corner that
// several faces share, behind all of them: fem_contact_stages.h bodyContactStage), the ground's penalty spring (omega
// dt 0.3 on the pair mass of the node's and the smallest face corner's, fem_contact.h's pairMass) pushes it back along
// the face's outward normal by that depth, with damping and Coulomb friction, and the face's corners take the opposite
// force in the proportions of the closest point's barycentric weights. The nearest face, not every face behind which
// the node lies: a node on the bottom face of a block resting on another is also just behind its side faces near their
// lower edge; and the closest point, not the projection, since a node over a crease between two tilted faces projects
// inside neither; and behind all the faces of a shared edge or corner, since a node beyond a convex edge is behind one
// face's plane while outside the body (a steel ball's node next to a crack in a stone wall took a 2 mm penalty kick
// that way), while a node over a vertex of a matching mesh (two equal bars end on) is behind every face there. Each
// body's nodes are tested against the other's faces, so an edge or a corner of either side meets the other's faces.
// Departures: the paper's penalty stiffness is a user constant (fem_contact.h); a node further than half an edge has
// passed the face (or is on the far side of a thin part) and is left alone, as a debris particle more than its radius
// behind a face is; no edge-edge contact.
//
// The closest point of face f to `position` (the Voronoi regions of its corners, edges and inside, as in Ericson,
// Real-Time Collision Detection, sec. 5.1.5): its barycentric weights in q.weight, the plane's height and normal in q;
// false for a degenerate face or one further than half its longest edge.
FRAC_HD inline bool nodeFaceCandidate(const vec3& position, const ContactFace& f, FaceProjection& q,
                                      float& distance2) {
  const vec3 a = f.corner[0], b = f.corner[1], c = f.corner[2];
  const vec3 ab = b - a, ac = c - a, ap = position - a, bp = position - b, cp = position - c;
  const vec3 cross = glm::cross(ab, ac);
  const float area2 = glm::length(cross);
  if (!(area2 > 0.0f)) return false;
  q.normal = cross / area2;
  q.height = glm::dot(ap, q.normal);
  const float d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap), d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
  const float d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
  const float vc = d1 * d4 - d3 * d2, vb = d5 * d2 - d1 * d6, va = d3 * d6 - d5 * d4;
  float w0, w1, w2;
  if (d1 <= 0.0f && d2 <= 0.0f) {
    w0 = 1.0f, w1 = 0.0f, w2 = 0.0f;
  } else if (d3 >= 0.0f && d4 <= d3) {
    w0 = 0.0f, w1 = 1.0f, w2 = 0.0f;
  } else if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
    w1 = d1 / (d1 - d3), w0 = 1.0f - w1, w2 = 0.0f;
  } else if (d6 >= 0.0f && d5 <= d6) {
    w0 = 0.0f, w1 = 0.0f, w2 = 1.0f;
  } else if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
    w2 = d2 / (d2 - d6), w0 = 1.0f - w2, w1 = 0.0f;
  } else if (va <= 0.0f && d4 - d3 >= 0.0f && d5 - d6 >= 0.0f) {
    w2 = (d4 - d3) / ((d4 - d3) + (d5 - d6)), w1 = 1.0f - w2, w0 = 0.0f;
  } else {
    const float inverse = 1.0f / (va + vb + vc);
    w1 = vb * inverse, w2 = vc * inverse, w0 = 1.0f - w1 - w2;
  }
  q.weight[0] = w0, q.weight[1] = w1, q.weight[2] = w2;
  distance2 = length2(position - (w0 * a + w1 * b + w2 * c));
  float longest2 = 0.0f;
  for (int m = 0; m < 3; ++m) longest2 = fmaxf(longest2, length2(f.corner[(m + 1) % 3] - f.corner[m]));
  return distance2 * 4.0f < longest2;
}

// The force on a node behind its contact face (q.height < 0), moving at `velocity` (a contact that appeared deep is
// released gently: fem_contact.h).
FRAC_HD inline vec3 nodeFaceForce(const FaceProjection& q, const vec3& velocity, float mass, const ContactFace& f,
                                  float dt, float friction, float zeta) {
  return penaltyContactForce(-q.height, q.normal, velocity - faceVelocityAt(f, q.weight), pairMass(mass, f.mass), dt,
                             friction, zeta, kContactOmegaDt, true);
}

// The contact of two overlapping particles that were not mesh neighbours: the penalty part of debrisPairForce at the
// sum of their radii (the force on a; b's, computed from b's side, is its exact negative).
FRAC_HD inline vec3 particleParticleContact(const DebrisParticle& a, const DebrisParticle& b, float dt, float friction,
                                            float zeta) {
  const vec3 offset = a.position - b.position;
  const float distance = glm::length(offset);
  const float depth = a.radius + b.radius - distance;
  if (!(depth > 0.0f) || !(distance > 0.0f)) return vec3(0.0f);
  return penaltyContactForce(depth, offset / distance, a.velocity - b.velocity, pairMass(a.mass, b.mass), dt, friction,
                             zeta, kDebrisContactOmegaDt, true);
}

}  // namespace frac::fem
