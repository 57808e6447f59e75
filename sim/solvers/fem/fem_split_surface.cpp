// fem-debris' surface: intact tetrahedra's outer faces and the corner pieces of failed ones (Zhang et al. sec. 4,
// fem_split_surface.h says how).
#include "solvers/fem/fem_split_surface.h"

#include <algorithm>
#include <cstddef>
#include <unordered_set>

#include "kernels/fem_tet.h"
#include "surface/crease_normals.h"

namespace frac {

namespace {

vec3 positionOf(const FemNodeArrays& n, int v) { return n.reference[v] + n.displacement[v]; }

// An edge's key, whichever way round: (lower node, higher node).
uint64_t edgeKey(int32_t p, int32_t q) { return uint64_t(uint32_t(std::min(p, q))) << 32 | uint32_t(std::max(p, q)); }

// The orthonormal frame of triangle abc (columns: along ab, in the plane, its normal) and its perimeter; false for a
// degenerate triangle.
bool triangleFrame(const vec3& a, const vec3& b, const vec3& c, glm::mat3& frame, float& perimeter) {
  const vec3 ab = b - a, ac = c - a, normal = glm::cross(ab, ac);
  const float lengthAb = glm::length(ab), twiceArea = glm::length(normal);
  if (!(lengthAb > 0.0f) || !(twiceArea > 1e-6f * lengthAb * lengthAb)) return false;
  const vec3 x = ab / lengthAb, z = normal / twiceArea;
  frame = glm::mat3(x, glm::cross(z, x), z);
  perimeter = lengthAb + glm::length(ac) + glm::length(c - b);
  return true;
}

// Eq. 21's k R for the triangle of nodes abc: its rest frame turned into its frame now, scaled by the ratio of its
// perimeters; the identity where either is degenerate.
glm::mat3 triangleMap(const FemNodeArrays& n, const int32_t (&tri)[3]) {
  glm::mat3 rest, now;
  float restPerimeter = 0.0f, nowPerimeter = 0.0f;
  if (!triangleFrame(n.reference[tri[0]], n.reference[tri[1]], n.reference[tri[2]], rest, restPerimeter) ||
      !triangleFrame(positionOf(n, tri[0]), positionOf(n, tri[1]), positionOf(n, tri[2]), now, nowPerimeter))
    return glm::mat3(1.0f);
  return (nowPerimeter / restPerimeter) * now * glm::transpose(rest);
}

// Node v's base triangle: the face through v (the one opposite its next corner) of its first intact tetrahedron, or
// with anyTet of its first tetrahedron at all; false if there is none.
bool baseTriangle(const FemArrays& a, int v, bool anyTet, int32_t (&tri)[3]) {
  for (int32_t c = a.nodes.cornerStart[v]; c < a.nodes.cornerStart[v + 1]; ++c) {
    const int32_t tet = a.nodes.corner[c] / 4, k = a.nodes.corner[c] % 4;
    if (a.tets.failed[tet] && !anyTet) continue;
    const int face = (k + 1) & 3;
    for (int m = 0; m < 3; ++m) tri[m] = a.tets.corners[tet].node[fem::tetFaceCorner(face, m)];
    return true;
  }
  return false;
}

// Whether an intact tetrahedron holds the edge (a, b): then a and b are one piece (sec. 4.2's clusters).
bool edgeIntact(const FemArrays& a, int32_t from, int32_t to) {
  for (int32_t c = a.nodes.cornerStart[from]; c < a.nodes.cornerStart[from + 1]; ++c) {
    const int32_t tet = a.nodes.corner[c] / 4;
    if (a.tets.failed[tet]) continue;
    const TetCorners& corners = a.tets.corners[tet];
    if (corners.node[0] == to || corners.node[1] == to || corners.node[2] == to || corners.node[3] == to) return true;
  }
  return false;
}

// A split point seen from one piece: the nodes it lies between (its edge, face or tetrahedron, ascending), which of
// them belong to the piece (bits over that order), and outer surface (0) or crack face (1).
struct PointKey {
  int32_t node[4] = {-1, -1, -1, -1};
  uint8_t members = 0;
  uint8_t kind = 0;
  bool operator==(const PointKey& o) const {
    return node[0] == o.node[0] && node[1] == o.node[1] && node[2] == o.node[2] && node[3] == o.node[3] &&
           members == o.members && kind == o.kind;
  }
};

struct PointKeyHash {
  size_t operator()(const PointKey& k) const {
    uint64_t h = 1469598103934665603ull;
    for (int32_t v : k.node) h = (h ^ uint64_t(uint32_t(v))) * 1099511628211ull;
    return size_t((h ^ (uint64_t(k.members) | uint64_t(k.kind) << 8)) * 1099511628211ull);
  }
};

}  // namespace

void FemSplitSurface::reset() {
  nodeMap_.clear();
  mapState_.clear();
  edgeSplit_.clear();
}

// Each node's map (eq. 21): a mesh node's from its base triangle now; a node whose tetrahedra all failed keeps the
// one it had as a mesh node, or (first seen loose) takes its first tetrahedron's face as it is now, and keeps it.
void FemSplitSurface::updateNodeMaps(const FemArrays& a) {
  const int n = a.nodes.size();
  nodeMap_.resize(size_t(n), glm::mat3(1.0f));
  mapState_.resize(size_t(n), 0);
  for (int v = 0; v < n; ++v) {
    int32_t tri[3];
    if (baseTriangle(a, v, false, tri)) {
      nodeMap_[v] = triangleMap(a.nodes, tri);
      mapState_[v] = 1;
    } else if (mapState_[v] != 2) {
      if (mapState_[v] == 0 && baseTriangle(a, v, true, tri)) nodeMap_[v] = triangleMap(a.nodes, tri);
      mapState_[v] = 2;
    }
  }
}

// The weight of `to` in the split point of edge (from, to), fixed on the edge the first time it is asked for.
float FemSplitSurface::edgeSplit(const std::vector<float>& nodalDamage, int32_t from, int32_t to) {
  const int32_t lo = std::min(from, to), hi = std::max(from, to);
  const uint64_t key = edgeKey(from, to);
  auto it = edgeSplit_.find(key);
  if (it == edgeSplit_.end()) {
    const float dLo = nodalDamage[lo], dHi = nodalDamage[hi];
    float share = 0.5f;  // of hi
    if ((dLo - kSplitDamage) * (dHi - kSplitDamage) < 0.0f) share = (kSplitDamage - dLo) / (dHi - dLo);
    it = edgeSplit_.emplace(key, std::clamp(share, 0.2f, 0.8f)).first;
  }
  return from == lo ? it->second : 1.0f - it->second;
}

void FemSplitSurface::build(const FemArrays& a, const std::vector<uint32_t>& fragmentKey, SurfaceMesh& out) {
  out.clear();
  updateNodeMaps(a);
  const FemNodeArrays& nodes = a.nodes;
  const int nodeCount = nodes.size();
  std::vector<float> nodalDamage(size_t(nodeCount), 0.0f);
  std::vector<uint8_t> loose(size_t(nodeCount), 1);  // no intact tetrahedron: a piece of its own
  for (int v = 0; v < nodeCount; ++v) {
    const int32_t first = nodes.cornerStart[v], last = nodes.cornerStart[v + 1];
    for (int32_t c = first; c < last; ++c) {
      const int32_t tet = nodes.corner[c] / 4;
      nodalDamage[v] += a.tets.failed[tet] ? 1.0f : a.tets.damage[tet];
      if (!a.tets.failed[tet]) loose[v] = 0;
    }
    if (last > first) nodalDamage[v] /= float(last - first);
  }

  std::unordered_map<PointKey, uint32_t, PointKeyHash> vertexOf;
  size_t failed = 0;
  for (uint8_t f : a.tets.failed) failed += f;
  vertexOf.reserve(16 * failed + size_t(nodeCount));
  // The vertex of the split point between the tetrahedron's corners in `support` (bits), seen from the piece of
  // the corners in `piece` (bits), on the outer surface (kind 0) or a crack face (1).
  auto vertex = [&](const TetCorners& corners, unsigned support, unsigned piece, uint8_t kind) {
    int local[4], count = 0;
    for (int k = 0; k < 4; ++k)
      if (support >> k & 1) local[count++] = k;
    for (int s = 1; s < count; ++s)  // ascending node order (insertion sort of at most four)
      for (int t = s; t > 0 && corners.node[local[t]] < corners.node[local[t - 1]]; --t) std::swap(local[t], local[t - 1]);
    PointKey key;
    key.kind = kind;
    for (int s = 0; s < count; ++s) {
      key.node[s] = corners.node[local[s]];
      if (piece >> local[s] & 1) key.members |= uint8_t(1u << s);
    }
    auto [it, added] = vertexOf.try_emplace(key, uint32_t(out.positions.size()));
    if (!added) return it->second;
    // Barycentric weights: an edge's split share; a face or the tetrahedron: the mean over its edges.
    float weight[4] = {count == 1 ? 1.0f : 0.0f, 0.0f, 0.0f, 0.0f};
    const float edges = float(count * (count - 1) / 2);
    for (int s = 0; s < count; ++s)
      for (int t = s + 1; t < count; ++t) {
        const float share = edgeSplit(nodalDamage, key.node[s], key.node[t]);
        weight[s] += (1.0f - share) / edges;
        weight[t] += share / edges;
      }
    // The virtual tetrahedron of this piece (eq. 20-22): its own nodes where they are, the others through the mean
    // of its nodes' maps.
    int memberCount = 0, element = -1;
    for (int s = 0; s < count; ++s)
      if (key.members >> s & 1) {
        ++memberCount;
        if (element < 0) element = key.node[s];
      }
    vec3 position(0.0f);
    for (int s = 0; s < count; ++s) {
      const int32_t w = key.node[s];
      vec3 at = positionOf(nodes, w);
      if (!(key.members >> s & 1)) {
        vec3 sum(0.0f);
        for (int m = 0; m < count; ++m)
          if (key.members >> m & 1) {
            const int32_t v = key.node[m];
            sum += positionOf(nodes, v) + nodeMap_[v] * (nodes.reference[w] - nodes.reference[v]);
          }
        at = sum / float(memberCount);
      }
      position += weight[s] * at;
    }
    out.positions.push_back(position);
    out.normals.push_back(vec3(0.0f));
    out.fragment.push_back(fragmentKey[element]);
    out.element.push_back(element);
    out.crack.push_back(float(kind));
    return it->second;
  };
  auto quad = [&](const uint32_t (&v)[4]) {
    for (uint32_t i : {v[0], v[1], v[2], v[0], v[2], v[3]}) out.indices.push_back(i);
  };

  // The outer edges of failed tetrahedra: an intact outer face along one takes its split point, so that the surface
  // stays closed (no T-junction).
  std::unordered_set<uint64_t> splitOuterEdges;
  for (int e = 0; e < a.tets.size(); ++e)
    for (int k = 0; k < 4 && a.tets.failed[e]; ++k)
      if (a.tets.faceNeighbor[size_t(4) * e + k] < 0)
        for (int m = 0; m < 3; ++m)
          splitOuterEdges.insert(edgeKey(a.tets.corners[e].node[fem::tetFaceCorner(k, m)],
                                         a.tets.corners[e].node[fem::tetFaceCorner(k, (m + 1) % 3)]));

  for (int e = 0; e < a.tets.size(); ++e) {
    const TetCorners& c = a.tets.corners[e];
    const int32_t* neighbour = &a.tets.faceNeighbor[size_t(4) * e];
    if (!a.tets.failed[e]) {  // an intact tetrahedron shows its outer faces; a failed neighbour's pieces cover the rest
      for (int k = 0; k < 4; ++k) {
        if (neighbour[k] >= 0) continue;
        const int corner[3] = {fem::tetFaceCorner(k, 0), fem::tetFaceCorner(k, 1), fem::tetFaceCorner(k, 2)};
        bool split[3], any = false;
        for (int m = 0; m < 3; ++m) {
          split[m] = splitOuterEdges.count(edgeKey(c.node[corner[m]], c.node[corner[(m + 1) % 3]])) > 0;
          any = any || split[m];
        }
        const unsigned face = 15u & ~(1u << k);
        if (!any) {
          for (int m = 0; m < 3; ++m) out.indices.push_back(vertex(c, 1u << corner[m], 1u << corner[m], 0));
          continue;
        }
        const uint32_t centre = vertex(c, face, face, 0);  // a fan around the face point, through the edge points
        for (int m = 0; m < 3; ++m) {
          const unsigned from = 1u << corner[m], to = 1u << corner[(m + 1) % 3];
          const uint32_t a0 = vertex(c, from, face, 0), a1 = vertex(c, to, face, 0);
          if (!split[m]) {
            for (uint32_t v : {centre, a0, a1}) out.indices.push_back(v);
            continue;
          }
          const uint32_t middle = vertex(c, from | to, face, 0);
          for (uint32_t v : {centre, a0, middle, centre, middle, a1}) out.indices.push_back(v);
        }
      }
      continue;
    }
    // A failed tetrahedron: its corners' pieces (a loose node alone, mesh nodes joined by intact edges).
    unsigned piece[4] = {1u, 2u, 4u, 8u};
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j)
        if (!loose[c.node[i]] && !loose[c.node[j]] && !(piece[i] >> j & 1) && edgeIntact(a, c.node[i], c.node[j])) {
          const unsigned joined = piece[i] | piece[j];
          for (int k = 0; k < 4; ++k)
            if (joined >> k & 1) piece[k] = joined;
        }
    for (int i = 0; i < 4; ++i)  // crack faces between corners of different pieces, one for each side
      for (int j = i + 1; j < 4; ++j) {
        if (piece[i] >> j & 1) continue;
        int l = -1, m = -1;
        for (int k = 0; k < 4; ++k)
          if (k != i && k != j) (l < 0 ? l : m) = k;
        const unsigned edge = 1u << i | 1u << j, faceL = edge | 1u << l, faceM = edge | 1u << m;
        // Counter-clockwise seen from j (outward for i's piece): E, F_l, centre, F_m for a positive tetrahedron
        // when (i, j, l, m) is an even permutation of (0, 1, 2, 3).
        const bool even = (i == 0 && j == 1) || (i == 0 && j == 3) || (i == 1 && j == 2) || (i == 2 && j == 3);
        const unsigned first = even ? faceL : faceM, second = even ? faceM : faceL;
        quad({vertex(c, edge, piece[i], 1), vertex(c, first, piece[i], 1), vertex(c, 15u, piece[i], 1),
              vertex(c, second, piece[i], 1)});
        quad({vertex(c, edge, piece[j], 1), vertex(c, second, piece[j], 1), vertex(c, 15u, piece[j], 1),
              vertex(c, first, piece[j], 1)});
      }
    for (int k = 0; k < 4; ++k) {  // outer faces: each corner's quarter with its piece
      if (neighbour[k] >= 0) continue;
      const unsigned face = 15u & ~(1u << k);
      for (int s = 0; s < 3; ++s) {
        const int i = fem::tetFaceCorner(k, s), next = fem::tetFaceCorner(k, (s + 1) % 3),
                  previous = fem::tetFaceCorner(k, (s + 2) % 3);
        quad({vertex(c, 1u << i, piece[i], 0), vertex(c, 1u << i | 1u << next, piece[i], 0),
              vertex(c, face, piece[i], 0), vertex(c, 1u << i | 1u << previous, piece[i], 0)});
      }
    }
  }

  creaseNormals(out, kCreaseDegrees);
  std::vector<uint32_t> keys = out.fragment;
  std::sort(keys.begin(), keys.end());
  out.pieces = int(std::unique(keys.begin(), keys.end()) - keys.begin());
}

}  // namespace frac
