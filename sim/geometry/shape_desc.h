#pragma once
// Plain description of a shape as written in a scene; geometry/shapes.h turns it into an inside test.
#include <string>
#include <vector>

#include "core/math.h"

namespace frac {

enum class ShapeType { Box, Sphere, Cylinder, Capsule, Revolve, Mesh };
enum class Packing { Hcp, SimpleCubic, Random };

// No defaults of its own: the registry's "shape" group holds them (io/scene_params.h).
struct ShapeDesc {
  ShapeType type{};
  vec3 size{};                // Box: full edge lengths (m)
  float radius{};             // Sphere, Cylinder, Capsule (m)
  float height{};             // Cylinder, Capsule: length of the axis along local y (m); capsule excludes caps
  std::vector<glm::vec2> profile;  // Revolve: (radius, y) points of a closed profile around the local y axis (m)
  float wall{};               // Revolve: > 0 keeps only a shell of this thickness inside the profile (m)
  std::string meshPath;       // Mesh: closed OBJ file, resolved relative to the scene file
  float meshScale{};          // Mesh: uniform scale applied to OBJ coordinates
};

// Local frame -> world: p_world = position + rotate(orientation, p_local).
struct Transform {
  vec3 position{0.0f};
  quat orientation{1.0f, 0.0f, 0.0f, 0.0f};
};

}  // namespace frac
