#include "geometry/packing.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "io/scene_error.h"

namespace frac {

namespace {

// An element is kept when its whole sphere lies in the shape: the centre and its six axis extremes are inside, so a
// body's surface is the shape's surface (a box of height h rests on the ground when its centre is at h / 2).
// (The caller passes r less a hair, so spheres touching a face of a box whose edge is a multiple of 2r stay.)
bool sphereInside(const Shape& shape, const vec3& c, float r) {
  if (!shape.inside(c)) return false;
  for (int axis = 0; axis < 3; ++axis) {
    vec3 offset(0.0f);
    offset[axis] = r;
    if (!shape.inside(c + offset) || !shape.inside(c - offset)) return false;
  }
  return true;
}

}  // namespace
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

void checkCandidateCount(const AxisSites& x, const AxisSites& y, const AxisSites& z, double radius) {
  if (double(x.count) * y.count * z.count > kMaxCandidates) failTooSmall(radius);
}

// ABAB layers along y; each layer a triangular lattice in x-z with spacing 2r, odd rows shifted by r;
// B layers shifted by (r, r / sqrt 3) over the triangle centres of A. The lattice is moved back by half the mean
// shift, (r/2, r / (2 sqrt 3)), so that mirroring it through the centre of the bounds swaps the kinds of rows and
// layers: both sides then get the same number of sites (none on the faces of a box whose edge is a multiple of 2r).
std::vector<vec3> packHcp(const Shape& shape, double r) {
  const Aabb box = shape.bounds();
  const double spacing = 2.0 * r, rowPitch = std::sqrt(3.0) * r, layerPitch = 2.0 * std::sqrt(6.0) / 3.0 * r;
  const AxisSites xs = centredSites(box.lo.x, box.hi.x, spacing, r);
  const AxisSites zs = centredSites(box.lo.z, box.hi.z, rowPitch, r);
  const AxisSites ys = centredSites(box.lo.y, box.hi.y, layerPitch, r);
  checkCandidateCount(xs, ys, zs, r);
  std::vector<vec3> centres;
  for (int layer = 0; layer < ys.count; ++layer) {
    const bool layerB = layer % 2 == 1;
    const double y = ys.first + layer * layerPitch;
    for (int row = 0; row < zs.count; ++row) {
      const double z = zs.first + row * rowPitch + (layerB ? 0.5 : -0.5) * r / std::sqrt(3.0);
      const double rowShift = (row % 2 == 1 ? r : 0.0) + (layerB ? r : 0.0) - 0.5 * r;
      for (int i = 0; i < xs.count; ++i) {
        const vec3 c(float(xs.first + i * spacing + rowShift), float(y), float(z));
        if (sphereInside(shape, c, float(r) * 0.9999f)) centres.push_back(c);
      }
    }
  }
  return centres;
}

std::vector<vec3> packSimpleCubic(const Shape& shape, double r) {
  const Aabb box = shape.bounds();
  const double spacing = 2.0 * r;
  const AxisSites xs = centredSites(box.lo.x, box.hi.x, spacing, r);
  const AxisSites ys = centredSites(box.lo.y, box.hi.y, spacing, r);
  const AxisSites zs = centredSites(box.lo.z, box.hi.z, spacing, r);
  checkCandidateCount(xs, ys, zs, r);
  std::vector<vec3> centres;
  for (int k = 0; k < ys.count; ++k)
    for (int j = 0; j < zs.count; ++j)
      for (int i = 0; i < xs.count; ++i) {
        const vec3 c(float(xs.first + i * spacing), float(ys.first + k * spacing), float(zs.first + j * spacing));
        if (sphereInside(shape, c, float(r) * 0.9999f)) centres.push_back(c);
      }
  return centres;
}

}  // namespace

std::vector<vec3> packShape(const Shape& shape, float radius, Packing packing) {
  if (!(radius > 0.0f)) throw SceneError("packing: element radius must be > 0 (got " + std::to_string(radius) + ")");
  return packing == Packing::Hcp ? packHcp(shape, radius) : packSimpleCubic(shape, radius);
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
