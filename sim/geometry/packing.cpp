#include "geometry/packing.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "core/rng.h"
#include "geometry/random_packing.h"
#include "io/scene_error.h"

namespace frac {

// The caller passes r less a hair, so spheres touching a face of a box whose edge is a multiple of 2r stay.
bool sphereInShape(const Shape& shape, const vec3& c, float r) {
  if (!shape.inside(c)) return false;
  for (int axis = 0; axis < 3; ++axis) {
    vec3 offset(0.0f);
    offset[axis] = r;
    if (!shape.inside(c + offset) || !shape.inside(c - offset)) return false;
  }
  return true;
}

namespace {

constexpr double kMaxCandidates = 1e9;

// Lattice sites along one axis, centred on the bounds: as many sites as the extent holds (so a box whose edge is a
// multiple of the spacing gets sites a half spacing in from each face), plus two spare sites on each side to cover
// the row and layer shifts of HCP.
struct AxisSites {
  double first = 0.0;
  int count = 0;
};

[[noreturn]] void failTooSmall(double radius) {
  throw SceneError("packing: element radius " + std::to_string(radius) + " m is too small for the shape (over " +
                   std::to_string(long(kMaxCandidates)) + " lattice sites)");
}

AxisSites centredSites(float lo, float hi, double spacing, double radius) {
  const double extent = double(hi) - double(lo);
  const double fitting = std::max(1.0, std::ceil(extent / spacing - 1e-4));
  if (!(fitting < kMaxCandidates)) failTooSmall(radius);
  const int count = int(fitting) + 4;
  return {0.5 * (double(lo) + double(hi)) - 0.5 * (count - 1) * spacing, count};
}

// The lattice's candidate sites over a shape's bounds. HCP: ABAB layers along y; each layer a triangular lattice in
// x-z with spacing 2r, odd rows shifted by r; B layers shifted by (r, r / sqrt 3) over the triangle centres of A. The
// lattice is moved back by half the mean shift, (r/2, r / (2 sqrt 3)), so that mirroring it through the centre of the
// bounds swaps the kinds of rows and layers: both sides then get the same number of sites (none on the faces of a box
// whose edge is a multiple of 2r). Simple cubic: spacing 2r on all three axes.
struct Lattice {
  Lattice(const Shape& shape, double radius, Packing packing) : r(radius), hcp(packing == Packing::Hcp) {
    const Aabb box = shape.bounds();
    spacing = 2.0 * r;
    rowPitch = hcp ? std::sqrt(3.0) * r : spacing;
    layerPitch = hcp ? 2.0 * std::sqrt(6.0) / 3.0 * r : spacing;
    xs = centredSites(box.lo.x, box.hi.x, spacing, r);
    zs = centredSites(box.lo.z, box.hi.z, rowPitch, r);
    ys = centredSites(box.lo.y, box.hi.y, layerPitch, r);
  }
  double sites() const { return double(xs.count) * ys.count * zs.count; }
  vec3 site(int i, int row, int layer) const {
    const double y = ys.first + layer * layerPitch;
    if (!hcp) return vec3(float(xs.first + i * spacing), float(y), float(zs.first + row * rowPitch));
    const bool layerB = layer % 2 == 1;
    const double z = zs.first + row * rowPitch + (layerB ? 0.5 : -0.5) * r / std::sqrt(3.0);
    const double rowShift = (row % 2 == 1 ? r : 0.0) + (layerB ? r : 0.0) - 0.5 * r;
    return vec3(float(xs.first + i * spacing + rowShift), float(y), float(z));
  }
  bool keeps(const Shape& shape, const vec3& c) const { return sphereInShape(shape, c, float(r) * 0.9999f); }

  double r;
  bool hcp;
  double spacing = 0.0, rowPitch = 0.0, layerPitch = 0.0;
  AxisSites xs, ys, zs;
};

}  // namespace

std::vector<vec3> packShape(const Shape& shape, float radius, Packing packing) {
  if (!(radius > 0.0f)) throw SceneError("packing: element radius must be > 0 (got " + std::to_string(radius) + ")");
  if (packing == Packing::Random) return packRandom(shape, radius);
  const Lattice lattice(shape, radius, packing);
  if (lattice.sites() > kMaxCandidates) failTooSmall(radius);
  std::vector<vec3> centres;
  for (int layer = 0; layer < lattice.ys.count; ++layer)
    for (int row = 0; row < lattice.zs.count; ++row)
      for (int i = 0; i < lattice.xs.count; ++i) {
        const vec3 c = lattice.site(i, row, layer);
        if (lattice.keeps(shape, c)) centres.push_back(c);
      }
  return centres;
}

std::vector<int32_t> longAxisOrder(const std::vector<vec3>& centres, float radius, Packing packing) {
  std::vector<int32_t> order(centres.size());
  std::iota(order.begin(), order.end(), 0);
  if (packing == Packing::Random || centres.empty()) return order;
  vec3 lo(INFINITY), hi(-INFINITY);
  for (const vec3& c : centres) {
    lo = glm::min(lo, c);
    hi = glm::max(hi, c);
  }
  const vec3 extent = hi - lo;
  const int axis = extent.x > extent.y && extent.x >= extent.z ? 0 : extent.z > extent.y ? 2 : 1;
  if (axis == 1) return order;
  // A site's slab: its position along the axis in pitches, plus a quarter, rounded down. HCP's row and layer shifts put
  // sites at half pitches along x (a slab then holds two such positions) and a sixth of a row pitch off along z: no
  // site lies near a slab's edge, where rounding could go either way.
  const float pitch = 2.0f * radius * latticeCell(packing).halfPerRadius[axis];
  std::vector<int32_t> slab(centres.size());
  for (size_t k = 0; k < centres.size(); ++k)
    slab[k] = int32_t(std::floor((centres[k][axis] - lo[axis]) / pitch + 0.25f));
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return slab[size_t(a)] < slab[size_t(b)]; });
  return order;
}

LatticeCell latticeCell(Packing packing) {
  if (packing == Packing::SimpleCubic) return {vec3(1.0f), 8.0f};
  if (packing == Packing::Random) return {};
  // Lattice's spacing, layer pitch and row pitch, halved
  return {vec3(1.0f, float(std::sqrt(6.0) / 3.0), float(0.5 * std::sqrt(3.0))), float(4.0 * std::sqrt(2.0))};
}

double estimatePackedCount(const Shape& shape, float radius, Packing packing, int samples) {
  if (!(radius > 0.0f)) return 0.0;
  if (packing == Packing::Random)
    return double(randomPackingCount(shape, radius));
  const Lattice lattice(shape, radius, packing);
  const double sites = lattice.sites();
  if (sites <= double(samples)) return double(packShape(shape, radius, packing).size());
  auto next = [](int n, uint64_t index) {  // the same sites on every machine (core/rng.h)
    return int(std::min(double(n - 1), uniform01(1, kStreamVolumeSamples, index) * n));
  };
  int kept = 0;
  for (int k = 0; k < samples; ++k) {
    const int i = next(lattice.xs.count, 3 * uint64_t(k)), row = next(lattice.zs.count, 3 * uint64_t(k) + 1),
              layer = next(lattice.ys.count, 3 * uint64_t(k) + 2);
    kept += lattice.keeps(shape, lattice.site(i, row, layer)) ? 1 : 0;
  }
  return sites * double(kept) / double(samples);
}

std::vector<vec3> packBall(const vec3& centre, float ballRadius, float elementRadius, Packing packing) {
  if (!(elementRadius > 0.0f) || elementRadius > ballRadius)
    throw std::invalid_argument("breakable projectile: the element radius " + std::to_string(elementRadius) +
                                " m must be in (0, radius " + std::to_string(ballRadius) + " m]");
  ShapeDesc ball;
  ball.type = ShapeType::Sphere;
  ball.radius = ballRadius;
  std::vector<vec3> world;
  for (const vec3& p : packShape(*makeShape(ball, ""), elementRadius, packing)) world.push_back(centre + p);
  if (world.empty()) throw std::invalid_argument("breakable projectile: no element fits in the ball");
  if (world.size() > 20000)
    throw std::invalid_argument("breakable projectile: " + std::to_string(world.size()) +
                                " elements; at most 20,000 (use larger elements)");
  return world;
}

}  // namespace frac
