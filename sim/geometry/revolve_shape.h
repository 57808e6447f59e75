#pragma once
// Solid of revolution: a closed (r, y) profile polygon turned around the local y axis, optionally hollowed to a shell.
#include <vector>

#include "geometry/shapes.h"

namespace frac {

class RevolveShape final : public Shape {
 public:
  // profile: at least 3 (r >= 0, y) points, closed implicitly (last joins first). wall > 0 keeps only the points
  // within `wall` of the revolved surface; profile edges lying on the axis (r = 0 at both ends) are not surface.
  // Throws SceneError for a profile of fewer than 3 points or with r < 0.
  RevolveShape(std::vector<glm::vec2> profile, float wall);

  bool inside(const vec3& localPoint) const override;
  Aabb bounds() const override { return bounds_; }
  // The nearest point of the revolved profile (or, for a shell, of its inner offset by `wall`).
  SurfaceSample nearestSurface(const vec3& localPoint) const override;

 private:
  bool insideProfile(const glm::vec2& q) const;             // even-odd rule in the (r, y) plane
  float distanceToSurface(const glm::vec2& q) const;        // to the nearest profile edge off the axis
  glm::vec2 nearestOnSurface(const glm::vec2& q, glm::vec2& edgeDirection) const;

  std::vector<glm::vec2> profile_;
  float wall_;
  Aabb bounds_;
};

}  // namespace frac
