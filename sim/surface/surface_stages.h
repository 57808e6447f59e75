#pragma once
// The passes of the fracture-surface extraction (fracture_surfaces.h), each a parallel_for over elements, fragments,
// cells or vertices, written once for every exec policy: the CPU's threads and a CUDA device run this code. Lists
// that grow (the cells found in a round, the vertices to evaluate) are appended to through an atomic counter, so
// their order varies from run to run; everything written from them is a function of the cell or vertex alone, and
// the mesh is numbered from scans in cell and vertex order, so the result does not vary.
#include <cstdint>

#include "backend/atomics.h"
#include "backend/exec_memory.h"
#include "surface/fragment_grids.h"

namespace frac::surface_stages {

constexpr int kDebrisElements = 4;   // pieces of at most this many elements (debris) ...
constexpr float kDebrisCell = 1.5f;  // ... are polygonised on cells this much wider
constexpr int32_t kUnclaimed = -3;   // owner of a vertex nobody asked for yet
constexpr int32_t kClaimed = -2;     // owner of a vertex queued for evaluation (after it: -1, none near, or an element)

// elementBounds' results (in reduce[], as ordered float bits).
enum BoundsWord { kMinRadius, kMaxRadius, kReachLo, kCentreLo = kReachLo + 3, kCentreHi = kCentreLo + 3, kBoundsWords = kCentreHi + 3 };

// The per-element reductions below walk chunks of this many consecutive elements, each reducing locally and then
// once per chunk (and per run of one fragment) into the shared words: a GPU's atomics on a handful of addresses from a
// million threads would queue (2.8 ms for the 1M block's boxes on an H200). Min and max give the same words in any order.
constexpr int kReduceChunk = 64;

FRAC_HD inline int reduceChunks(int elements) { return (elements + kReduceChunk - 1) / kReduceChunk; }

// What elementBounds' words start from: the ordered bits of +-3e38 (the identity of their min or max).
FRAC_HD inline int32_t initialBoundsWord(int k) {
  const bool isMax = k == kMaxRadius || k >= kCentreHi;
  return orderedFloatBits(isMax ? -3.0e38f : 3.0e38f);
}

// Over member elements: smallest and largest radius, the low corner of their reach (3 radii), the box of their
// centres; per fragment its element count; per element whether it is left out of the surfaces.
template <class Exec>
void elementBounds(const Exec& exec, const CellField& f, int32_t* reduce, int32_t* members, uint8_t* notMember) {
  int32_t init[kBoundsWords];
  for (int k = 0; k < kBoundsWords; ++k) init[k] = initialBoundsWord(k);
  writeValues(exec, reduce, init, kBoundsWords);
  fillValues(exec, members, f.fragments, int32_t(0));
  const int elements = f.elements;
  parallel_for(exec, reduceChunks(elements), [=] FRAC_HD(int chunk) {
    int32_t word[kBoundsWords];
    for (int k = 0; k < kBoundsWords; ++k) word[k] = initialBoundsWord(k);
    int run = -1, runLength = 0;  // the fragment of the elements just seen, and how many in a row
    const int end = (chunk + 1) * kReduceChunk < elements ? (chunk + 1) * kReduceChunk : elements;
    for (int i = chunk * kReduceChunk; i < end; ++i) {
      const int fragment = f.fragment[i];
      notMember[i] = fragment < 0;
      if (fragment < 0) continue;
      const float r = f.radius[i];
      const vec3 c = f.centre[i], reachLo = c - vec3(kCellBallRadius * r);
      const int32_t rBits = orderedFloatBits(r);
      word[kMinRadius] = rBits < word[kMinRadius] ? rBits : word[kMinRadius];
      word[kMaxRadius] = rBits > word[kMaxRadius] ? rBits : word[kMaxRadius];
      for (int a = 0; a < 3; ++a) {
        const int32_t lo = orderedFloatBits(reachLo[a]), centre = orderedFloatBits(c[a]);
        word[kReachLo + a] = lo < word[kReachLo + a] ? lo : word[kReachLo + a];
        word[kCentreLo + a] = centre < word[kCentreLo + a] ? centre : word[kCentreLo + a];
        word[kCentreHi + a] = centre > word[kCentreHi + a] ? centre : word[kCentreHi + a];
      }
      if (fragment != run) {
        if (runLength > 0) atomicAddInt(&members[run], runLength);
        run = fragment, runLength = 0;
      }
      ++runLength;
    }
    if (run < 0) return;  // no member in this chunk
    atomicAddInt(&members[run], runLength);
    atomicMinInt(&reduce[kMinRadius], word[kMinRadius]);
    atomicMaxInt(&reduce[kMaxRadius], word[kMaxRadius]);
    for (int a = 0; a < 3; ++a) {
      atomicMinInt(&reduce[kReachLo + a], word[kReachLo + a]);
      atomicMinInt(&reduce[kCentreLo + a], word[kCentreLo + a]);
      atomicMaxInt(&reduce[kCentreHi + a], word[kCentreHi + a]);
    }
  });
}

// Each fragment's grid over its elements' reach (3 radii) and two cells more, on the lattice of spacing h (debris:
// kDebrisCell h) from origin: the per-fragment box in lo / hi (3 ints per fragment), then the grids with their cell
// and vertex counts (cells / vertices, scanned by the caller into the bases).
template <class Exec>
void fragmentBoxes(const Exec& exec, const CellField& f, const int32_t* members, float h, const vec3& origin,
                   int32_t* lo, int32_t* hi) {
  fillValues(exec, lo, 3 * f.fragments, int32_t(2147483647));
  fillValues(exec, hi, 3 * f.fragments, int32_t(-2147483647 - 1));
  const int elements = f.elements;
  parallel_for(exec, reduceChunks(elements), [=] FRAC_HD(int chunk) {
    int run = -1;  // the fragment whose box the elements just seen grow
    glm::ivec3 runLo(0), runHi(0);
    auto flush = [&] {
      if (run < 0) return;
      for (int k = 0; k < 3; ++k) {
        atomicMinInt(&lo[3 * run + k], runLo[k]);
        atomicMaxInt(&hi[3 * run + k], runHi[k]);
      }
    };
    const int end = (chunk + 1) * kReduceChunk < elements ? (chunk + 1) * kReduceChunk : elements;
    for (int i = chunk * kReduceChunk; i < end; ++i) {
      const int fragment = f.fragment[i];
      if (fragment < 0) continue;
      const float hf = members[fragment] <= kDebrisElements ? kDebrisCell * h : h;
      const vec3 reach(kCellBallRadius * f.radius[i] + 2.0f * hf);
      const glm::ivec3 a(glm::floor((f.centre[i] - reach - origin) / hf)),
          b(glm::ceil((f.centre[i] + reach - origin) / hf));
      if (fragment != run) {
        flush();
        run = fragment, runLo = a, runHi = b;
      } else {
        runLo = glm::min(runLo, a), runHi = glm::max(runHi, b);
      }
    }
    flush();
  });
}

template <class Exec>
void fragmentSizes(const Exec& exec, int fragments, const int32_t* members, float h, const int32_t* lo,
                   const int32_t* hi, FragmentGrid* grids, int64_t* cells, int64_t* vertices) {
  parallel_for(exec, fragments, [=] FRAC_HD(int k) {
    FragmentGrid g;
    g.h = members[k] <= kDebrisElements ? kDebrisCell * h : h;
    g.lo = glm::ivec3(lo[3 * k], lo[3 * k + 1], lo[3 * k + 2]);
    g.dims = glm::max(glm::ivec3(hi[3 * k], hi[3 * k + 1], hi[3 * k + 2]) - g.lo, glm::ivec3(1));
    grids[k] = g;
    cells[k] = int64_t(g.dims.x) * g.dims.y * g.dims.z;
    vertices[k] = int64_t(g.dims.x + 1) * (g.dims.y + 1) * (g.dims.z + 1);
  });
}

template <class Exec>
void setBases(const Exec& exec, int fragments, const int64_t* cellBase, const int64_t* vertexBase, FragmentGrid* grids) {
  parallel_for(exec, fragments, [=] FRAC_HD(int k) {
    grids[k].cellBase = int32_t(cellBase[k]);
    grids[k].vertexBase = int32_t(vertexBase[k]);
  });
}

// What the passes after the layout share: the field, the element grid, the fragment grids and the per-cell and
// per-vertex arrays, in the exec policy's memory.
struct Frame {
  CellField field;
  GridView elements;      // cells of half the largest reach (evaluateField searches the box p +- reach)
  float reach = 0.0f;     // the largest cell function's reach, kCellBallRadius x the largest radius
  const FragmentGrid* grids = nullptr;
  int fragments = 0;
  vec3 origin{0.0f};
  int32_t* cellState = nullptr;  // per cell: 0 off, 1 active
  float* value = nullptr;        // per vertex: the fragment's function (set once owner >= -1)
  int32_t* owner = nullptr;      // per vertex: kUnclaimed, kClaimed, -1 (no element near) or the element giving value
  uint8_t* crack = nullptr;      // per vertex: 1 when the owner's face there is a crack face
};

// Appends cell to list when this call activates it.
FRAC_HD inline void activate(const Frame& s, int32_t cell, int32_t* list, int32_t* count) {
  if (atomicClaimInt(&s.cellState[cell], 0, 1)) list[atomicAddInt(count, 1)] = cell;
}

// The cells holding an anchor of an outer or crack face (an element centre's projection onto the face) go to list.
template <class Exec>
void seedCells(const Exec& exec, const Frame& s, int32_t* list, int32_t* count) {
  parallel_for(exec, s.field.elements, [=] FRAC_HD(int i) {
    const CellField& f = s.field;
    const int fragment = f.fragment[i];
    if (fragment < 0) return;
    const FragmentGrid g = s.grids[fragment];
    const vec3 c = f.centre[i];
    for (int k = f.planeStart[i]; k < f.planeStart[i + 1]; ++k) {
      if (f.kind[k] == kPlaneIntact) continue;
      const CellPlane& p = f.plane[k];
      const vec3 anchor = c - p.distance(c) * p.normal;
      const glm::ivec3 q = glm::ivec3(glm::floor((anchor - s.origin) / g.h)) - g.lo;
      if (g.holdsCell(q)) activate(s, g.cell(q), list, count);
    }
  });
}

// The corners of `cells` not evaluated yet are marked kClaimed and appended to `list` (through count) by the thread
// that claims them. The list's order varies between runs; each vertex's value does not (evaluateVertices reads
// nothing the others write), and a cell's corners come out together: neighbours evaluated one after the other read
// the same elements.
template <class Exec>
void claimCorners(const Exec& exec, const Frame& s, const int32_t* cells, int n, int32_t* list, int32_t* count) {
  parallel_for(exec, n, [=] FRAC_HD(int k) {
    const FragmentGrid g = s.grids[fragmentHolding(s.grids, s.fragments, cells[k], false)];
    const glm::ivec3 q = g.cellCoordinates(cells[k]);
    for (int c = 0; c < 8; ++c) {
      const int32_t v = g.vertex(q + cornerOffset(c));
      if (atomicLoadInt(&s.owner[v]) == kUnclaimed && atomicClaimInt(&s.owner[v], kUnclaimed, kClaimed))
        list[atomicAddInt(count, 1)] = v;
    }
  });
}

// flag[v] = 1 for the claimed vertices (a scan over them lists them in vertex order).
template <class Exec>
void flagClaimed(const Exec& exec, const Frame& s, int vertices, int32_t* flag) {
  parallel_for(exec, vertices, [=] FRAC_HD(int v) { flag[v] = s.owner[v] == kClaimed; });
}

template <class Exec>
void listFlagged(const Exec& exec, const int32_t* flag, const int32_t* position, int n, int32_t* list) {
  parallel_for(exec, n, [=] FRAC_HD(int i) {
    if (flag[i]) list[position[i]] = i;
  });
}

template <class Exec>
void evaluateVertices(const Exec& exec, const Frame& s, const int32_t* vertices, int n) {
  parallel_for(exec, n, [=] FRAC_HD(int k) {
    const int32_t v = vertices[k];
    const int fragment = fragmentHolding(s.grids, s.fragments, v, true);
    const FragmentGrid g = s.grids[fragment];
    const vec3 p = s.origin + g.h * vec3(g.lo + g.vertexCoordinates(v));
    const FieldValue value = evaluateField(s.field, s.elements, s.reach, fragment, p, g.h);
    s.value[v] = value.value;
    s.crack[v] = value.crack;
    s.owner[v] = value.owner;
  });
}

// The cells across every face of `cells` that the surface crosses (corners on both sides) and that were not active
// go to `next`.
template <class Exec>
void growAcrossCrossedFaces(const Exec& exec, const Frame& s, const int32_t* cells, int n, int32_t* next,
                            int32_t* count) {
  parallel_for(exec, n, [=] FRAC_HD(int k) {
    // The corners of each face of a cell and the step to the cell across it.
    constexpr int kFaceCorners[6][4] = {{0, 2, 4, 6}, {1, 3, 5, 7}, {0, 1, 4, 5},
                                        {2, 3, 6, 7}, {0, 1, 2, 3}, {4, 5, 6, 7}};
    const FragmentGrid g = s.grids[fragmentHolding(s.grids, s.fragments, cells[k], false)];
    const glm::ivec3 q = g.cellCoordinates(cells[k]);
    float f[8];
    cellCorners(g, q, s.value, f);
    for (int face = 0; face < 6; ++face) {
      int in = 0;
      for (int c = 0; c < 4; ++c) in += f[kFaceCorners[face][c]] < 0.0f;
      if (in == 0 || in == 4) continue;
      glm::ivec3 across = q;
      across[face / 2] += face % 2 == 0 ? -1 : 1;
      if (g.holdsCell(across)) activate(s, g.cell(across), next, count);
    }
  });
}

}  // namespace frac::surface_stages
