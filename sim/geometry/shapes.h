#pragma once
// Shapes with an inside test in their local frame (box, sphere, cylinder, capsule, revolved profile, closed OBJ mesh).
#include <memory>
#include <string>

#include "geometry/shape_desc.h"

namespace frac {

struct Aabb {
  vec3 lo{0.0f}, hi{0.0f};
};

class Shape {
 public:
  virtual ~Shape() = default;
  virtual bool inside(const vec3& localPoint) const = 0;
  virtual Aabb bounds() const = 0;  // local frame
};

// baseDir resolves relative mesh paths. Throws SceneError (naming the file) for a missing or open mesh.
std::unique_ptr<Shape> makeShape(const ShapeDesc& desc, const std::string& baseDir);

}  // namespace frac
