#include "surface/fracture_surfaces.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/bounds.h"
#include "surface/cell_planes.h"
#include "surface/marching_tets.h"

namespace frac {
namespace {

// Keys: a cell or grid vertex of one fragment is (fragment << 40) | linear index; a grid edge of one fragment is
// (fragment << 43) | (lower vertex << 3) | direction (the bits of upper - lower, 1..7). Sorted keys group a
// fragment's cells, vertices and edges together and give every run the same order.
constexpr int kFragmentShift = 40;
constexpr uint64_t kIndexMask = (uint64_t(1) << kFragmentShift) - 1;
constexpr int kEdgeFragmentShift = 43;
constexpr uint64_t kNoKey = std::numeric_limits<uint64_t>::max();
constexpr int64_t kMaxCellsPerAxis = 8000;  // (8001)^3 vertices stay below 2^40

// The corners of each face of a cell (corner c = x + 2 y + 4 z) and the offset to the cell across it.
constexpr int kFaceCorners[6][4] = {{0, 2, 4, 6}, {1, 3, 5, 7}, {0, 1, 4, 5}, {2, 3, 6, 7}, {0, 1, 2, 3}, {4, 5, 6, 7}};
constexpr int kFaceStep[6][3] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};

void sortUnique(std::vector<uint64_t>& keys) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  if (!keys.empty() && keys.back() == kNoKey) keys.pop_back();
}

// Exclusive prefix sum of counts into start (n + 1 entries); returns the total.
int64_t exclusiveSum(const std::vector<int32_t>& counts, std::vector<int64_t>& start) {
  start.assign(counts.size() + 1, 0);
  for (size_t i = 0; i < counts.size(); ++i) start[i + 1] = start[i] + counts[i];
  return start.back();
}

// The value of a fragment's function at p: the min of its elements' cell functions near p, with the element that
// gives it and whether that element's nearest face there is a crack face.
struct FieldValue {
  float value;
  int32_t owner;
  uint8_t crack;
};

FieldValue evaluateField(const CellField& f, const GridView& elements, int32_t fragment, const vec3& p, float outside) {
  FieldValue best{outside, -1, 0};
  elements.forEachCandidate(p, [&](int e, const glm::vec4& sphere) {
    if (f.fragment[e] != fragment) return;
    const float r = sphere.w;
    if (length2(p - vec3(sphere)) >= kCellBallRadius * kCellBallRadius * r * r) return;
    float value = sqrtf(length2(p - vec3(sphere))) - kCellBallRadius * r;
    uint8_t kind = kPlaneIntact;
    for (int k = f.planeStart[e]; k < f.planeStart[e + 1]; ++k) {
      const float d = f.plane[k].distance(p);
      if (d > value) {
        value = d;
        kind = f.kind[k];
      }
    }
    if (value < best.value || (value == best.value && e < best.owner)) best = {value, e, uint8_t(kind == kPlaneCrack)};
  });
  if (best.value == 0.0f) best.value = 1e-7f * outside;  // a vertex on the surface counts as outside: no zero areas
  return best;
}

}  // namespace

const FractureSurfaceExtractor::VertexValue& FractureSurfaceExtractor::vertexAt(uint64_t key) const {
  const auto it = std::lower_bound(vertexKeys_.begin(), vertexKeys_.end(), key);
  return vertexValues_[size_t(it - vertexKeys_.begin())];
}

void FractureSurfaceExtractor::extract(const CpuExec& exec, const CellField& field, const SurfaceSettings& settings,
                                       SurfaceMesh& out) {
  out.clear();
  counts_ = Counts{};
  cells_.clear();
  vertexKeys_.clear();
  vertexValues_.clear();
  // The grid over the member elements, with room for a cell's reach (3 radii) and a layer of cells.
  float minRadius = std::numeric_limits<float>::max(), maxRadius = 0.0f;
  Bounds box;
  for (int i = 0; i < field.elements; ++i) {
    if (field.fragment[i] < 0) continue;
    minRadius = std::min(minRadius, field.radius[i]);
    maxRadius = std::max(maxRadius, field.radius[i]);
    box.add(field.centre[i]);
  }
  if (box.empty()) return;
  grid_.h = settings.cellSize * minRadius;
  const vec3 lo = box.lo - vec3(kCellBallRadius * maxRadius + 2.0f * grid_.h);
  const vec3 hi = box.hi + vec3(kCellBallRadius * maxRadius + 2.0f * grid_.h);
  const float longest = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
  grid_.h = std::max(grid_.h, longest / float(kMaxCellsPerAxis));  // far-flung debris coarsens the grid
  grid_.origin = lo;
  grid_.nx = int64_t(std::ceil((hi.x - lo.x) / grid_.h)) + 1;
  grid_.ny = int64_t(std::ceil((hi.y - lo.y) / grid_.h)) + 1;
  grid_.nz = int64_t(std::ceil((hi.z - lo.z) / grid_.h)) + 1;
  // The elements by position, for the evaluation: cells of a cell function's reach.
  notMember_.assign(field.elements, 0);
  for (int i = 0; i < field.elements; ++i) notMember_[i] = field.fragment[i] < 0;
  elementGrid_.setWindow(lo, hi, kCellBallRadius * maxRadius, std::max<int64_t>(int64_t(8) * field.elements, 1 << 16));
  elementGrid_.build(field.centre, field.radius, notMember_.data(), 1, field.elements);

  seedCells(exec, field);
  evaluateNewVertices(exec, field);
  while (growClosure(exec)) {
    evaluateNewVertices(exec, field);
    ++counts_.growRounds;
  }
  counts_.activeCells = (long long)cells_.size();
  counts_.evaluatedVertices = (long long)vertexKeys_.size();
  polygonise(exec, field, out);
}

// The cells around every anchor of a cell's outer and crack faces (the element centre's projection onto the face),
// with their 26 neighbours.
void FractureSurfaceExtractor::seedCells(const CpuExec& exec, const CellField& field) {
  const int n = field.elements;
  std::vector<int32_t> count(n, 0);
  parallel_for(exec, n, [&](int i) {
    if (field.fragment[i] < 0) return;
    int anchors = 0;
    for (int k = field.planeStart[i]; k < field.planeStart[i + 1]; ++k) anchors += field.kind[k] != kPlaneIntact;
    count[i] = 27 * anchors;
  });
  std::vector<int64_t> start;
  cells_.resize(size_t(exclusiveSum(count, start)));
  const Grid g = grid_;
  parallel_for(exec, n, [&](int i) {
    if (count[i] == 0) return;
    int64_t at = start[i];
    const vec3 c = field.centre[i];
    for (int k = field.planeStart[i]; k < field.planeStart[i + 1]; ++k) {
      if (field.kind[k] == kPlaneIntact) continue;
      const CellPlane& p = field.plane[k];
      const vec3 anchor = c - p.distance(c) * p.normal;
      const glm::i64vec3 cell = glm::clamp(glm::i64vec3(glm::floor((anchor - g.origin) / g.h)), glm::i64vec3(0),
                                           glm::i64vec3(g.nx - 1, g.ny - 1, g.nz - 1));
      for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            const glm::i64vec3 q = cell + glm::i64vec3(dx, dy, dz);
            const bool valid = q.x >= 0 && q.y >= 0 && q.z >= 0 && q.x < g.nx && q.y < g.ny && q.z < g.nz;
            cells_[size_t(at++)] = valid ? (uint64_t(field.fragment[i]) << kFragmentShift) |
                                               uint64_t((q.z * g.ny + q.y) * g.nx + q.x)
                                         : kNoKey;
          }
    }
  });
  sortUnique(cells_);
}

// Evaluates the vertices of the active cells that have no value yet.
void FractureSurfaceExtractor::evaluateNewVertices(const CpuExec& exec, const CellField& field) {
  const Grid g = grid_;
  std::vector<uint64_t> corners(cells_.size() * 8);
  parallel_for(exec, int(cells_.size()), [&](int c) {
    const uint64_t key = cells_[c];
    const uint64_t fragment = key >> kFragmentShift;
    const int64_t index = int64_t(key & kIndexMask);
    const int64_t x = index % g.nx, y = (index / g.nx) % g.ny, z = index / (g.nx * g.ny);
    for (int k = 0; k < 8; ++k) {
      const int64_t vx = x + (k & 1), vy = y + ((k >> 1) & 1), vz = z + ((k >> 2) & 1);
      corners[size_t(c) * 8 + k] = (fragment << kFragmentShift) | uint64_t((vz * (g.ny + 1) + vy) * (g.nx + 1) + vx);
    }
  });
  sortUnique(corners);
  std::vector<uint64_t> fresh;
  std::set_difference(corners.begin(), corners.end(), vertexKeys_.begin(), vertexKeys_.end(),
                      std::back_inserter(fresh));
  std::vector<VertexValue> values(fresh.size());
  const GridView elements = elementGrid_.view();
  parallel_for(exec, int(fresh.size()), [&](int k) {
    const uint64_t key = fresh[k];
    const int64_t index = int64_t(key & kIndexMask);
    const int64_t x = index % (g.nx + 1), y = (index / (g.nx + 1)) % (g.ny + 1), z = index / ((g.nx + 1) * (g.ny + 1));
    const vec3 p = g.origin + g.h * vec3(float(x), float(y), float(z));
    const FieldValue v = evaluateField(field, elements, int32_t(key >> kFragmentShift), p, g.h);
    values[k] = VertexValue{v.value, v.owner, v.crack};
  });
  // Merge the new vertices into the sorted table.
  std::vector<uint64_t> keys;
  std::vector<VertexValue> merged;
  keys.reserve(vertexKeys_.size() + fresh.size());
  merged.reserve(keys.capacity());
  size_t a = 0, b = 0;
  while (a < vertexKeys_.size() || b < fresh.size()) {
    if (b == fresh.size() || (a < vertexKeys_.size() && vertexKeys_[a] < fresh[b])) {
      keys.push_back(vertexKeys_[a]);
      merged.push_back(vertexValues_[a++]);
    } else {
      keys.push_back(fresh[b]);
      merged.push_back(values[b++]);
    }
  }
  vertexKeys_.swap(keys);
  vertexValues_.swap(merged);
}

// Adds the cells across every face of an active cell that the surface crosses (a face with corners on both sides)
// and that is not active yet; false when there is none: the surface closes inside the active cells.
bool FractureSurfaceExtractor::growClosure(const CpuExec& exec) {
  const Grid g = grid_;
  std::vector<uint64_t> across(cells_.size() * 6, kNoKey);
  parallel_for(exec, int(cells_.size()), [&](int c) {
    const uint64_t key = cells_[c];
    const uint64_t fragment = key >> kFragmentShift;
    const int64_t index = int64_t(key & kIndexMask);
    const int64_t x = index % g.nx, y = (index / g.nx) % g.ny, z = index / (g.nx * g.ny);
    bool inside[8];
    for (int k = 0; k < 8; ++k) {
      const int64_t vx = x + (k & 1), vy = y + ((k >> 1) & 1), vz = z + ((k >> 2) & 1);
      inside[k] = vertexAt((fragment << kFragmentShift) | uint64_t((vz * (g.ny + 1) + vy) * (g.nx + 1) + vx)).value < 0.0f;
    }
    for (int f = 0; f < 6; ++f) {
      int in = 0;
      for (int k = 0; k < 4; ++k) in += inside[kFaceCorners[f][k]];
      if (in == 0 || in == 4) continue;
      const int64_t qx = x + kFaceStep[f][0], qy = y + kFaceStep[f][1], qz = z + kFaceStep[f][2];
      if (qx < 0 || qy < 0 || qz < 0 || qx >= g.nx || qy >= g.ny || qz >= g.nz) continue;
      across[size_t(c) * 6 + f] = (fragment << kFragmentShift) | uint64_t((qz * g.ny + qy) * g.nx + qx);
    }
  });
  sortUnique(across);
  std::vector<uint64_t> added;
  std::set_difference(across.begin(), across.end(), cells_.begin(), cells_.end(), std::back_inserter(added));
  if (added.empty()) return false;
  std::vector<uint64_t> merged;
  merged.reserve(cells_.size() + added.size());
  std::merge(cells_.begin(), cells_.end(), added.begin(), added.end(), std::back_inserter(merged));
  cells_.swap(merged);
  return true;
}

void FractureSurfaceExtractor::polygonise(const CpuExec& exec, const CellField& field, SurfaceMesh& out) {
  const Grid g = grid_;
  const int cells = int(cells_.size());
  auto cornerKeys = [&](uint64_t key, uint64_t corner[8], int64_t& lowerVertex) {
    const uint64_t fragment = key >> kFragmentShift;
    const int64_t index = int64_t(key & kIndexMask);
    const int64_t x = index % g.nx, y = (index / g.nx) % g.ny, z = index / (g.nx * g.ny);
    lowerVertex = (z * (g.ny + 1) + y) * (g.nx + 1) + x;
    for (int k = 0; k < 8; ++k)
      corner[k] = (fragment << kFragmentShift) |
                  uint64_t(lowerVertex + ((k >> 2) & 1) * (g.ny + 1) * (g.nx + 1) + ((k >> 1) & 1) * (g.nx + 1) +
                           (k & 1));
  };
  // Triangles per cell, then their corners as edge keys.
  std::vector<int32_t> count(cells, 0);
  parallel_for(exec, cells, [&](int c) {
    uint64_t corner[8];
    int64_t lower;
    cornerKeys(cells_[c], corner, lower);
    float f[8];
    for (int k = 0; k < 8; ++k) f[k] = vertexAt(corner[k]).value;
    TetEdge tri[2][3];
    for (int t = 0; t < 6; ++t) count[c] += tetTriangles(t, f, tri);
  });
  std::vector<int64_t> start;
  const int64_t triangles = exclusiveSum(count, start);
  std::vector<uint64_t> edges(size_t(triangles) * 3);
  const int64_t stride[3] = {1, g.nx + 1, (g.nx + 1) * (g.ny + 1)};
  parallel_for(exec, cells, [&](int c) {
    uint64_t corner[8];
    int64_t lower;
    cornerKeys(cells_[c], corner, lower);
    const uint64_t fragment = cells_[c] >> kFragmentShift;
    float f[8];
    for (int k = 0; k < 8; ++k) f[k] = vertexAt(corner[k]).value;
    int64_t at = start[c] * 3;
    TetEdge tri[2][3];
    for (int t = 0; t < 6; ++t) {
      const int made = tetTriangles(t, f, tri);
      for (int m = 0; m < made; ++m)
        for (int v = 0; v < 3; ++v) {
          const TetEdge e = tri[m][v];
          const int64_t base = lower + (e.lower & 1) * stride[0] + ((e.lower >> 1) & 1) * stride[1] +
                               ((e.lower >> 2) & 1) * stride[2];
          edges[size_t(at++)] = (fragment << kEdgeFragmentShift) | (uint64_t(base) << 3) | uint64_t(e.upper - e.lower);
        }
    }
  });
  // Weld: one mesh vertex per crossed edge.
  std::vector<uint64_t> unique = edges;
  sortUnique(unique);
  out.indices.resize(edges.size());
  parallel_for(exec, int(edges.size()), [&](int k) {
    out.indices[k] = uint32_t(std::lower_bound(unique.begin(), unique.end(), edges[k]) - unique.begin());
  });
  const size_t nv = unique.size();
  out.positions.resize(nv);
  out.normals.assign(nv, vec3(0.0f));
  out.fragment.resize(nv);
  out.element.resize(nv);
  out.crack.resize(nv);
  parallel_for(exec, int(nv), [&](int k) {
    const uint64_t key = unique[k];
    const uint64_t fragment = key >> kEdgeFragmentShift;
    const int dir = int(key & 7);
    const int64_t lowerVertex = int64_t((key >> 3) & kIndexMask);
    const int64_t upperVertex = lowerVertex + (dir & 1) * stride[0] + ((dir >> 1) & 1) * stride[1] + ((dir >> 2) & 1) * stride[2];
    const VertexValue& a = vertexAt((fragment << kFragmentShift) | uint64_t(lowerVertex));
    const VertexValue& b = vertexAt((fragment << kFragmentShift) | uint64_t(upperVertex));
    auto position = [&](int64_t v) {
      const int64_t x = v % (g.nx + 1), y = (v / (g.nx + 1)) % (g.ny + 1), z = v / ((g.nx + 1) * (g.ny + 1));
      return g.origin + g.h * vec3(float(x), float(y), float(z));
    };
    const float t = a.value / (a.value - b.value);
    out.positions[k] = position(lowerVertex) + t * (position(upperVertex) - position(lowerVertex));
    const VertexValue& near = (t < 0.5f && a.owner >= 0) || b.owner < 0 ? a : b;
    out.element[k] = near.owner;
    out.crack[k] = float(near.crack);
    out.fragment[k] = field.fragmentKey[fragment];
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
  int pieces = 0;
  for (size_t k = 0; k < nv; ++k) pieces += k == 0 || (unique[k] >> kEdgeFragmentShift) != (unique[k - 1] >> kEdgeFragmentShift);
  out.pieces = pieces;
}

}  // namespace frac
