#pragma once
// The surface of fem-debris bodies as Zhang et al. sec. 4 rebuild it: the outer faces of intact tetrahedra, and every
// failed tetrahedron split into four corner pieces (the 1-1-1-1 configuration of Fig. 4d, always, sec. 4.1: so that
// a piece's shape does not jump when its element's split case changes). Each corner goes with its node: a debris
// particle's pieces around it make its shape, a mesh node's pieces stay on the body. Where two corners of a failed
// tetrahedron belong to different pieces (a particle is a piece of its own; mesh nodes are one piece when an intact
// tetrahedron holds their edge: sec. 4.2's clusters), the face between their corner pieces (edge point, two face
// points, centre) is a crack face, drawn once for each side.
//
// Split points (sec. 4.2): an edge splits where the nodal damage (the mean over its tetrahedra, a failed one counting
// 1) crosses kSplitDamage, else in the middle, fixed the first time the edge is seen on a failed tetrahedron, kept on
// the edge (the paper's per-edge timestamp: every tetrahedron on the edge splits it at the same point); a face point is
// the mean of its edge points, the centre the mean of all six.
//
// Virtual tetrahedra (eq. 20-22): a failed element's nodes have drifted apart, so each piece places the corners it
// does not own from its own nodes' base triangles: node v's base triangle (a face of its first intact tetrahedron)
// gives the map X -> x_v + k R (X - X_v), R turning the triangle's rest frame into its frame now and k the ratio of
// its perimeters (eq. 21). We depart from eq. 22 in one point: the map is centred on the node rather than on the
// triangle's centroid, so that a piece stays attached to its node exactly. A piece with several nodes on a split
// point's edge, face or tetrahedron takes their own positions for its members and the mean of their maps for the
// others; so a split point is the same wherever it appears, and neighbouring pieces close without gaps. A debris
// particle keeps the map its node had when it was last a mesh node (it does not turn: sec. 4.2, "the local coordinate
// is fixed at the time when it is converted").
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "solvers/fem/fem_arrays.h"
#include "surface/surface_mesh.h"

namespace frac {

class FemSplitSurface {
 public:
  // The nodal damage at which an edge of a failed tetrahedron splits (sec. 4.2's user threshold).
  static constexpr float kSplitDamage = 0.5f;
  // Normals are smooth across edges where faces meet flatter than this, sharp elsewhere (surface/crease_normals.h).
  static constexpr float kCreaseDegrees = 40.0f;

  // Forgets the split points and the particles' frozen maps (a new scene).
  void reset();
  // The surface of the state in `a`; fragmentKey: each node's fragment colour key.
  void build(const FemArrays& a, const std::vector<uint32_t>& fragmentKey, SurfaceMesh& out);

 private:
  void updateNodeMaps(const FemArrays& a);
  float edgeSplit(const std::vector<float>& nodalDamage, int32_t from, int32_t to);

  std::vector<glm::mat3> nodeMap_;  // per node: k R of its base triangle (eq. 21)
  std::vector<uint8_t> mapState_;   // per node: 0 none yet, 1 a mesh node's (renewed each build), 2 frozen (debris)
  std::unordered_map<uint64_t, float> edgeSplit_;  // per edge (a < b): the split point's share from a
};

}  // namespace frac
