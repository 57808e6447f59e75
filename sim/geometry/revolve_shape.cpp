#include "geometry/revolve_shape.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "io/scene_error.h"

namespace frac {
namespace {

glm::vec2 nearestOnSegment(const glm::vec2& q, const glm::vec2& a, const glm::vec2& b) {
  const glm::vec2 ab = b - a;
  const float len2 = glm::dot(ab, ab);
  const float t = len2 > 0.0f ? std::clamp(glm::dot(q - a, ab) / len2, 0.0f, 1.0f) : 0.0f;
  return a + t * ab;
}

float distanceToSegment(const glm::vec2& q, const glm::vec2& a, const glm::vec2& b) {
  return glm::length(q - nearestOnSegment(q, a, b));
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

glm::vec2 RevolveShape::nearestOnSurface(const glm::vec2& q, glm::vec2& edgeDirection) const {
  float best = std::numeric_limits<float>::infinity();
  glm::vec2 nearest = profile_[0];
  for (size_t i = 0, j = profile_.size() - 1; i < profile_.size(); j = i++) {
    if (profile_[i].x <= 0.0f && profile_[j].x <= 0.0f) continue;  // on the axis: interior after revolving
    const glm::vec2 c = nearestOnSegment(q, profile_[j], profile_[i]);
    const float d = glm::length(q - c);
    if (d < best) {
      best = d;
      nearest = c;
      edgeDirection = profile_[i] - profile_[j];
    }
  }
  return nearest;
}

SurfaceSample RevolveShape::nearestSurface(const vec3& p) const {
  const float rho = std::sqrt(p.x * p.x + p.z * p.z);
  const vec3 radial = rho > 1e-12f ? vec3(p.x / rho, 0.0f, p.z / rho) : vec3(1, 0, 0);
  const glm::vec2 q(rho, p.y);
  glm::vec2 edge(0.0f, 1.0f);
  const glm::vec2 c = nearestOnSurface(q, edge);
  // The outward normal in the (r, y) plane: away from the profile when q lies off the surface, else the edge's
  // perpendicular turned to the outside.
  glm::vec2 n = q - c;
  const bool in = insideProfile(q);
  if (glm::length(n) > 1e-9f) {
    n = glm::normalize(n) * (in ? -1.0f : 1.0f);
  } else {
    n = glm::normalize(glm::vec2(edge.y, -edge.x));
    if (insideProfile(c + 1e-4f * glm::length(edge) * n)) n = -n;
  }
  glm::vec2 point = c;
  if (wall_ > 0.0f && in && glm::length(q - c) > 0.5f * wall_) {
    // Nearer the shell's inner face {d = wall}, d the distance to the profile: Newton steps x -= (d(x) - wall) g(x)
    // along the unit gradient g of d (away from the nearest profile point), from q; the outward normal there is g.
    glm::vec2 x = q, g = glm::normalize(q - c);
    for (int k = 0; k < 30; ++k) {
      glm::vec2 edgeAtX;
      const glm::vec2 cx = nearestOnSurface(x, edgeAtX);
      const float d = glm::length(x - cx);
      if (d > 1e-12f) g = (x - cx) / d;
      if (std::abs(d - wall_) <= 1e-7f) break;
      x -= (d - wall_) * g;
      x.x = std::max(x.x, 0.0f);
    }
    point = x;
    n = g;
  }
  return {point.x * radial + vec3(0.0f, point.y, 0.0f), n.x * radial + vec3(0.0f, n.y, 0.0f)};
}

}  // namespace frac
