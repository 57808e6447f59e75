#pragma once
// One explicit FEM time step on linear tetrahedra (Zhang et al., hybrid FEM / meshfree debris, sec. 3.1): central
// differences with lumped masses (eq. 1, 4). The stage order is written once here (stepStages) for every exec:
//   debris: each particle's pressure from its compression (eq. 11-13), then its forces from its debris neighbours
//           (eq. 19 and contact), and, once there is debris, its contacts with the mesh's boundary faces and with
//           particles that were not its neighbours (on a grid of the nodes; each face node gathers its share); with
//           two bodies or more, each surface node's contacts with the other bodies' boundary faces; all before
//           anything moves
//   nodes:  a = (gathered corner forces + gravity + contact + pairs) / m;  v += dt a;  x += dt v  (eq. 1, 4-6)
//   tets:   the material at the new positions from the velocity gradient (eq. 7-16), failure, the corner forces
//   debris: a node all of whose tetrahedra failed becomes a particle (sec. 3.2)
// Each node gathers its incident corners' forces and its debris pairs in a fixed order (no scatter, no atomics), so
// every thread count gives the same bits.
#include "backend/atomics.h"
#include "backend/exec_memory.h"
#include "core/grid.h"
#include "kernels/integrate.h"
#include "kernels/fem_contact.h"
#include "kernels/fem_debris.h"
#include "kernels/fem_material.h"
#include "kernels/fem_mesh_contact.h"
#include "kernels/fem_tet.h"
#include "solvers/fem/fem_arrays.h"
#include "solvers/fem/fem_pieces.h"

namespace frac {

struct FemStepParams {
  float dt = 1e-6f;
  vec3 gravity{0.0f, -9.81f, 0.0f};
  float damping = 0.0f;  // mass-proportional damping, 1/s (0: none; quasi-static tests)
  float viscosityQuadratic = 1.5f, viscosityLinear = 0.06f;  // alpha1, alpha2 of eq. 14
  bool meshContact = false;  // the debris contacts (set by the host once anyDebris is)
  bool bodyContact = false;  // node-to-surface contact between pieces (set at load for two or more, or with debris)
  bool labelCheck = false;   // this step relabels the pieces if a tetrahedron failed (every 16 steps: fem_pieces.h)
  float largestRadius = 0.0f;  // of the particles
  FRAC_HD bool contactStages() const { return meshContact || bodyContact; }
};

}  // namespace frac

namespace frac::fem {

// Contact of node i with the ground planes and the rigid balls (eq. 6), at its position now.
FRAC_HD inline vec3 nodeContactForce(const FemViews& v, int i, float dt) {
  const FemNodeView& n = v.nodes;
  const vec3 x = n.reference[i] + n.displacement[i], u = n.velocity[i];
  const float m = n.mass[i];
  vec3 force(0.0f);
  for (int k = 0; k < v.planes.count; ++k) {
    const vec3 normal = v.planes.normal[k];
    const float depth = -glm::dot(x - v.planes.point[k], normal);
    if (depth <= 0.0f) continue;
    const FemMaterial& a = v.materials[n.material[i]];
    const FemMaterial& b = v.materials[v.planes.material[k]];
    force += penaltyContactForce(depth, normal, u, m, dt, fminf(a.friction, b.friction),
                                 fmaxf(a.contactDamping, b.contactDamping));
  }
  for (int k = 0; k < v.projectiles.count; ++k) {
    if (!v.projectiles.active[k]) continue;
    const vec3 offset = x - v.projectiles.centre[k];
    const float distance = glm::length(offset);
    const float depth = v.projectiles.radius[k] - distance;
    if (depth <= 0.0f || distance <= 0.0f) continue;
    const FemMaterial& a = v.materials[n.material[i]];
    force += penaltyContactForce(depth, offset / distance, u - v.projectiles.velocity[k], m, dt, a.friction,
                                 a.contactDamping);
  }
  return force;
}

FRAC_HD inline DebrisParticle debrisParticle(const FemNodeView& n, int i) {
  DebrisParticle d;
  d.position = n.reference[i] + n.displacement[i];
  d.velocity = n.velocity[i];
  d.pressure = n.debrisPressure[i];
  d.radius = n.particleRadius[i];
  d.volume = n.volume[i];
  d.mass = n.mass[i];
  return d;
}

// The forces on debris particle i from the debris particles among its mesh neighbours (eq. 19 and their contact).
// Departure: only particles that were neighbours in the mesh interact (a fixed list: no search, the same order on
// every backend); particles from different places that meet later pass each other.
FRAC_HD inline vec3 debrisForce(const FemViews& v, int i, float dt) {
  const FemNodeView& n = v.nodes;
  const DebrisParticle a = debrisParticle(n, i);
  const FemMaterial& ma = v.materials[n.material[i]];
  vec3 force(0.0f);
  for (int k = n.neighborStart[i]; k < n.neighborStart[i + 1]; ++k) {
    const int j = n.neighbor[k];
    if (!n.debris[j]) continue;
    const FemMaterial& mb = v.materials[n.material[j]];
    force += debrisPairForce(a, debrisParticle(n, j), n.neighborRest[k], dt, fminf(ma.friction, mb.friction),
                             fmaxf(ma.contactDamping, mb.contactDamping));
  }
  return force;
}

// Debris pressure: each particle's pressure from the equation of state at its compression, "to continually model
// the pressure field resulting from the equation of state" (sec. 3): mu = the mean over its debris neighbours of
// (rest distance / distance)^3 - 1, each at most kDebrisMaxCompression, p = eq. 11-13 at that mu (no energy term),
// tension taken as 0 (fem_debris.h). A pair's rest distance is set when the two first are debris together: their
// distance in the mesh, or their distance then if the failed elements between them let them come closer (both sides
// compute it from the same positions, so the pair stays symmetric).
// Departure: the paper does not say how a particle's pressure evolves; a pressure frozen at conversion would push
// the particles apart with p V of energy each, hundreds of times the elastic energy the failed material held.
template <class Exec>
void debrisPressureStage(const Exec& exec, const FemViews& v) {
  const FemNodeView n = v.nodes;
  const FemMaterial* materials = v.materials;
  parallel_for(exec, n.count, [=] FRAC_HD(int i) {
    if (!n.debris[i]) return;
    float mu = 0.0f;
    int count = 0;
    for (int k = n.neighborStart[i]; k < n.neighborStart[i + 1]; ++k) {
      const int j = n.neighbor[k];
      if (!n.debris[j]) continue;
      const vec3 reference = n.reference[i] - n.reference[j];
      const float distance = glm::length(reference + (n.displacement[i] - n.displacement[j]));
      if (n.neighborRest[k] == 0.0f) n.neighborRest[k] = fminf(glm::length(reference), distance);
      const float ratio = n.neighborRest[k] / fmaxf(distance, 1e-3f * n.neighborRest[k]);
      mu += fminf(ratio * ratio * ratio - 1.0f, kDebrisMaxCompression);
      ++count;
    }
    const FemMaterial& m = materials[n.material[i]];
    n.debrisPressure[i] = count > 0 ? fmaxf(mieGruneisenPressure(m.eos, m.restDensity, mu / float(count), 0.0f), 0.0f)
                                    : 0.0f;
  });
}

// Debris pairs: every particle's pair forces from the positions and velocities before any node moves (a pair's two
// forces are then equal and opposite, and no thread reads a node another one is moving).
template <class Exec>
void debrisPairStage(const Exec& exec, const FemViews& v, const FemStepParams& p) {
  const FemNodeView n = v.nodes;
  parallel_for(exec, n.count, [=] FRAC_HD(int i) {
    if (n.debris[i]) n.pairForce[i] = debrisForce(v, i, p.dt);
  });
}

// Each node's position now.
template <class Exec>
void positionStage(const Exec& exec, const FemViews& v) {
  const FemNodeView n = v.nodes;
  parallel_for(exec, n.count, [=] FRAC_HD(int i) { n.position[i] = n.reference[i] + n.displacement[i]; });
}

// The box of the nodes' positions and the largest faceReach into v.contactBounds (lo xyz, hi xyz, reach as ordered
// float bits), each chunk of 64 nodes reduced before its atomics.
template <class Exec>
void contactBoundsStage(const Exec& exec, const FemViews& v) {
  int32_t* word = v.contactBounds;
  fillValues(exec, word, 3, int32_t(2147483647));
  fillValues(exec, word + 3, 4, int32_t(-2147483647 - 1));
  const FemNodeView n = v.nodes;
  constexpr int kChunk = 64;
  parallel_for(exec, (n.count + kChunk - 1) / kChunk, [=] FRAC_HD(int chunk) {
    vec3 lo(3.0e38f), hi(-3.0e38f);
    float reach = 0.0f;
    const int end = (chunk + 1) * kChunk < n.count ? (chunk + 1) * kChunk : n.count;
    for (int i = chunk * kChunk; i < end; ++i) {
      lo = glm::min(lo, n.position[i]);
      hi = glm::max(hi, n.position[i]);
      reach = fmaxf(reach, n.faceReach[i]);
    }
    for (int k = 0; k < 3; ++k) {
      atomicMinInt(&word[k], orderedFloatBits(lo[k]));
      atomicMaxInt(&word[3 + k], orderedFloatBits(hi[k]));
    }
    atomicMaxInt(&word[6], orderedFloatBits(reach));
  });
}

// Each node's boundary faces of the intact tetrahedra that hold it (a face whose other side failed or lies outside
// the body: it belongs to exactly one intact tetrahedron), as 4 tet + k (the face opposite corner k) in the node's
// slots from 3 cornerStart[i]; faceCount[i] of them (0 for a node inside the mesh or a particle), and faceReach[i]
// their longest edge now: a point on one of them is at most that far from each of its corners; and which contact grid
// takes the node (grid flags: 1 a debris particle, 2 a node on the surface, 4 a node inside the mesh, in neither).
template <class Exec>
void boundaryFacesStage(const Exec& exec, const FemViews& v) {
  const FemNodeView n = v.nodes;
  const FemTetView t = v.tets;
  parallel_for(exec, n.count, [=] FRAC_HD(int i) {
    int count = 0;
    float longest2 = 0.0f;
    for (int c = n.cornerStart[i]; c < n.cornerStart[i + 1]; ++c) {
      const int e = n.corner[c] / 4, own = n.corner[c] % 4;
      if (t.failed[e]) continue;
      for (int k = 0; k < 4; ++k) {
        if (k == own) continue;  // the face opposite i does not hold it
        const int other = t.faceNeighbor[4 * e + k];
        if (other >= 0 && !t.failed[other]) continue;
        n.boundaryFace[3 * n.cornerStart[i] + count++] = 4 * e + k;
        for (int m = 0; m < 3; ++m) {
          const vec3 a = n.position[t.corners[e].node[tetFaceCorner(k, m)]];
          const vec3 b = n.position[t.corners[e].node[tetFaceCorner(k, (m + 1) % 3)]];
          longest2 = fmaxf(longest2, length2(b - a));
        }
      }
    }
    n.faceCount[i] = count;
    n.faceReach[i] = sqrtf(longest2);
    n.contactGrid[i] = n.debris[i] ? 1 : (count > 0 ? 2 : 4);
  });
}

// A face of the list above: its nodes (counter-clockwise from outside), their positions and velocities, the smallest
// of their masses, and the material of its tetrahedron.
struct FaceRef {
  int node[3];
  int material;
};
FRAC_HD inline FaceRef faceRef(const FemViews& v, int face) {
  const int e = face / 4, k = face % 4;
  FaceRef r;
  for (int m = 0; m < 3; ++m) r.node[m] = v.tets.corners[e].node[tetFaceCorner(k, m)];
  r.material = int(v.tets.material[e]);
  return r;
}
FRAC_HD inline ContactFace contactFace(const FemNodeView& n, const FaceRef& r) {
  ContactFace face;
  face.mass = 3.0e38f;
  for (int m = 0; m < 3; ++m) {
    face.corner[m] = n.position[r.node[m]];
    face.velocity[m] = n.velocity[r.node[m]];
    face.mass = fminf(face.mass, n.mass[r.node[m]]);
  }
  return face;
}

FRAC_HD inline int lowestNode(const FaceRef& r) {
  return r.node[0] < r.node[1] ? (r.node[0] < r.node[2] ? r.node[0] : r.node[2])
                               : (r.node[1] < r.node[2] ? r.node[1] : r.node[2]);
}

// Contact between bodies, first half (nodeFaceCandidate, eq. 6): each surface node and each debris particle finds its
// contact face among the other bodies' boundary faces (each face found through its lowest node) and, when it is behind
// it, its force. A particle meets other bodies as a point, as it meets the ground and the balls: with its ball, a
// particle caught between a steel ball and the crack faces it was pushed into was squeezed between two springs whose
// gap kept closing, and shot out (the run blew up); against its own body's faces it keeps its ball (meshContactStage). The
// contact face is the nearest one (by the distance to its closest point); when the closest point is a corner or an
// edge that several faces share (a node over a vertex of a matching mesh, or beyond a convex edge), the node is in
// contact only if it is behind every face at that distance, and the face is the lowest-numbered of them. Two passes
// (the nearest distance, then the faces at it) make the choice independent of the search order. A point less than
// half the longest edge L from a face lies
// within 1.5 L of each corner: the search reaches 1.5 times the largest faceReach, and 1.5 faceReach of the corner.
// `meshGrid` holds the surface nodes only.
// Whether node or particle i and the faces of mesh node j are kept apart by the meshes' own means rather than by the
// contact between pieces: a debris particle meets its own body's faces with its ball (meshContactStage), a mesh node
// its own piece's faces never (they are its surface).
FRAC_HD inline bool sameSide(const FemNodeView& n, int i, int j) {
  return n.debris[i] ? n.body[j] == n.body[i] : n.piece[j] == n.piece[i];
}

template <class F>
FRAC_HD inline void forEachOtherBodyFace(const FemViews& v, const GridView& meshGrid, int i, float reach, F&& f) {
  const FemNodeView& n = v.nodes;
  const vec3 x = n.position[i];
  meshGrid.forEachCandidateWithin(x, 1.5f * reach, [&](int j, const glm::vec4& sphere) {
    const float far = 1.5f * n.faceReach[j];
    if (sameSide(n, i, j) || length2(vec3(sphere) - x) > far * far) return;
    for (int m = 0; m < n.faceCount[j]; ++m) {
      const int face = n.boundaryFace[3 * n.cornerStart[j] + m];
      const FaceRef r = faceRef(v, face);
      if (lowestNode(r) != j) continue;
      FaceProjection q;
      float distance2;
      if (nodeFaceCandidate(x, contactFace(n, r), q, distance2)) f(face, q, distance2);
    }
  });
}

template <class Exec>
void bodyContactStage(const Exec& exec, const FemViews& v, const GridView meshGrid, float reach,
                      const FemStepParams& p) {
  const FemNodeView n = v.nodes;
  const float dt = p.dt;
  parallel_for(exec, n.count, [=] FRAC_HD(int i) {
    n.bodyFace[i] = -1;
    if (n.contactGrid[i] == 4) return;  // inside the mesh
    float nearest = 3.0e38f;  // squared distance
    forEachOtherBodyFace(v, meshGrid, i, reach, [&](int, const FaceProjection&, float distance2) {
      nearest = fminf(nearest, distance2);
    });
    if (!(nearest < 3.0e38f)) return;
    const float tied = nearest * 1.0001f + 1e-14f;  // the same closest point, up to rounding
    bool behind = true;
    int contactFaceIndex = -1;
    FaceProjection contact;
    forEachOtherBodyFace(v, meshGrid, i, reach, [&](int face, const FaceProjection& q, float distance2) {
      if (distance2 > tied) return;
      behind = behind && q.height < 0.0f;
      if (contactFaceIndex < 0 || face < contactFaceIndex) {
        contactFaceIndex = face;
        contact = q;
      }
    });
    if (!behind) return;
    const FaceRef r = faceRef(v, contactFaceIndex);
    const FemMaterial& mi = v.materials[n.material[i]];
    const FemMaterial& mf = v.materials[r.material];
    n.bodyFace[i] = contactFaceIndex;
    n.bodyFaceWeight[i] = vec3(contact.weight[0], contact.weight[1], contact.weight[2]);
    n.bodyFaceForce[i] = nodeFaceForce(contact, n.velocity[i], n.mass[i], contactFace(n, r), dt,
                                       fminf(mi.friction, mf.friction), fmaxf(mi.contactDamping, mf.contactDamping));
  });
}

// Contact between bodies, second half: node i's own contact force, less its shares, as a face corner, of the forces
// on the other bodies' nodes and particles whose contact face holds it (gathered from those near it on both grids:
// equal and opposite).
FRAC_HD inline vec3 bodyContactForce(const FemViews& v, const GridView& meshGrid, const GridView& debrisGrid, int i) {
  const FemNodeView& n = v.nodes;
  const vec3 x = n.position[i];
  vec3 total = n.bodyFace[i] >= 0 ? n.bodyFaceForce[i] : vec3(0.0f);
  if (n.faceCount[i] == 0) return total;
  const float far = 1.5f * n.faceReach[i];
  auto share = [&](int j, const glm::vec4& sphere) {
    if (sameSide(n, j, i) || n.bodyFace[j] < 0 || length2(vec3(sphere) - x) > far * far) return;
    const FaceRef r = faceRef(v, n.bodyFace[j]);
    const int slot = r.node[0] == i ? 0 : (r.node[1] == i ? 1 : (r.node[2] == i ? 2 : -1));
    if (slot >= 0) total -= n.bodyFaceWeight[j][slot] * n.bodyFaceForce[j];
  };
  meshGrid.forEachCandidateWithin(x, far, share);
  debrisGrid.forEachCandidateWithin(x, far, share);
  return total;
}

// Whether j is among i's mesh neighbours (the ascending CSR list).
FRAC_HD inline bool meshNeighbors(const FemNodeView& n, int i, int j) {
  int lo = n.neighborStart[i], hi = n.neighborStart[i + 1];
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (n.neighbor[mid] < j) lo = mid + 1; else hi = mid;
  }
  return lo < n.neighborStart[i + 1] && n.neighbor[lo] == j;
}

// Debris contacts (fem_mesh_contact.h), gathered: a particle sums its forces from its body's faces near it (each face from
// its lowest node, found on the grid of mesh nodes) and from overlapping particles that were not its mesh neighbours
// (the grid of particles); a mesh node sums, for each particle near it, its share of that particle's force on each of
// its boundary faces. Both sides evaluate the same pair from the same inputs, so the forces are equal and opposite and
// no thread writes another node's sum. A face's corners lie within its longest edge of any point on it, so a particle
// touching a face has every corner within its radius plus the corner's faceReach: the mesh nodes' grid has cells at
// least the largest radius plus the largest faceReach wide, the particles' grid cells of two particle radii (their
// own contacts), and a mesh node searches it over the largest radius plus its faceReach.
template <class Exec>
void meshContactStage(const Exec& exec, const FemViews& v, const GridView debrisGrid, const GridView meshGrid,
                      const FemStepParams& p) {
  const FemNodeView n = v.nodes;
  const float dt = p.dt;
  const bool bodies = p.bodyContact;
  parallel_for(exec, n.count, [=] FRAC_HD(int i) {
    vec3 total(0.0f);
    const vec3 x = n.position[i];
    if (n.debris[i]) {
      const DebrisParticle a = debrisParticle(n, i);
      const FemMaterial& ma = v.materials[n.material[i]];
      debrisGrid.forEachCandidate(x, [&](int j, const glm::vec4&) {
        if (j == i || meshNeighbors(n, i, j)) return;  // mesh neighbours: their pair force holds them (debrisForce)
        const FemMaterial& mb = v.materials[n.material[j]];
        total += particleParticleContact(a, debrisParticle(n, j), dt, fminf(ma.friction, mb.friction),
                                         fmaxf(ma.contactDamping, mb.contactDamping));
      });
      meshGrid.forEachCandidate(x, [&](int j, const glm::vec4& sphere) {  // its own body's faces (other bodies': above)
        const float far = a.radius + n.faceReach[j];
        if (n.body[j] != n.body[i] || n.faceCount[j] == 0 || length2(vec3(sphere) - x) > far * far) return;
        for (int m = 0; m < n.faceCount[j]; ++m) {
          const FaceRef r = faceRef(v, n.boundaryFace[3 * n.cornerStart[j] + m]);
          if (lowestNode(r) != j) continue;  // each face once: from its lowest node
          const FemMaterial& mf = v.materials[r.material];
          vec3 force;
          float weight[3];
          if (particleFaceContact(a, contactFace(n, r), dt, fminf(ma.friction, mf.friction),
                                  fmaxf(ma.contactDamping, mf.contactDamping), force, weight))
            total += force;
        }
      });
    } else if (n.faceCount[i] > 0) {
      debrisGrid.forEachCandidateWithin(x, p.largestRadius + n.faceReach[i], [&](int j, const glm::vec4& sphere) {
        const float far = sphere.w + n.faceReach[i];
        if (n.body[j] != n.body[i] || length2(vec3(sphere) - x) > far * far) return;
        const DebrisParticle a = debrisParticle(n, j);
        const FemMaterial& ma = v.materials[n.material[j]];
        for (int m = 0; m < n.faceCount[i]; ++m) {
          const FaceRef r = faceRef(v, n.boundaryFace[3 * n.cornerStart[i] + m]);
          const int slot = r.node[0] == i ? 0 : (r.node[1] == i ? 1 : 2);
          const FemMaterial& mf = v.materials[r.material];
          vec3 force;
          float weight[3];
          if (particleFaceContact(a, contactFace(n, r), dt, fminf(ma.friction, mf.friction),
                                  fmaxf(ma.contactDamping, mf.contactDamping), force, weight))
            total -= weight[slot] * force;
        }
      });
    }
    if (bodies) total += bodyContactForce(v, meshGrid, debrisGrid, i);
    n.meshContact[i] = total;
  });
}

// Nodes: gather, accelerate, move (central differences). A node a kinematic drives (a grip's, or a rigid kinematic's
// mesh) moves with it: translated at its velocity and turned about its centre by the step's rotation (an exact
// Dirichlet condition: the stress pass sees the rate it imposes; the rotation in its Cayley form, r' = r + 2 / (1 +
// |a|^2) a x (r + a x r) with a = spin dt / 2: orthogonal, no libm, the same bits on every backend); its force is the
// load on the kinematic.
template <class Exec>
void nodeStage(const Exec& exec, const FemViews& v, const FemStepParams& p) {
  const FemNodeView n = v.nodes;
  const vec3* cornerForce = v.tets.cornerForce;
  const vec3* driveVelocity = v.driveVelocity;
  const vec3* driveSpin = v.driveSpin;
  const vec3* driveSlide = v.driveSlide;
  const vec3* driveCentre = v.driveCentre;
  parallel_for(exec, n.count, [=] FRAC_HD(int i) {
    vec3 f(0.0f);
    for (int c = n.cornerStart[i]; c < n.cornerStart[i + 1]; ++c) f += cornerForce[n.corner[c]];
    const float m = n.mass[i];
    f += m * p.gravity + nodeContactForce(v, i, p.dt) - (p.damping * m) * n.velocity[i];
    if (n.debris[i]) f += n.pairForce[i];
    if (p.contactStages()) f += n.meshContact[i];
    n.force[i] = f;
    const int grip = n.drivenBy ? n.drivenBy[i] : -1;
    if (grip >= 0) {
      const vec3 r = n.reference[i] + n.displacement[i] - driveCentre[grip];
      const vec3 a = (0.5f * p.dt) * driveSpin[grip];
      const vec3 turned = r + (2.0f / (1.0f + glm::dot(a, a))) * glm::cross(a, r + glm::cross(a, r));
      n.velocity[i] = prescribedOrFree(driveSlide[grip], driveVelocity[grip] + (turned - r) / p.dt,
                                       n.velocity[i] + (p.dt / m) * f);
    } else {
      n.velocity[i] = n.velocity[i] + (p.dt / m) * f;
    }
    n.displacement[i] += p.dt * n.velocity[i];
  });
}

// The material update of one tetrahedron over dt (eq. 7-16) from its rate of deformation; returns the Cauchy stress
// as (deviatoric part, pressure incl. the artificial viscosity): sigma = (1 - phi) s~ - (p + q) I. Departure: the
// damage scales the deviatoric stress only (the failed material "retains the hydrostatic pressure", sec. 3.1).
FRAC_HD inline void materialUpdate(const FemTetView& t, int e, const FemMaterial& m, const Deformation& rate,
                                   const FemStepParams& p, Sym3& stress, float& pressure) {
  const JohnsonCook& jc = m.jc;
  Sym3 s = jaumannUpdate(t.deviatoric[e], rate, m.shearModulus, p.dt);  // trial (effective)
  const float third = trace(rate.rate) / 3.0f;
  const Sym3 dev{rate.rate.xx - third, rate.rate.yy - third, rate.rate.zz - third, rate.rate.xy, rate.rate.yz,
                 rate.rate.zx};
  const float strainRate = sqrtf(2.0f / 3.0f * contract(dev));
  const float homologous = homologousTemperature(jc, t.temperature[e]);
  float equivalent;  // von Mises of the returned stress
  const float plastic =
      radialReturn(s, t.plasticStrain[e], m.shearModulus, jc, flowFactor(jc, strainRate, homologous), equivalent);
  const float strain = volumetricStrainUpdate(t.volumetricStrain[e], rate, p.dt);
  const float mu = -strain / (1.0f + strain), density = m.restDensity * (1.0f + mu);
  float damage = t.damage[e];
  // eq. 10/15: the work of the last stress on this step's rate, per unit mass
  const float work = (1.0f - damage) * (s.xx * dev.xx + s.yy * dev.yy + s.zz * dev.zz +
                                        2.0f * (s.xy * dev.xy + s.yz * dev.yz + s.zx * dev.zx)) -
                     t.pressure[e] * 3.0f * third;
  const float energy = t.energy[e] + p.dt * work / density;
  const float eos = mieGruneisenPressure(m.eos, m.restDensity, mu, energy);
  const float q = artificialViscosity(p.viscosityQuadratic, p.viscosityLinear, t.length[e], density, m.soundSpeed,
                                      third);
  if (plastic > 0.0f) {
    t.temperature[e] += kTaylorQuinney * equivalent * plastic / (density * jc.heatCapacity);  // eq. 9
    const float total = t.plasticStrain[e] + plastic;
    if (total > jc.damageStrain && equivalent > 0.0f) {  // Lemaitre damage past eps_D, to 1 at eps_F
      const float fracture = fractureStrain(jc, -eos / equivalent, strainRate, homologous);
      damage = fracture > jc.damageStrain ? fminf(damage + plastic / (fracture - jc.damageStrain), 1.0f) : 1.0f;
    }
    t.plasticStrain[e] = total;
  }
  // The spall cut-off (departure: not in Zhang, whose damage grows with plastic strain only, so a brittle material
  // fails in tension only where it yields: with a yield stress low enough for that, the compression wave of an
  // impact crushes it): a tetrahedron whose largest principal stress exceeds the material's tensile strength fails.
  if (m.spallStrength < 3e38f) {
    const float held = 1.0f - damage;  // the stress the element carries: (1 - phi) s~ - (p + q) I
    const Sym3 carried{held * s.xx, held * s.yy, held * s.zz, held * s.xy, held * s.yz, held * s.zx};
    if (exceedsPrincipal(carried, eos + q, m.spallStrength)) damage = 1.0f;
  }
  t.deviatoric[e] = s;
  t.volumetricStrain[e] = strain;
  t.energy[e] = energy;
  t.damage[e] = damage;
  t.pressure[e] = eos + q;
  if (damage >= 1.0f) t.failed[e] = 1;  // removed from the next pass on (sec. 3.1)
  const float keep = 1.0f - damage;
  stress = Sym3{keep * s.xx, keep * s.yy, keep * s.zz, keep * s.xy, keep * s.yz, keep * s.zx};
  pressure = eos + q;
}

// Tetrahedra: the material advanced with the velocity gradient of this step's half-step velocities (eq. 7-16) and the
// corner forces at the new positions (eq. 4); a failed tetrahedron exerts none.
template <class Exec>
void stressStage(const Exec& exec, const FemViews& v, const FemStepParams& p) {
  const FemNodeView n = v.nodes;
  const FemTetView t = v.tets;
  const FemMaterial* materials = v.materials;
  int32_t* pieceWords = v.pieceWords;
  parallel_for(exec, t.count, [=] FRAC_HD(int e) {
    if (t.failed[e]) {
      for (int k = 0; k < 4; ++k) t.cornerForce[4 * e + k] = vec3(0.0f);
      return;
    }
    const TetCorners c = t.corners[e];
    vec3 X[4], u[4], velocity[4];
    for (int k = 0; k < 4; ++k) {
      X[k] = n.reference[c.node[k]];
      u[k] = n.displacement[c.node[k]];
      velocity[k] = n.velocity[c.node[k]];
    }
    // The rate on the mid-step configuration x - dt/2 v (where the half-step velocities belong): for a rigid
    // rotation its velocity gradient is exactly skew (the Cayley transform of the step's rotation), so turning
    // bodies feel no spurious strain rate; the forces act at the new configuration.
    // Edges from corner 0 now (reference and displacement differences apart: a small strain keeps its precision)
    // and at mid-step.
    vec3 edge[3], middle[3];
    for (int k = 0; k < 3; ++k) {
      edge[k] = (X[k + 1] - X[0]) + (u[k + 1] - u[0]);
      middle[k] = edge[k] - (0.5f * p.dt) * (velocity[k + 1] - velocity[0]);
    }
    const Deformation rate = deformationRate(tetGeometry(vec3(0.0f), middle[0], middle[1], middle[2]), velocity);
    const TetForceGeometry g = tetForceGeometry(edge);
    Sym3 stress;
    float pressure;
    materialUpdate(t, e, materials[t.material[e]], rate, p, stress, pressure);
    if (t.failed[e]) atomicStoreInt(pieceWords, 1);  // failed this step: the pieces may have split
    t.volume[e] = g.volume;
    vec3 force[4];
    cornerForces(g, stress, pressure, force);
    for (int k = 0; k < 4; ++k) t.cornerForce[4 * e + k] = force[k];
  });
}

// Debris (sec. 3.2): a node all of whose tetrahedra have failed becomes a particle, keeping its mass (already a
// quarter of each incident element's), position and velocity, so mass and momentum are conserved exactly.
template <class Exec>
void debrisStage(const Exec& exec, const FemViews& v) {
  const FemNodeView n = v.nodes;
  const FemTetView t = v.tets;
  int32_t* anyDebris = v.anyDebris;
  parallel_for(exec, n.count, [=] FRAC_HD(int i) {
    if (n.debris[i] || n.cornerStart[i] == n.cornerStart[i + 1]) return;
    for (int c = n.cornerStart[i]; c < n.cornerStart[i + 1]; ++c)
      if (!t.failed[n.corner[c] / 4]) return;
    n.debris[i] = 1;
    atomicStoreInt(anyDebris, 1);
  });
}

// One step. `where`: views() of the state where it lives.
template <class Exec, class Where>
void stepStages(const Exec& exec, Where& where, const FemStepParams& p) {
  const FemViews v = where.views();
  if (p.labelCheck) relabelPiecesIfSplit(exec, v);
  debrisPressureStage(exec, v);
  debrisPairStage(exec, v, p);
  if (p.contactStages()) {
    positionStage(exec, v);
    boundaryFacesStage(exec, v);
    // The grids over the nodes' box this step: the mesh nodes' with cells of the largest particle radius plus the
    // largest faceReach, the particles' with cells of 2 largest radii (grown when the box would need more than 8
    // cells a node).
    contactBoundsStage(exec, v);
    int32_t word[7];
    readValues(exec, word, v.contactBounds, 7);
    const vec3 lo(floatFromOrderedBits(word[0]), floatFromOrderedBits(word[1]), floatFromOrderedBits(word[2]));
    const vec3 hi(floatFromOrderedBits(word[3]), floatFromOrderedBits(word[4]), floatFromOrderedBits(word[5]));
    const float reach = floatFromOrderedBits(word[6]);
    const FemNodeView& n = v.nodes;
    const int64_t cells = int64_t(8) * n.count > (1 << 16) ? int64_t(8) * n.count : (1 << 16);
    const GridView debrisGrid = where.contactGrid(0).build(exec, gridWindow(lo, hi, 2.0f * p.largestRadius, cells),
                                                           n.position, n.particleRadius, n.contactGrid, 2 | 4, n.count);
    const GridView meshGrid =
        where.contactGrid(1).build(exec, gridWindow(lo, hi, fmaxf(reach, 1e-6f) + p.largestRadius, cells), n.position,
                                   n.particleRadius, n.contactGrid, 1 | 4, n.count);
    if (p.bodyContact) bodyContactStage(exec, v, meshGrid, reach, p);
    meshContactStage(exec, v, debrisGrid, meshGrid, p);
  }
  nodeStage(exec, v, p);
  stressStage(exec, v, p);
  debrisStage(exec, v);
}

}  // namespace frac::fem
