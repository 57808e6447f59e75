#include "geometry/morton_order.h"

#include <algorithm>
#include <numeric>

namespace frac {

namespace {

// x's 10 low bits spread to every third bit (bit k to bit 3k).
uint32_t spreadMortonBits(uint32_t x) {
  x &= 0x3ffu;
  x = (x | (x << 16)) & 0x030000ffu;
  x = (x | (x << 8)) & 0x0300f00fu;
  x = (x | (x << 4)) & 0x030c30c3u;
  x = (x | (x << 2)) & 0x09249249u;
  return x;
}

}  // namespace

std::vector<int32_t> mortonOrder(const std::vector<vec3>& points) {
  vec3 lo(INFINITY), hi(-INFINITY);
  for (const vec3& p : points) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  const vec3 scale = 1023.0f / glm::max(hi - lo, vec3(1e-30f));
  std::vector<uint32_t> code(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    const glm::uvec3 cell = glm::uvec3(glm::clamp((points[i] - lo) * scale, vec3(0.0f), vec3(1023.0f)));
    code[i] = spreadMortonBits(cell.x) | (spreadMortonBits(cell.y) << 1) | (spreadMortonBits(cell.z) << 2);
  }
  std::vector<int32_t> order(points.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return code[size_t(a)] < code[size_t(b)]; });
  return order;
}

}  // namespace frac
