// Primitive shapes (box, sphere, cylinder, capsule) and the factory that builds any shape from its description.
#include "geometry/shapes.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "geometry/mesh_shape.h"
#include "geometry/obj_mesh.h"
#include "geometry/revolve_shape.h"

namespace frac {
namespace {

// The sample at `point` whose outward normal points from the shape towards p (p outside), or `inward` (p inside or
// on the surface).
SurfaceSample towards(const vec3& p, const vec3& point, const vec3& fallbackNormal) {
  const vec3 d = p - point;
  const float len = glm::length(d);
  return {point, len > 1e-12f ? d / len : fallbackNormal};
}

// Axis-aligned box of full edge lengths `size`, centred at the origin.
class BoxShape final : public Shape {
 public:
  explicit BoxShape(const vec3& size) : half_(0.5f * size) {}
  bool inside(const vec3& p) const override {
    return std::abs(p.x) <= half_.x && std::abs(p.y) <= half_.y && std::abs(p.z) <= half_.z;
  }
  Aabb bounds() const override { return {-half_, half_}; }
  SurfaceSample nearestSurface(const vec3& p) const override {
    if (!inside(p)) return towards(p, glm::clamp(p, -half_, half_), vec3(0, 1, 0));
    int axis = 0;  // the nearest face
    for (int k = 1; k < 3; ++k)
      if (half_[k] - std::abs(p[k]) < half_[axis] - std::abs(p[axis])) axis = k;
    SurfaceSample s{p, vec3(0.0f)};
    const float side = p[axis] < 0.0f ? -1.0f : 1.0f;
    s.point[axis] = side * half_[axis];
    s.normal[axis] = side;
    return s;
  }

 private:
  vec3 half_;
};

class SphereShape final : public Shape {
 public:
  explicit SphereShape(float radius) : radius_(radius) {}
  bool inside(const vec3& p) const override { return length2(p) <= radius_ * radius_; }
  Aabb bounds() const override { return {vec3(-radius_), vec3(radius_)}; }
  SurfaceSample nearestSurface(const vec3& p) const override {
    const float len = glm::length(p);
    const vec3 n = len > 1e-12f ? p / len : vec3(0, 1, 0);
    return {radius_ * n, n};
  }

 private:
  float radius_;
};

// Axis along local y, centred.
class CylinderShape final : public Shape {
 public:
  CylinderShape(float radius, float height) : radius_(radius), halfHeight_(0.5f * height) {}
  bool inside(const vec3& p) const override {
    return p.x * p.x + p.z * p.z <= radius_ * radius_ && std::abs(p.y) <= halfHeight_;
  }
  Aabb bounds() const override {
    return {vec3(-radius_, -halfHeight_, -radius_), vec3(radius_, halfHeight_, radius_)};
  }
  SurfaceSample nearestSurface(const vec3& p) const override {
    const float rho = std::sqrt(p.x * p.x + p.z * p.z);
    const vec3 radial = rho > 1e-12f ? vec3(p.x / rho, 0.0f, p.z / rho) : vec3(1, 0, 0);
    const float capSide = p.y < 0.0f ? -1.0f : 1.0f;
    if (!inside(p)) {
      const vec3 clamped = std::min(rho, radius_) * radial + vec3(0.0f, std::clamp(p.y, -halfHeight_, halfHeight_), 0.0f);
      return towards(p, clamped, radial);
    }
    if (radius_ - rho < halfHeight_ - std::abs(p.y)) return {radius_ * radial + vec3(0, p.y, 0), radial};
    return {vec3(p.x, capSide * halfHeight_, p.z), vec3(0, capSide, 0)};
  }

 private:
  float radius_, halfHeight_;
};

// Points within `radius` of the segment y in [-height/2, height/2] on the local y axis.
class CapsuleShape final : public Shape {
 public:
  CapsuleShape(float radius, float height) : radius_(radius), halfHeight_(0.5f * height) {}
  bool inside(const vec3& p) const override {
    const vec3 nearestOnAxis(0.0f, std::clamp(p.y, -halfHeight_, halfHeight_), 0.0f);
    return length2(p - nearestOnAxis) <= radius_ * radius_;
  }
  Aabb bounds() const override {
    const float halfLength = halfHeight_ + radius_;
    return {vec3(-radius_, -halfLength, -radius_), vec3(radius_, halfLength, radius_)};
  }
  SurfaceSample nearestSurface(const vec3& p) const override {
    const vec3 axis(0.0f, std::clamp(p.y, -halfHeight_, halfHeight_), 0.0f);
    const vec3 n = towards(p, axis, vec3(1, 0, 0)).normal;
    return {axis + radius_ * n, n};
  }

 private:
  float radius_, halfHeight_;
};

std::string resolveMeshPath(const std::string& meshPath, const std::string& baseDir) {
  const std::filesystem::path path(meshPath);
  if (path.is_absolute() || baseDir.empty()) return path.string();
  return (std::filesystem::path(baseDir) / path).string();
}

}  // namespace

std::unique_ptr<Shape> makeShape(const ShapeDesc& desc, const std::string& baseDir) {
  switch (desc.type) {
    case ShapeType::Box: return std::make_unique<BoxShape>(desc.size);
    case ShapeType::Sphere: return std::make_unique<SphereShape>(desc.radius);
    case ShapeType::Cylinder: return std::make_unique<CylinderShape>(desc.radius, desc.height);
    case ShapeType::Capsule: return std::make_unique<CapsuleShape>(desc.radius, desc.height);
    case ShapeType::Revolve: return std::make_unique<RevolveShape>(desc.profile, desc.wall);
    case ShapeType::Mesh:
      return std::make_unique<MeshShape>(loadClosedObj(resolveMeshPath(desc.meshPath, baseDir), desc.meshScale));
  }
  return nullptr;  // unreachable: every ShapeType is handled above
}

}  // namespace frac
