#include "geometry/random_packing.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/rng.h"
#include "geometry/morton_order.h"
#include "geometry/packing.h"
#include "io/scene_error.h"

namespace frac {

namespace {

using dvec3 = glm::dvec3;

constexpr size_t kMaxElements = 4000000;
constexpr double kMaxCells = 64e6;
constexpr int kMaxSweeps = 2000;
// Sweeps stop when no pair overlapped by more than this (of r) as they were parted; the sweep's own moves and the walls
// leave at most 5% ("small overlaps", RBDEM sec. 4.1).
constexpr double kOverlapTolerance = 0.03;
constexpr double kGrowth = 1.002;           // pairs are parted to 2r times this: the last sweep's moves leave less

// A dense grid of cells of edge 2r over the shape's bounds: the candidates of a sphere are in its cell and the 26
// around it. Rebuilt every sweep (a counting sort, in index order: deterministic).
class CellGrid {
 public:
  CellGrid(const Aabb& box, double radius) : cell_(2.0 * radius) {
    lo_ = dvec3(box.lo) - dvec3(radius);
    for (int a = 0; a < 3; ++a) dims_[a] = int(std::ceil((double(box.hi[a]) + radius - lo_[a]) / cell_)) + 1;
    if (double(dims_[0]) * dims_[1] * dims_[2] > kMaxCells)
      throw SceneError("packing 'random': the shape's bounds hold over " + std::to_string(long(kMaxCells)) +
                       " cells of the element size; use larger elements");
    start_.assign(size_t(dims_[0]) * dims_[1] * dims_[2] + 1, 0);
  }
  void build(const std::vector<dvec3>& x) {
    std::fill(start_.begin(), start_.end(), 0);
    cellOf_.resize(x.size());
    for (size_t i = 0; i < x.size(); ++i) ++start_[cellOf_[i] = cellIndex(coords(x[i]))];
    for (size_t c = 1; c < start_.size(); ++c) start_[c] += start_[c - 1];
    order_.resize(x.size());
    for (size_t i = x.size(); i-- > 0;) order_[--start_[cellOf_[i]]] = uint32_t(i);
  }
  template <class F>
  void forEachNear(const dvec3& p, F&& f) const {
    const glm::ivec3 c = coords(p);
    for (int z = std::max(0, c.z - 1); z <= std::min(dims_[2] - 1, c.z + 1); ++z)
      for (int y = std::max(0, c.y - 1); y <= std::min(dims_[1] - 1, c.y + 1); ++y)
        for (int x = std::max(0, c.x - 1); x <= std::min(dims_[0] - 1, c.x + 1); ++x) {
          const size_t cell = cellIndex({x, y, z});
          for (uint32_t k = start_[cell]; k < start_[cell + 1]; ++k) f(order_[k]);
        }
  }

 private:
  glm::ivec3 coords(const dvec3& p) const {
    glm::ivec3 c;
    for (int a = 0; a < 3; ++a) c[a] = std::clamp(int(std::floor((p[a] - lo_[a]) / cell_)), 0, dims_[a] - 1);
    return c;
  }
  size_t cellIndex(const glm::ivec3& c) const { return (size_t(c.z) * dims_[1] + c.y) * dims_[0] + c.x; }

  double cell_;
  dvec3 lo_{0.0};
  int dims_[3] = {1, 1, 1};
  std::vector<uint32_t> start_, order_;
  std::vector<size_t> cellOf_;
};

// The shape's volume from seeded samples of its inside test over the bounds (1/sqrt(n) noise: 0.4% at 65,536).
double shapeVolume(const Shape& shape) {
  const Aabb box = shape.bounds();
  constexpr int kSamples = 1 << 16;
  int inside = 0;
  for (int k = 0; k < kSamples; ++k) {
    vec3 p;
    for (int a = 0; a < 3; ++a)
      p[a] = float(box.lo[a] + (double(box.hi[a]) - box.lo[a]) * uniform01(2, kStreamPacking, 3 * uint64_t(k) + a));
    inside += shape.inside(p) ? 1 : 0;
  }
  const vec3 extent = box.hi - box.lo;
  return double(extent.x) * extent.y * extent.z * inside / kSamples;
}

// Seeded uniform centres whose spheres lie in the shape (rejection over the bounds).
std::vector<dvec3> randomCentres(const Shape& shape, double r, size_t count) {
  const Aabb box = shape.bounds();
  std::vector<dvec3> x;
  x.reserve(count);
  const uint64_t attempts = 200 * uint64_t(count) + 1000;
  for (uint64_t k = 0; k < attempts && x.size() < count; ++k) {
    dvec3 p;
    for (int a = 0; a < 3; ++a)
      p[a] = box.lo[a] + (double(box.hi[a]) - box.lo[a]) * uniform01(1, kStreamPacking, 3 * k + uint64_t(a));
    if (sphereInShape(shape, vec3(p), float(r))) x.push_back(p);
  }
  return x;
}

// The boundary as a wall: a centre less than r below the nearest surface point moves to depth r there. Each centre
// keeps its clearance (depth - r) from its last check and spends it as it moves, so only centres near the surface
// pay for the shape's nearest-point query (a mesh's costs microseconds) in a sweep.
class Boundary {
 public:
  Boundary(const Shape& shape, double r, size_t count) : shape_(shape), r_(r), clearance_(count, -1.0) {}
  void keep(size_t i, double moved, dvec3& p) {
    clearance_[i] -= moved;
    if (clearance_[i] > 0.0) return;
    const SurfaceSample s = shape_.nearestSurface(vec3(p));
    const double distance = glm::length(p - dvec3(s.point));
    const double depth = shape_.inside(vec3(p)) ? distance : -distance;
    if (depth >= r_ * 1.0001) {
      clearance_[i] = depth - r_ * 1.0001;
      return;
    }
    p = dvec3(s.point) - dvec3(s.normal) * (r_ * 1.0001);
    clearance_[i] = 0.0;
  }

 private:
  const Shape& shape_;
  double r_;
  std::vector<double> clearance_;
};

}  // namespace

size_t randomPackingCount(const Shape& shape, float radius) {
  const double r = radius;
  return size_t(std::llround(shapeVolume(shape) * kRandomPackingFraction / (4.0 / 3.0 * M_PI * r * r * r)));
}

std::vector<vec3> packRandom(const Shape& shape, float radius) {
  const double r = radius;
  const size_t count = randomPackingCount(shape, radius);
  if (count == 0) throw SceneError("packing 'random': no element of radius " + std::to_string(radius) + " m fits");
  if (count > kMaxElements)
    throw SceneError("packing 'random': " + std::to_string(count) + " elements; at most " +
                     std::to_string(kMaxElements) + " (use larger elements)");
  std::vector<dvec3> x = randomCentres(shape, r, count);
  CellGrid grid(shape.bounds(), r);
  Boundary boundary(shape, r, x.size());
  std::vector<dvec3> before;
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    grid.build(x);
    before = x;
    double worst = 0.0;
    // Gauss-Seidel over the pairs in index order (each pair parted at once, both ends by half its overlap): converges
    // in far fewer sweeps than the Jacobi form near jamming, and is as deterministic (one thread, a fixed order).
    for (size_t i = 0; i < x.size(); ++i) {
      grid.forEachNear(x[i], [&](uint32_t j) {
        if (j <= i) return;
        const dvec3 d = x[i] - x[j];
        const double dist = glm::length(d);
        const double overlap = 2.0 * r * kGrowth - dist;
        if (overlap <= 0.0) return;
        worst = std::max(worst, overlap - 2.0 * r * (kGrowth - 1.0));
        // Coincident centres (never from distinct random draws, kept safe) part along x.
        const dvec3 n = dist > 1e-12 * r ? d / dist : dvec3(1.0, 0.0, 0.0);
        x[i] += 0.5 * overlap * n;
        x[j] -= 0.5 * overlap * n;
      });
    }
    for (size_t i = 0; i < x.size(); ++i) boundary.keep(i, glm::length(x[i] - before[i]), x[i]);
    if (worst <= kOverlapTolerance * r) break;
  }
  std::vector<vec3> inside;
  inside.reserve(x.size());
  for (const dvec3& p : x)
    if (sphereInShape(shape, vec3(p), radius * 0.9999f)) inside.push_back(vec3(p));
  // Listed along a Morton curve: the random draws' order scattered an element's neighbours over the whole arrays.
  std::vector<vec3> centres(inside.size());
  const std::vector<int32_t> order = mortonOrder(inside);
  for (size_t k = 0; k < order.size(); ++k) centres[k] = inside[size_t(order[k])];
  return centres;
}

}  // namespace frac
