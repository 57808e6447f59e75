#pragma once
// Shapes with an inside test and the nearest surface point in their local frame (box, sphere, cylinder, capsule,
// revolved profile, closed OBJ mesh).
#include <memory>
#include <string>

#include "geometry/shape_desc.h"

namespace frac {

struct Aabb {
  vec3 lo{0.0f}, hi{0.0f};
};

// A point of a shape's surface and the unit normal pointing out of the shape there (local frame).
struct SurfaceSample {
  vec3 point{0.0f};
  vec3 normal{0.0f, 1.0f, 0.0f};
};

class Shape {
 public:
  virtual ~Shape() = default;
  virtual bool inside(const vec3& localPoint) const = 0;
  virtual Aabb bounds() const = 0;  // local frame
  // The surface point nearest to localPoint (inside or outside), with the outward normal there: where a body's outer
  // surface lies for the fracture surfaces (sim/surface), so that an intact body shows its shape's faces and edges.
  virtual SurfaceSample nearestSurface(const vec3& localPoint) const = 0;
};

// baseDir resolves relative mesh paths. Throws SceneError (naming the file) for a missing or open mesh.
std::unique_ptr<Shape> makeShape(const ShapeDesc& desc, const std::string& baseDir);

}  // namespace frac
