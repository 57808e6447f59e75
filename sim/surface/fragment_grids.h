#pragma once
// The pieces of the extraction in fracture_surfaces.h that run per grid cell, grid vertex or mesh vertex, host and
// device alike: each fragment's grid, a fragment's implicit function at a point (the min of its elements' cell
// functions, element_cell.h) and a mesh vertex on a grid edge.
#include <cstdint>

#include "core/grid.h"
#include "surface/cell_planes.h"
#include "surface/marching_tets.h"

namespace frac {

// Every element's cell: centre, radius, fragment (dense index of its piece, -1: no surface, e.g. projectiles) and
// planes (CSR: planeStart[i] .. planeStart[i + 1], with their kinds, cell_planes.h CellPlaneKind). Pointers in the
// exec policy's memory.
struct CellField {
  int elements = 0;
  const vec3* centre = nullptr;
  const float* radius = nullptr;
  const int32_t* fragment = nullptr;
  const uint32_t* fragmentKey = nullptr;  // per dense fragment: its colour key (smallest element index)
  int fragments = 0;
  const int32_t* planeStart = nullptr;
  const CellPlane* plane = nullptr;
  const uint8_t* kind = nullptr;
};

// A fragment's grid: cells [lo, lo + dims) of a lattice of spacing h from the frame's origin, stored from cellBase
// (cells, x fastest) and vertexBase (vertices, dims + 1 per axis) in the frame's cell and vertex arrays.
struct FragmentGrid {
  float h = 1.0f;
  glm::ivec3 lo{0}, dims{0};
  int32_t cellBase = 0, vertexBase = 0;

  FRAC_HD int32_t cell(const glm::ivec3& q) const { return cellBase + (q.z * dims.y + q.y) * dims.x + q.x; }
  FRAC_HD int32_t vertex(const glm::ivec3& q) const {
    return vertexBase + (q.z * (dims.y + 1) + q.y) * (dims.x + 1) + q.x;
  }
  FRAC_HD bool holdsCell(const glm::ivec3& q) const {
    return q.x >= 0 && q.y >= 0 && q.z >= 0 && q.x < dims.x && q.y < dims.y && q.z < dims.z;
  }
  FRAC_HD glm::ivec3 cellCoordinates(int32_t cell) const {
    const int32_t local = cell - cellBase;
    return glm::ivec3(local % dims.x, (local / dims.x) % dims.y, local / (dims.x * dims.y));
  }
  FRAC_HD glm::ivec3 vertexCoordinates(int32_t vertex) const {
    const int32_t local = vertex - vertexBase, nx = dims.x + 1, ny = dims.y + 1;
    return glm::ivec3(local % nx, (local / nx) % ny, local / (nx * ny));
  }
};

// The offset of cube corner c (c = x + 2 y + 4 z, marching_tets.h).
FRAC_HD inline glm::ivec3 cornerOffset(int c) { return glm::ivec3(c & 1, (c >> 1) & 1, (c >> 2) & 1); }

FRAC_HD inline int bitCount(uint32_t bits) {
#if defined(__CUDA_ARCH__)
  return __popc(bits);
#else
  return __builtin_popcount(bits);
#endif
}

// The fragment whose grid holds global cell (vertex: true, global vertex) `index`: the last grid starting at or
// before it (binary search over the bases).
FRAC_HD inline int fragmentHolding(const FragmentGrid* grids, int fragments, int32_t index, bool vertex) {
  int lo = 0, hi = fragments;  // first grid starting after index, in [lo, hi]
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if ((vertex ? grids[mid].vertexBase : grids[mid].cellBase) <= index) lo = mid + 1; else hi = mid;
  }
  return lo - 1;
}

// The value of a fragment's function at p: the min of its elements' cell functions, with the element that gives it
// and whether that element's nearest face there is a crack face. `outside` stands for +infinity (no element near).
struct FieldValue {
  float value;
  int32_t owner;
  uint8_t crack;
};

// `elements`: the elements by position; `reach` bounds every element's cell function (kCellBallRadius x the largest
// radius). The min is taken over (value, element index) pairs, so the result does not depend on the visiting order
// (the grid's cell size).
FRAC_HD inline FieldValue evaluateField(const CellField& f, const GridView& elements, float reach, int32_t fragment,
                                        const vec3& p, float outside) {
  FieldValue best{outside, -1, 0};
  elements.forEachCandidateWithin(p, reach, [&](int e, const glm::vec4& sphere) {
    const float own = kCellBallRadius * sphere.w;
    const float d2 = length2(p - vec3(sphere));
    if (d2 >= own * own) return;  // (before the fragment: the sphere is at hand, most candidates end here)
    if (f.fragment[e] != fragment) return;
    float value = sqrtf(d2) - own;
    if (value > best.value) return;  // the cell's function is at least this: it cannot lower the min
    uint8_t kind = kPlaneIntact;
    for (int k = f.planeStart[e]; k < f.planeStart[e + 1]; ++k) {
      const float d = f.plane[k].distance(p);
      if (d > value) {
        value = d;
        kind = f.kind[k];
        if (value > best.value) return;  // only rises from here: this element cannot give the min
      }
    }
    if (value < best.value || (value == best.value && best.owner >= 0 && e < best.owner))
      best = {value, e, uint8_t(kind == kPlaneCrack)};
  });
  if (best.value == 0.0f) best.value = 1e-7f * outside;  // a vertex on the surface counts as outside: no zero areas
  return best;
}

// The mesh vertex on the grid edge from vertex q (grid coordinates) in direction d (1..7, the upper corner's extra
// bits), where the function goes from a (at q) to b.
FRAC_HD inline vec3 edgePoint(const vec3& origin, const FragmentGrid& g, const glm::ivec3& q, int d, float a, float b) {
  const float t = a / (a - b);
  return origin + g.h * (vec3(g.lo + q) + t * vec3(cornerOffset(d)));
}

// The 8 corner values of cell q of grid g.
FRAC_HD inline void cellCorners(const FragmentGrid& g, const glm::ivec3& q, const float* value, float out[8]) {
  for (int c = 0; c < 8; ++c) out[c] = value[g.vertex(q + cornerOffset(c))];
}

}  // namespace frac
