#include "geometry/revolve_shape.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "io/scene_error.h"

namespace frac {
namespace {

float distanceToSegment(const glm::vec2& q, const glm::vec2& a, const glm::vec2& b) {
  const glm::vec2 ab = b - a;
  const float len2 = glm::dot(ab, ab);
  const float t = len2 > 0.0f ? std::clamp(glm::dot(q - a, ab) / len2, 0.0f, 1.0f) : 0.0f;
  return glm::length(q - (a + t * ab));
}

}  // namespace

RevolveShape::RevolveShape(std::vector<glm::vec2> profile, float wall) : profile_(std::move(profile)), wall_(wall) {
  if (profile_.size() < 3) throw SceneError("revolve shape: 'profile' needs at least 3 [r, y] points");
  float rMax = 0.0f, yMin = profile_[0].y, yMax = profile_[0].y;
  for (const glm::vec2& p : profile_) {
    if (p.x < 0.0f) throw SceneError("revolve shape: 'profile' radii r must be >= 0");
    rMax = std::max(rMax, p.x);
    yMin = std::min(yMin, p.y);
    yMax = std::max(yMax, p.y);
  }
  bounds_ = {vec3(-rMax, yMin, -rMax), vec3(rMax, yMax, rMax)};
}

bool RevolveShape::inside(const vec3& p) const {
  const glm::vec2 q(std::sqrt(p.x * p.x + p.z * p.z), p.y);
  if (!insideProfile(q)) return false;
  return wall_ <= 0.0f || distanceToSurface(q) <= wall_;
}

bool RevolveShape::insideProfile(const glm::vec2& q) const {
  bool in = false;
  for (size_t i = 0, j = profile_.size() - 1; i < profile_.size(); j = i++) {
    const glm::vec2& a = profile_[i];
    const glm::vec2& b = profile_[j];
    if ((a.y > q.y) != (b.y > q.y)) {
      const float rCross = a.x + (q.y - a.y) * (b.x - a.x) / (b.y - a.y);
      if (q.x < rCross) in = !in;
    }
  }
  return in;
}

float RevolveShape::distanceToSurface(const glm::vec2& q) const {
  float nearest = std::numeric_limits<float>::infinity();
  for (size_t i = 0, j = profile_.size() - 1; i < profile_.size(); j = i++) {
    const bool onAxis = profile_[i].x <= 0.0f && profile_[j].x <= 0.0f;  // interior after revolving
    if (!onAxis) nearest = std::min(nearest, distanceToSegment(q, profile_[j], profile_[i]));
  }
  return nearest;
}

}  // namespace frac
