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

// Axis-aligned box of full edge lengths `size`, centred at the origin.
class BoxShape final : public Shape {
 public:
  explicit BoxShape(const vec3& size) : half_(0.5f * size) {}
  bool inside(const vec3& p) const override {
    return std::abs(p.x) <= half_.x && std::abs(p.y) <= half_.y && std::abs(p.z) <= half_.z;
  }
  Aabb bounds() const override { return {-half_, half_}; }

 private:
  vec3 half_;
};

class SphereShape final : public Shape {
 public:
  explicit SphereShape(float radius) : radius_(radius) {}
  bool inside(const vec3& p) const override { return length2(p) <= radius_ * radius_; }
  Aabb bounds() const override { return {vec3(-radius_), vec3(radius_)}; }

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
