#include "surface/fracture_surfaces.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "surface/cell_planes.h"
#include "surface/marching_tets.h"

namespace frac {
namespace {

constexpr float kNotEvaluated = std::numeric_limits<float>::quiet_NaN();
constexpr int kDebrisElements = 4;  // pieces of at most this many elements (debris) ...
constexpr float kDebrisCell = 1.5f;  // ... are polygonised on cells this much wider

// The corners of each face of a cell (corner c = x + 2 y + 4 z) and the step to the cell across it.
constexpr int kFaceCorners[6][4] = {{0, 2, 4, 6}, {1, 3, 5, 7}, {0, 1, 4, 5}, {2, 3, 6, 7}, {0, 1, 2, 3}, {4, 5, 6, 7}};
constexpr int kFaceStep[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};

// Flags many threads may set at once (always to the same value): relaxed atomics, no ordering needed.
inline void setFlag(uint8_t* flag, uint8_t value) { __atomic_store_n(flag, value, __ATOMIC_RELAXED); }
inline uint8_t flagOf(const uint8_t* flag) { return __atomic_load_n(flag, __ATOMIC_RELAXED); }

// The indices i in [0, n) where keep(i), in increasing order.
template <class Keep>
std::vector<int64_t> indicesWhere(int64_t n, const Keep& keep) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i < n; ++i)
    if (keep(i)) out.push_back(i);
  return out;
}

// The value of a fragment's function at p: the min of its elements' cell functions, with the element that gives it
// and whether that element's nearest face there is a crack face. `outside` stands for +infinity (no element near).
struct FieldValue {
  float value;
  int32_t owner;
  uint8_t crack;
};

FieldValue evaluateField(const CellField& f, const GridView& elements, int32_t fragment, const vec3& p, float outside) {
  FieldValue best{outside, -1, 0};
  elements.forEachCandidate(p, [&](int e, const glm::vec4& sphere) {
    if (f.fragment[e] != fragment) return;
    const float reach = kCellBallRadius * sphere.w;
    const float d2 = length2(p - vec3(sphere));
    if (d2 >= reach * reach) return;
    float value = sqrtf(d2) - reach;
    if (value >= best.value) return;  // the cell's function is at least this: it cannot lower the min
    uint8_t kind = kPlaneIntact;
    for (int k = f.planeStart[e]; k < f.planeStart[e + 1]; ++k) {
      const float d = f.plane[k].distance(p);
      if (d > value) {
        value = d;
        kind = f.kind[k];
        if (value > best.value) return;  // only rises from here: this element cannot give the min
      }
    }
    if (value < best.value || (value == best.value && e < best.owner)) best = {value, e, uint8_t(kind == kPlaneCrack)};
  });
  if (best.value == 0.0f) best.value = 1e-7f * outside;  // a vertex on the surface counts as outside: no zero areas
  return best;
}

}  // namespace

int FractureSurfaceExtractor::fragmentOfCell(int64_t cell) const {
  const auto it = std::upper_bound(grids_.begin(), grids_.end(), cell,
                                   [](int64_t c, const FragmentGrid& g) { return c < g.cellBase; });
  return int(it - grids_.begin()) - 1;
}

int FractureSurfaceExtractor::fragmentOfVertex(int64_t vertex) const {
  const auto it = std::upper_bound(grids_.begin(), grids_.end(), vertex,
                                   [](int64_t v, const FragmentGrid& g) { return v < g.vertexBase; });
  return int(it - grids_.begin()) - 1;
}

glm::ivec3 FractureSurfaceExtractor::vertexCoordinates(const FragmentGrid& g, int64_t vertex) {
  const int64_t nx = g.dims.x + 1, ny = g.dims.y + 1, local = vertex - g.vertexBase;
  return glm::ivec3(int(local % nx), int((local / nx) % ny), int(local / (nx * ny)));
}

void FractureSurfaceExtractor::extract(const CpuExec& exec, const CellField& field, const SurfaceSettings& settings,
                                       SurfaceMesh& out) {
  out.clear();
  counts_ = Counts{};
  layOutGrids(field, settings);
  if (cellCount_ == 0) return;
  seedCells(exec, field);
  std::vector<int64_t> fresh = active_;
  for (;;) {
    evaluateCorners(exec, field, fresh);
    fresh = cellsAcrossCrossedFaces(exec, fresh);
    if (fresh.empty()) break;
    ++counts_.growRounds;
  }
  counts_.gridCells = cellCount_;
  polygonise(exec, field, out);
}

// One grid per fragment over its elements' reach (3 radii) and two cells more, on a common lattice of spacing h.
void FractureSurfaceExtractor::layOutGrids(const CellField& field, const SurfaceSettings& settings) {
  float minRadius = std::numeric_limits<float>::max();
  vec3 lo(std::numeric_limits<float>::max());
  for (int i = 0; i < field.elements; ++i) {
    if (field.fragment[i] < 0) continue;
    minRadius = std::min(minRadius, field.radius[i]);
    lo = glm::min(lo, field.centre[i] - vec3(kCellBallRadius * field.radius[i]));
  }
  grids_.assign(size_t(field.fragments), FragmentGrid{});
  cellCount_ = vertexCount_ = 0;
  if (field.fragments == 0 || minRadius == std::numeric_limits<float>::max()) return;
  // Debris (pieces of at most kDebrisElements elements) on cells kDebrisCell times as wide: a shower of small pieces
  // is most of a shattered scene's triangles, and nobody sees their facets.
  std::vector<int> members(grids_.size(), 0);
  for (int i = 0; i < field.elements; ++i)
    if (field.fragment[i] >= 0) ++members[field.fragment[i]];
  const float h = settings.cellSize * minRadius;
  for (size_t f = 0; f < grids_.size(); ++f) grids_[f].h = members[f] <= kDebrisElements ? kDebrisCell * h : h;
  origin_ = lo - vec3(4.0f * h);
  std::vector<glm::ivec3> hi(grids_.size(), glm::ivec3(std::numeric_limits<int>::min()));
  for (FragmentGrid& g : grids_) g.lo = glm::ivec3(std::numeric_limits<int>::max());
  float maxRadius = 0.0f;
  for (int i = 0; i < field.elements; ++i) {
    const int f = field.fragment[i];
    if (f < 0) continue;
    maxRadius = std::max(maxRadius, field.radius[i]);
    const float hf = grids_[f].h;
    const vec3 reach(kCellBallRadius * field.radius[i] + 2.0f * hf);
    grids_[f].lo = glm::min(grids_[f].lo, glm::ivec3(glm::floor((field.centre[i] - reach - origin_) / hf)));
    hi[f] = glm::max(hi[f], glm::ivec3(glm::ceil((field.centre[i] + reach - origin_) / hf)));
  }
  for (size_t f = 0; f < grids_.size(); ++f) {
    FragmentGrid& g = grids_[f];
    g.dims = glm::max(hi[f] - g.lo, glm::ivec3(1));
    g.cellBase = cellCount_;
    g.vertexBase = vertexCount_;
    cellCount_ += int64_t(g.dims.x) * g.dims.y * g.dims.z;
    vertexCount_ += int64_t(g.dims.x + 1) * (g.dims.y + 1) * (g.dims.z + 1);
  }
  cellState_.assign(size_t(cellCount_), 0);
  value_.assign(size_t(vertexCount_), kNotEvaluated);
  owner_.assign(size_t(vertexCount_), -1);
  crack_.assign(size_t(vertexCount_), 0);
  needed_.assign(size_t(vertexCount_), 0);
  // The elements by position, for the evaluation: cells as wide as a cell function's reach.
  vec3 boxLo(std::numeric_limits<float>::max()), boxHi(-std::numeric_limits<float>::max());
  notMember_.assign(size_t(field.elements), 0);
  for (int i = 0; i < field.elements; ++i) {
    notMember_[i] = field.fragment[i] < 0;
    if (notMember_[i]) continue;
    boxLo = glm::min(boxLo, field.centre[i]);
    boxHi = glm::max(boxHi, field.centre[i]);
  }
  elementGrid_.setWindow(boxLo, boxHi, kCellBallRadius * maxRadius,
                         std::max<int64_t>(int64_t(8) * field.elements, 1 << 16));
  elementGrid_.build(field.centre, field.radius, notMember_.data(), 1, field.elements);
}

// The cells holding an anchor of an outer or crack face: the element centre's projection onto the face.
void FractureSurfaceExtractor::seedCells(const CpuExec& exec, const CellField& field) {
  parallel_for(exec, field.elements, [&](int i) {
    const int f = field.fragment[i];
    if (f < 0) return;
    const FragmentGrid& g = grids_[f];
    const vec3 c = field.centre[i];
    for (int k = field.planeStart[i]; k < field.planeStart[i + 1]; ++k) {
      if (field.kind[k] == kPlaneIntact) continue;
      const CellPlane& p = field.plane[k];
      const vec3 anchor = c - p.distance(c) * p.normal;
      const glm::ivec3 q = glm::ivec3(glm::floor((anchor - origin_) / g.h)) - g.lo;
      if (glm::any(glm::lessThan(q, glm::ivec3(0))) || glm::any(glm::greaterThanEqual(q, g.dims))) continue;
      setFlag(&cellState_[size_t(g.cellBase + (int64_t(q.z) * g.dims.y + q.y) * g.dims.x + q.x)], 1);
    }
  });
  active_ = indicesWhere(cellCount_, [&](int64_t c) { return cellState_[c] == 1; });
}

// Evaluates the corners of `cells` that have no value yet (each vertex once).
void FractureSurfaceExtractor::evaluateCorners(const CpuExec& exec, const CellField& field,
                                               const std::vector<int64_t>& cells) {
  parallel_for(exec, int(cells.size()), [&](int k) {
    const int64_t cell = cells[k];
    const FragmentGrid& g = grids_[fragmentOfCell(cell)];
    const int64_t local = cell - g.cellBase;
    const int64_t x = local % g.dims.x, y = (local / g.dims.x) % g.dims.y, z = local / (int64_t(g.dims.x) * g.dims.y);
    for (int c = 0; c < 8; ++c) {
      const int64_t v = g.vertexBase + ((z + (c >> 2)) * (g.dims.y + 1) + y + ((c >> 1) & 1)) * (g.dims.x + 1) + x +
                        (c & 1);
      if (std::isnan(value_[v])) setFlag(&needed_[v], 1);
    }
  });
  const std::vector<int64_t> vertices = indicesWhere(vertexCount_, [&](int64_t v) { return flagOf(&needed_[v]) != 0; });
  const GridView elements = elementGrid_.view();
  parallel_for(exec, int(vertices.size()), [&](int k) {
    const int64_t v = vertices[k];
    const int f = fragmentOfVertex(v);
    const FragmentGrid& g = grids_[f];
    const glm::ivec3 q = vertexCoordinates(g, v);
    const vec3 p = origin_ + g.h * vec3(g.lo + q);
    const FieldValue value = evaluateField(field, elements, f, p, g.h);
    value_[v] = value.value;
    owner_[v] = value.owner;
    crack_[v] = value.crack;
    needed_[v] = 0;
  });
  counts_.evaluatedVertices += (long long)vertices.size();
}

// The cells across every face of `cells` that the surface crosses (corners on both sides) and that are not active
// yet; they become active.
std::vector<int64_t> FractureSurfaceExtractor::cellsAcrossCrossedFaces(const CpuExec& exec,
                                                                       const std::vector<int64_t>& cells) {
  parallel_for(exec, int(cells.size()), [&](int k) {
    const int64_t cell = cells[k];
    const FragmentGrid& g = grids_[fragmentOfCell(cell)];
    const int64_t local = cell - g.cellBase;
    const int x = int(local % g.dims.x), y = int((local / g.dims.x) % g.dims.y), z = int(local / (int64_t(g.dims.x) * g.dims.y));
    bool inside[8];
    for (int c = 0; c < 8; ++c)
      inside[c] = value_[size_t(g.vertexBase + ((int64_t(z) + (c >> 2)) * (g.dims.y + 1) + y + ((c >> 1) & 1)) *
                                                    (g.dims.x + 1) + x + (c & 1))] < 0.0f;
    for (int f = 0; f < 6; ++f) {
      int in = 0;
      for (int c = 0; c < 4; ++c) in += inside[kFaceCorners[f][c]];
      if (in == 0 || in == 4) continue;
      const glm::ivec3 q(x + kFaceStep[f][0], y + kFaceStep[f][1], z + kFaceStep[f][2]);
      if (glm::any(glm::lessThan(q, glm::ivec3(0))) || glm::any(glm::greaterThanEqual(q, g.dims))) continue;
      uint8_t* state = &cellState_[size_t(g.cellBase + (int64_t(q.z) * g.dims.y + q.y) * g.dims.x + q.x)];
      if (flagOf(state) == 0) setFlag(state, 2);
    }
  });
  std::vector<int64_t> added = indicesWhere(cellCount_, [&](int64_t c) { return cellState_[c] == 2; });
  for (int64_t c : added) cellState_[c] = 1;
  return added;
}

void FractureSurfaceExtractor::polygonise(const CpuExec& exec, const CellField& field, SurfaceMesh& out) {
  active_ = indicesWhere(cellCount_, [&](int64_t c) { return cellState_[c] == 1; });
  counts_.activeCells = (long long)active_.size();
  const int cells = int(active_.size());
  // A cell's corner vertices and values.
  auto corners = [&](int64_t cell, int64_t vertex[8], float value[8]) {
    const FragmentGrid& g = grids_[fragmentOfCell(cell)];
    const int64_t local = cell - g.cellBase;
    const int64_t x = local % g.dims.x, y = (local / g.dims.x) % g.dims.y, z = local / (int64_t(g.dims.x) * g.dims.y);
    for (int c = 0; c < 8; ++c) {
      vertex[c] = g.vertexBase + ((z + (c >> 2)) * (g.dims.y + 1) + y + ((c >> 1) & 1)) * (g.dims.x + 1) + x + (c & 1);
      value[c] = value_[size_t(vertex[c])];
    }
  };
  std::vector<int32_t> count(size_t(cells), 0);
  parallel_for(exec, cells, [&](int k) {
    int64_t vertex[8];
    float value[8];
    corners(active_[k], vertex, value);
    TetEdge tri[2][3];
    for (int t = 0; t < 6; ++t) count[k] += tetTriangles(t, value, tri);
  });
  std::vector<int64_t> start(size_t(cells) + 1, 0);
  for (int k = 0; k < cells; ++k) start[k + 1] = start[k] + count[k];
  // Each triangle corner as the edge it lies on: (lower vertex << 3) | direction (the upper corner's extra bits).
  std::vector<int64_t> edge(3 * size_t(start[size_t(cells)]));
  edgeMask_.assign(size_t(vertexCount_), 0);
  parallel_for(exec, cells, [&](int k) {
    int64_t vertex[8];
    float value[8];
    corners(active_[k], vertex, value);
    int64_t at = start[k] * 3;
    TetEdge tri[2][3];
    for (int t = 0; t < 6; ++t) {
      const int made = tetTriangles(t, value, tri);
      for (int m = 0; m < made; ++m)
        for (int c = 0; c < 3; ++c) {
          const int64_t lower = vertex[tri[m][c].lower], direction = tri[m][c].upper - tri[m][c].lower;
          edge[size_t(at++)] = (lower << 3) | direction;
          __atomic_fetch_or(&edgeMask_[size_t(lower)], uint8_t(1u << direction), __ATOMIC_RELAXED);
        }
    }
  });
  // A mesh vertex per used edge, numbered by vertex and direction.
  edgeBase_.assign(size_t(vertexCount_), 0);
  int32_t next = 0;
  for (int64_t v = 0; v < vertexCount_; ++v) {
    edgeBase_[v] = next;
    next += std::popcount(unsigned(edgeMask_[v]));
  }
  auto meshIndex = [&](int64_t e) {
    const int64_t v = e >> 3;
    const unsigned below = unsigned(edgeMask_[size_t(v)]) & ((1u << (e & 7)) - 1u);
    return uint32_t(edgeBase_[size_t(v)] + std::popcount(below));
  };
  out.indices.resize(edge.size());
  parallel_for(exec, int(edge.size()), [&](int k) { out.indices[k] = meshIndex(edge[k]); });
  out.positions.resize(size_t(next));
  out.normals.assign(size_t(next), vec3(0.0f));
  out.fragment.resize(size_t(next));
  out.element.resize(size_t(next));
  out.crack.resize(size_t(next));
  const std::vector<int64_t> edged = indicesWhere(vertexCount_, [&](int64_t v) { return edgeMask_[v] != 0; });
  std::vector<uint8_t> piece(grids_.size(), 0);
  parallel_for(exec, int(edged.size()), [&](int k) {
    const int64_t v = edged[k];
    const int f = fragmentOfVertex(v);
    const FragmentGrid& g = grids_[f];
    setFlag(&piece[f], 1);
    const int64_t nx = g.dims.x + 1, ny = g.dims.y + 1;
    const glm::ivec3 q = vertexCoordinates(g, v);
    for (int d = 1; d < 8; ++d) {
      if (!((edgeMask_[v] >> d) & 1)) continue;
      const glm::ivec3 step(d & 1, (d >> 1) & 1, (d >> 2) & 1);
      const int64_t u = v + step.x + step.y * nx + step.z * nx * ny;
      const float a = value_[v], b = value_[u];
      const float t = a / (a - b);
      const uint32_t m = meshIndex((v << 3) | d);
      out.positions[m] = origin_ + g.h * (vec3(g.lo + q) + t * vec3(step));
      const bool nearLower = (t < 0.5f && owner_[v] >= 0) || owner_[u] < 0;
      out.element[m] = nearLower ? owner_[v] : owner_[u];
      out.crack[m] = float(nearLower ? crack_[v] : crack_[u]);
      out.fragment[m] = field.fragmentKey[f];
    }
  });
  // Area-weighted normals, in triangle order (the same sums on any thread count).
  for (size_t t = 0; t + 2 < out.indices.size(); t += 3) {
    const uint32_t i0 = out.indices[t], i1 = out.indices[t + 1], i2 = out.indices[t + 2];
    const vec3 n = glm::cross(out.positions[i1] - out.positions[i0], out.positions[i2] - out.positions[i0]);
    out.normals[i0] += n;
    out.normals[i1] += n;
    out.normals[i2] += n;
  }
  for (vec3& n : out.normals) {
    const float len = glm::length(n);
    n = len > 0.0f ? n / len : vec3(0.0f, 1.0f, 0.0f);
  }
  out.pieces = int(std::count(piece.begin(), piece.end(), uint8_t(1)));
}

}  // namespace frac
