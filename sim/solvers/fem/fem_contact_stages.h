#pragma once
// The FEM step's contact stages (fem_step.h stepStages runs them, before anything moves, once there is debris or
// two bodies): the contact grids' bounds, each node's boundary faces, node-to-surface contact between bodies, and
// the debris particles' contacts with the mesh and with each other. Every force is gathered by the node it acts on
// from the same inputs on both sides of a pair (no scatter), so every thread count and backend gives the same bits.
#include "backend/atomics.h"
#include "backend/exec_memory.h"
#include "core/grid.h"
#include "kernels/fem_contact.h"
#include "kernels/fem_debris.h"
#include "kernels/fem_mesh_contact.h"
#include "solvers/fem/fem_arrays.h"
#include "solvers/fem/fem_step_params.h"

namespace frac::fem {

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
// Each tetrahedron's faces are judged once (exposedFaces) and its four nodes read the judgement: the node pass alone
// read the two sides of each of its tetrahedra's faces, three times a face, a sixth of a step with two bodies.
template <class Exec>
void boundaryFacesStage(const Exec& exec, const FemViews& v) {
  const FemNodeView n = v.nodes;
  const FemTetView t = v.tets;
  parallel_for(exec, t.count, [=] FRAC_HD(int e) {
    uint8_t exposed = 0;
    for (int k = 0; k < 4; ++k) {
      const int other = t.faceNeighbor[4 * e + k];
      if (other < 0 || t.failed[other]) exposed |= uint8_t(1 << k);
    }
    t.exposedFaces[e] = t.failed[e] ? 0 : exposed;  // a failed tetrahedron holds no boundary face
  });
  parallel_for(exec, n.count, [=] FRAC_HD(int i) {
    int count = 0;
    float longest2 = 0.0f;
    for (int c = n.cornerStart[i]; c < n.cornerStart[i + 1]; ++c) {
      const int e = n.corner[c] / 4, own = n.corner[c] % 4;
      const int exposed = t.exposedFaces[e] & ~(1 << own);  // the face opposite i does not hold it
      if (exposed == 0) continue;
      for (int k = 0; k < 4; ++k) {
        if (!(exposed & (1 << k))) continue;
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

// Whether node or particle i and the faces of mesh node j are kept apart by the meshes' own means rather than by the
// contact between pieces: a debris particle meets its own body's faces with its ball (meshContactStage), a mesh node
// its own piece's faces never (they are its surface).
FRAC_HD inline bool sameSide(const FemNodeView& n, int i, int j) {
  return n.debris[i] ? n.body[j] == n.body[i] : n.piece[j] == n.piece[i];
}

// f(face, projection, squared distance) for each boundary face of another piece or body within reach of node i
// (each face found through its lowest node) onto which i projects (nodeFaceCandidate).
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

// Contact between bodies, first half (nodeFaceCandidate, eq. 6): each surface node and each debris particle finds its
// contact face among the other bodies' boundary faces (each face found through its lowest node) and, when it is behind
// it, its force. A particle meets other bodies as a point, as it meets the ground and the balls: with its ball, a
// particle caught between a steel ball and the crack faces it was pushed into was squeezed between two springs whose
// gap kept closing, and shot out (the run blew up); against its own body's faces it keeps its ball (meshContactStage).
// The contact face is the nearest one (by the distance to its closest point); when the closest point is a corner or an
// edge that several faces share (a node over a vertex of a matching mesh, or beyond a convex edge), the node is in
// contact only if it is behind every face at that distance, and the face is the lowest-numbered of them. Two passes
// (the nearest distance, then the faces at it) make the choice independent of the search order. A point less than half
// the longest edge L from a face lies within 1.5 L of each corner: the search reaches 1.5 times the largest faceReach,
// and 1.5 faceReach of the corner. `meshGrid` holds the surface nodes only.
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

// Debris contacts (fem_mesh_contact.h), gathered: a particle sums its forces from its body's faces near it (each face
// from its lowest node, found on the grid of mesh nodes) and from overlapping particles that were not its mesh
// neighbours (the grid of particles); a mesh node sums, for each particle near it, its share of that particle's force
// on each of its boundary faces. Both sides evaluate the same pair from the same inputs, so the forces are equal and
// opposite and no thread writes another node's sum. A face's corners lie within its longest edge of any point on it, so
// a particle touching a face has every corner within its radius plus the corner's faceReach: the mesh nodes' grid has
// cells at least the largest radius plus the largest faceReach wide, the particles' grid cells of two particle radii
// (their own contacts), and a mesh node searches it over the largest radius plus its faceReach.
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

}  // namespace frac::fem
