#include "sphere_screen_box.h"

#include <algorithm>
#include <cmath>

namespace frac::render {

SphereScreenBox sphereScreenBox(const glm::mat4& view, const glm::mat4& proj, VkExtent2D extent,
                                const glm::vec3& centre, float radius) {
  SphereScreenBox b;
  const glm::vec3 c = glm::vec3(view * glm::vec4(centre, 1.0f));
  const float depth = -c.z;
  if (!(radius > 0.0f) || depth <= 1.001f * radius) return b;  // not drawn, or reaching the eye plane
  // Tangent lines from the eye to the sphere in the xz and yz planes (as tangentBounds in sphere_point.vert).
  const float halfW = 0.5f * float(extent.width), halfH = 0.5f * float(extent.height);
  auto bounds = [&](float x, float scale, float half, float& lo, float& hi) {
    const float t = std::sqrt(std::max(x * x + depth * depth - radius * radius, 1e-30f));
    const float a = (x * t - radius * depth) / (depth * t + radius * x) * scale;
    const float z = (x * t + radius * depth) / (depth * t - radius * x) * scale;
    lo = half * (1.0f + std::min(a, z)) - 1.0f;  // pixels, one pixel of margin
    hi = half * (1.0f + std::max(a, z)) + 1.0f;
  };
  const float denomX = depth * std::sqrt(std::max(c.x * c.x + depth * depth - radius * radius, 1e-30f)) - radius * std::abs(c.x);
  const float denomY = depth * std::sqrt(std::max(c.y * c.y + depth * depth - radius * radius, 1e-30f)) - radius * std::abs(c.y);
  if (denomX <= 0.0f || denomY <= 0.0f) return b;  // a tangent line at or beyond 90 degrees: not a bounded box
  bounds(c.x, proj[0][0], halfW, b.x0, b.x1);
  bounds(c.y, proj[1][1], halfH, b.y0, b.y1);
  b.centreX = halfW * (1.0f + proj[0][0] * c.x / depth);
  b.centreY = halfH * (1.0f + proj[1][1] * c.y / depth);
  // The sphere's cross-section through its centre, parallel to the image, projects to this disc exactly.
  b.innerRadius = 0.999f * std::abs(proj[1][1]) * halfH * radius / depth;
  b.centreDepth = depth;
  b.nearDepth = depth - radius;
  b.valid = true;
  return b;
}

}  // namespace frac::render
