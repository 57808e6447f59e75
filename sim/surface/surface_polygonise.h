#pragma once
// The last passes of the fracture-surface extraction (fracture_surfaces.h): the active cells in cell order, their
// triangles (marching_tets.h) counted and scanned, a mesh vertex per grid edge the surface crosses numbered by a scan
// over the grid vertices (the edge's lower vertex, then its direction), then the indices and the vertices with their
// normals. Written once for every exec policy, like surface_stages.h, and without atomics: each pass gathers what it
// needs from its neighbours in a fixed order, so the sums (normals) are the same on every thread count and the GPU.
#include <cstdint>

#include "surface/surface_stages.h"

namespace frac::surface_stages {

// The mesh's per-vertex arrays (SurfaceMesh's fields, in the exec policy's memory).
struct MeshViews {
  vec3* positions = nullptr;
  vec3* normals = nullptr;
  uint32_t* fragment = nullptr;
  int32_t* element = nullptr;
  float* crack = nullptr;
};

// The mesh index of the vertex on edge (v, d): edgeBase[v] plus v's used edges of lower direction.
FRAC_HD inline uint32_t meshIndex(const int32_t* edgeMask, const int32_t* edgeBase, int32_t v, int d) {
  return uint32_t(edgeBase[v] + bitCount(uint32_t(edgeMask[v]) & ((1u << d) - 1u)));
}

template <class Exec>
void flagActive(const Exec& exec, const int32_t* cellState, int cells, int32_t* flag) {
  parallel_for(exec, cells, [=] FRAC_HD(int c) { flag[c] = cellState[c] != 0; });
}

template <class Exec>
void listActive(const Exec& exec, const int32_t* cellState, const int32_t* position, int cells, int32_t* active) {
  parallel_for(exec, cells, [=] FRAC_HD(int c) {
    if (cellState[c] != 0) active[position[c]] = c;
  });
}

// Per active cell its triangle count.
template <class Exec>
void countTriangles(const Exec& exec, const Frame& s, const int32_t* active, int n, int32_t* count) {
  parallel_for(exec, n, [=] FRAC_HD(int k) {
    const FragmentGrid g = s.grids[fragmentHolding(s.grids, s.fragments, active[k], false)];
    float f[8];
    cellCorners(g, g.cellCoordinates(active[k]), s.value, f);
    TetEdge tri[2][3];
    int triangles = 0;
    for (int t = 0; t < 6; ++t) triangles += tetTriangles(t, f, tri);
    count[k] = triangles;
  });
}

// The cells holding grid edge (q, d) are q minus the subsets s of the axes d leaves out (the edge runs from their
// corner s to corner s | d); calls f(s, cell index) for those inside the grid, s ascending.
template <class F>
FRAC_HD inline void forEachCellOfEdge(const FragmentGrid& g, const glm::ivec3& q, int d, F&& f) {
  for (int s = 0; s < 8; ++s) {
    if (s & d) continue;
    const glm::ivec3 cell = q - cornerOffset(s);
    if (g.holdsCell(cell)) f(s, g.cell(cell));
  }
}

// Per grid vertex, the directions (bits 1..7) of its edges that carry a mesh vertex: the function changes sign along
// the edge and an active cell holds it (every edge of a Kuhn tetrahedron with a sign change is cut, and every (q, d)
// is such an edge in each cell holding it); count: how many.
template <class Exec>
void markEdges(const Exec& exec, const Frame& s, int vertices, int32_t* edgeMask, int32_t* count) {
  parallel_for(exec, vertices, [=] FRAC_HD(int v) {
    int mask = 0;
    if (s.owner[v] >= -1) {
      const FragmentGrid g = s.grids[fragmentHolding(s.grids, s.fragments, v, true)];
      const glm::ivec3 q = g.vertexCoordinates(v);
      const bool inside = s.value[v] < 0.0f;
      for (int d = 1; d < 8; ++d) {
        const glm::ivec3 end = q + cornerOffset(d);
        if (end.x > g.dims.x || end.y > g.dims.y || end.z > g.dims.z) continue;
        const int32_t u = g.vertex(end);
        if (s.owner[u] < -1 || (s.value[u] < 0.0f) == inside) continue;
        bool held = false;
        forEachCellOfEdge(g, q, d, [&](int, int32_t cell) { held = held || s.cellState[cell] != 0; });
        if (held) mask |= 1 << d;
      }
    }
    edgeMask[v] = mask;
    count[v] = bitCount(uint32_t(mask));
  });
}

// A cell's 19 edges (corner s, direction d with s & d == 0) numbered 0..18, for the per-cell normal sums.
FRAC_HD inline int cellEdgeSlot(int s, int d) {
  constexpr int8_t kSlot[8][8] = {
      {-1, 0, 1, 2, 3, 4, 5, 6},
      {-1, -1, 7, -1, 8, -1, 9, -1},
      {-1, 10, -1, -1, 11, 12, -1, -1},
      {-1, -1, -1, -1, 13, -1, -1, -1},
      {-1, 14, 15, 16, -1, -1, -1, -1},
      {-1, -1, 17, -1, -1, -1, -1, -1},
      {-1, 18, -1, -1, -1, -1, -1, -1},
      {-1, -1, -1, -1, -1, -1, -1, -1}};
  return kSlot[s][d];
}
constexpr int kCellEdges = 19;

// Every mesh vertex: position on its edge, the fragment's key, the element whose cell it lies on (the nearer end's
// owner) and the crack flag; piece[f] = 1 for every fragment with a vertex.
template <class Exec>
void writeVertices(const Exec& exec, const Frame& s, int vertices, const int32_t* edgeMask, const int32_t* edgeBase,
                   MeshViews out, int32_t* piece) {
  parallel_for(exec, vertices, [=] FRAC_HD(int v) {
    const uint32_t mask = uint32_t(edgeMask[v]);
    if (mask == 0) return;
    const int fragment = fragmentHolding(s.grids, s.fragments, v, true);
    const FragmentGrid g = s.grids[fragment];
    atomicStoreInt(&piece[fragment], 1);
    const glm::ivec3 q = g.vertexCoordinates(v);
    for (int d = 1; d < 8; ++d) {
      if (!((mask >> d) & 1u)) continue;
      const int32_t u = g.vertex(q + cornerOffset(d));
      const float a = s.value[v], b = s.value[u];
      const uint32_t m = meshIndex(edgeMask, edgeBase, v, d);
      out.positions[m] = edgePoint(s.origin, g, q, d, a, b);
      const bool nearLower = (a / (a - b) < 0.5f && s.owner[v] >= 0) || s.owner[u] < 0;
      out.element[m] = nearLower ? s.owner[v] : s.owner[u];
      out.crack[m] = float(nearLower ? s.crack[v] : s.crack[u]);
      out.fragment[m] = s.field.fragmentKey[fragment];
    }
  });
}

// The triangles of active cell k from 3 * triangleStart[k], as mesh indices, and the sums of their cross products
// per edge of the cell (cellNormal, kCellEdges slots per active cell, in triangle order; cellEdges: the slots set).
template <class Exec>
void writeIndices(const Exec& exec, const Frame& s, const int32_t* active, int n, const int32_t* triangleStart,
                  const int32_t* edgeMask, const int32_t* edgeBase, const vec3* positions, uint32_t* indices,
                  vec3* cellNormal, int32_t* cellEdges) {
  parallel_for(exec, n, [=] FRAC_HD(int k) {
    const FragmentGrid g = s.grids[fragmentHolding(s.grids, s.fragments, active[k], false)];
    const glm::ivec3 q = g.cellCoordinates(active[k]);
    float f[8];
    cellCorners(g, q, s.value, f);
    // Per edge of the cell: its normal sum and (once a triangle uses it) its mesh index.
    vec3 sum[kCellEdges];
    uint32_t index[kCellEdges];
    uint32_t known = 0;
    int64_t at = 3 * int64_t(triangleStart[k]);
    TetEdge tri[2][3];
    for (int t = 0; t < 6; ++t) {
      const int made = tetTriangles(t, f, tri);
      for (int m = 0; m < made; ++m) {
        int slot[3];
        for (int c = 0; c < 3; ++c) {
          const TetEdge& e = tri[m][c];
          const int d = e.upper - e.lower;
          slot[c] = cellEdgeSlot(e.lower, d);
          if (!((known >> slot[c]) & 1u)) {
            index[slot[c]] = meshIndex(edgeMask, edgeBase, g.vertex(q + cornerOffset(e.lower)), d);
            sum[slot[c]] = vec3(0.0f);
            known |= 1u << slot[c];
          }
          indices[at++] = index[slot[c]];
        }
        const vec3 p0 = positions[index[slot[0]]];
        const vec3 cross = glm::cross(positions[index[slot[1]]] - p0, positions[index[slot[2]]] - p0);
        for (int c = 0; c < 3; ++c) sum[slot[c]] += cross;
      }
    }
    for (int e = 0; e < kCellEdges; ++e)
      if ((known >> e) & 1u) cellNormal[int64_t(k) * kCellEdges + e] = sum[e];
    cellEdges[k] = int32_t(known);
  });
}

// Every mesh vertex's normal: the sums of the active cells holding its edge (cellNormal), in the cells' order,
// normalised: area-weighted.
template <class Exec>
void writeNormals(const Exec& exec, const Frame& s, int vertices, const int32_t* edgeMask, const int32_t* edgeBase,
                  const int32_t* activeIndex, const vec3* cellNormal, const int32_t* cellEdges, vec3* normals) {
  parallel_for(exec, vertices, [=] FRAC_HD(int v) {
    const uint32_t mask = uint32_t(edgeMask[v]);
    if (mask == 0) return;
    const FragmentGrid g = s.grids[fragmentHolding(s.grids, s.fragments, v, true)];
    const glm::ivec3 q = g.vertexCoordinates(v);
    for (int d = 1; d < 8; ++d) {
      if (!((mask >> d) & 1u)) continue;
      vec3 n(0.0f);
      forEachCellOfEdge(g, q, d, [&](int corner, int32_t cell) {
        if (s.cellState[cell] == 0) return;
        const int64_t k = activeIndex[cell];
        const int slot = cellEdgeSlot(corner, d);
        if ((cellEdges[k] >> slot) & 1) n += cellNormal[k * kCellEdges + slot];
      });
      const float len = sqrtf(glm::dot(n, n));
      normals[meshIndex(edgeMask, edgeBase, v, d)] = len > 0.0f ? n / len : vec3(0.0f, 1.0f, 0.0f);
    }
  });
}

}  // namespace frac::surface_stages
