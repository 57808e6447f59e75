// Shape::nearestSurface: the nearest surface point and outward normal of every shape, against closed forms (box,
// sphere, capsule), against another shape (a revolved rectangle is the cylinder) and against the shape's own inside
// test and surface samples (revolve with a wall, closed mesh).
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "geometry/obj_mesh.h"
#include "geometry/shapes.h"

#ifndef FRACTURE_SOURCE_DIR
#define FRACTURE_SOURCE_DIR "."
#endif

using namespace frac;

namespace {

ShapeDesc shapeOf(ShapeType type) {
  ShapeDesc d;
  d.type = type;
  return d;
}

std::vector<vec3> randomPoints(const vec3& lo, const vec3& hi, int count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<vec3> points;
  for (int i = 0; i < count; ++i) points.push_back(lo + (hi - lo) * vec3(u(rng), u(rng), u(rng)));
  return points;
}

// For points around the shape: the sample lies on the surface (among the points a small step away from it along the
// normal and the axes, some are inside and some outside: also true on edges and corners), the normal is a unit vector
// pointing out, the point is on the side of the surface the inside test says, and no other surface sample is nearer
// (within `tolerance`). `exceptions`: probes allowed to miss (the inner corners of a hollow revolve).
void checkNearestSurface(const Shape& shape, float tolerance, int exceptions = 0) {
  const Aabb b = shape.bounds();
  const vec3 margin = 0.3f * (b.hi - b.lo);
  const std::vector<vec3> probes = randomPoints(b.lo - margin, b.hi + margin, 3000, 7);
  std::vector<vec3> surface;
  for (const vec3& p : randomPoints(b.lo - margin, b.hi + margin, 4000, 11)) surface.push_back(shape.nearestSurface(p).point);
  const float eps = 1e-4f * glm::length(b.hi - b.lo);
  int offSurface = 0, badNormal = 0, wrongSide = 0, notNearest = 0;
  for (const vec3& p : probes) {
    const SurfaceSample s = shape.nearestSurface(p);
    int in = 0, out = 0;
    for (const vec3& step : {s.normal, vec3(1, 0, 0), vec3(0, 1, 0), vec3(0, 0, 1)})
      for (const float sign : {-1.0f, 1.0f}) (shape.inside(s.point + sign * eps * step) ? in : out) += 1;
    offSurface += in == 0 || out == 0;
    badNormal += std::abs(glm::length(s.normal) - 1.0f) > 1e-4f;
    const float side = glm::dot(p - s.point, s.normal);
    wrongSide += shape.inside(p) ? side > eps : side < -eps;
    const float d = glm::length(p - s.point);
    for (const vec3& q : surface)
      if (glm::length(p - q) < d - tolerance) {
        ++notNearest;
        break;
      }
  }
  CHECK(offSurface <= exceptions);
  CHECK(badNormal == 0);
  CHECK(wrongSide <= exceptions);
  CHECK(notNearest <= exceptions);
}

}  // namespace

TEST_CASE("nearest surface of a box: the exact distance, the face's normal, and the nearest point outside it") {
  ShapeDesc d = shapeOf(ShapeType::Box);
  d.size = vec3(1.0f, 2.0f, 3.0f);
  const auto box = makeShape(d, "");
  const vec3 half(0.5f, 1.0f, 1.5f);
  for (const vec3& p : randomPoints(-2.0f * half, 2.0f * half, 2000, 3)) {
    const SurfaceSample s = box->nearestSurface(p);
    const vec3 q = glm::abs(p);
    const float exact = box->inside(p) ? std::min({half.x - q.x, half.y - q.y, half.z - q.z})
                                       : glm::length(glm::max(q - half, vec3(0.0f)));
    CHECK(glm::length(p - s.point) == RelApprox(exact).epsilon(1e-5));
  }
  // Inside near the +x face: the face's point and normal.
  const SurfaceSample s = box->nearestSurface(vec3(0.45f, 0.1f, -0.2f));
  CHECK(s.point.x == RelApprox(0.5f));
  CHECK(s.point.y == RelApprox(0.1f));
  CHECK(s.normal.x == RelApprox(1.0f));
  checkNearestSurface(*box, 1e-5f);
}

TEST_CASE("nearest surface of a sphere and a capsule: closed forms") {
  ShapeDesc d = shapeOf(ShapeType::Sphere);
  d.radius = 0.7f;
  const auto sphere = makeShape(d, "");
  d = shapeOf(ShapeType::Capsule);
  d.radius = 0.3f;
  d.height = 1.0f;
  const auto capsule = makeShape(d, "");
  for (const vec3& p : randomPoints(vec3(-1.5f), vec3(1.5f), 2000, 5)) {
    CHECK(glm::length(p - sphere->nearestSurface(p).point) == RelApprox(std::abs(glm::length(p) - 0.7f)).epsilon(1e-4));
    const vec3 axis(0.0f, std::clamp(p.y, -0.5f, 0.5f), 0.0f);
    CHECK(glm::length(p - capsule->nearestSurface(p).point) ==
          RelApprox(std::abs(glm::length(p - axis) - 0.3f)).epsilon(1e-4));
  }
  checkNearestSurface(*sphere, 1e-5f);
  checkNearestSurface(*capsule, 1e-5f);
}

TEST_CASE("nearest surface of a revolved rectangle equals the cylinder's") {
  ShapeDesc c = shapeOf(ShapeType::Cylinder);
  c.radius = 0.4f;
  c.height = 1.2f;
  ShapeDesc r = shapeOf(ShapeType::Revolve);
  r.profile = {{0.0f, -0.6f}, {0.4f, -0.6f}, {0.4f, 0.6f}, {0.0f, 0.6f}};
  const auto cylinder = makeShape(c, ""), revolve = makeShape(r, "");
  int differ = 0;
  for (const vec3& p : randomPoints(vec3(-0.8f, -1.0f, -0.8f), vec3(0.8f, 1.0f, 0.8f), 2000, 9)) {
    if (std::sqrt(p.x * p.x + p.z * p.z) < 1e-3f) continue;  // on the axis the radial direction is a choice
    const SurfaceSample a = cylinder->nearestSurface(p), b = revolve->nearestSurface(p);
    differ += glm::length(a.point - b.point) > 1e-5f || glm::length(a.normal - b.normal) > 1e-4f;
  }
  CHECK(differ == 0);
  checkNearestSurface(*cylinder, 1e-5f);
}

TEST_CASE("nearest surface of a hollow revolve: both faces of the wall") {
  // A cup-like profile with obtuse corners (at an acute corner the point behind a corner sample can lie outside).
  ShapeDesc r = shapeOf(ShapeType::Revolve);
  r.profile = {{0.0f, -0.5f}, {0.6f, -0.5f}, {0.5f, 0.5f}, {0.0f, 0.5f}};
  r.wall = 0.08f;
  // The inner face is found by Newton steps on the distance to the profile; where two inner faces meet they can stop
  // on the corner's edge instead of the nearer face: at most 0.2% of the probes (3 of 3000 here).
  checkNearestSurface(*makeShape(r, ""), 1e-4f, 6);
}

TEST_CASE("nearest surface of a closed mesh") {
  ShapeDesc m = shapeOf(ShapeType::Mesh);
  m.meshPath = std::string(FRACTURE_SOURCE_DIR) + "/assets/meshes/jelly.obj";
  m.meshScale = 1.0f;
  checkNearestSurface(*makeShape(m, ""), 1e-4f);
}

namespace {

float segmentDistance(const vec3& p, const vec3& a, const vec3& b) {
  const vec3 ab = b - a;
  const float t = std::clamp(glm::dot(p - a, ab) / glm::dot(ab, ab), 0.0f, 1.0f);
  return glm::length(p - (a + t * ab));
}

// Distance from p to triangle abc by another route than the shape's (Voronoi regions): the plane when the
// projection falls inside (barycentric signs), else the nearest edge.
float triangleDistance(const vec3& p, const vec3& a, const vec3& b, const vec3& c) {
  const vec3 n = glm::normalize(glm::cross(b - a, c - a));
  const vec3 q = p - glm::dot(p - a, n) * n;
  const float u = glm::dot(glm::cross(b - a, q - a), n), v = glm::dot(glm::cross(c - b, q - b), n),
              w = glm::dot(glm::cross(a - c, q - c), n);
  if (u >= 0.0f && v >= 0.0f && w >= 0.0f) return std::abs(glm::dot(p - a, n));
  return std::min({segmentDistance(p, a, b), segmentDistance(p, b, c), segmentDistance(p, c, a)});
}

}  // namespace

TEST_CASE("nearest surface of a closed mesh: the searched buckets find the nearest of all triangles") {
  ShapeDesc m = shapeOf(ShapeType::Mesh);
  m.meshPath = std::string(FRACTURE_SOURCE_DIR) + "/assets/meshes/jelly.obj";
  m.meshScale = 1.0f;
  const auto shape = makeShape(m, "");
  const TriangleMesh mesh = loadClosedObj(m.meshPath, 1.0f);
  const Aabb b = shape->bounds();
  const vec3 margin = 0.2f * (b.hi - b.lo);  // points inside the bucket grid and outside it (the direct search)
  int worse = 0;
  for (const vec3& p : randomPoints(b.lo - margin, b.hi + margin, 2000, 23)) {
    float best = 1e30f;
    for (const glm::uvec3& t : mesh.triangles)
      best = std::min(best, triangleDistance(p, mesh.vertices[t[0]], mesh.vertices[t[1]], mesh.vertices[t[2]]));
    worse += glm::length(p - shape->nearestSurface(p).point) > best + 1e-6f;
  }
  CHECK(worse == 0);
}
