#include "occlusion_grid.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace frac::render {

void OcclusionGrid::reset(uint32_t width, uint32_t height) {
  columns_ = int((width + kTile - 1) / kTile);
  rows_ = int((height + kTile - 1) / kTile);
  depth_.assign(size_t(columns_) * size_t(rows_), std::numeric_limits<float>::infinity());
}

void OcclusionGrid::addOccluder(float x, float y, float innerRadius, float centreDepth) {
  // Tiles lying entirely inside the disc: per tile row, the span where the row's farther edge is still inside.
  const int r0 = std::max(0, int(std::ceil((y - innerRadius) / kTile)));
  const int r1 = std::min(rows_, int(std::floor((y + innerRadius) / kTile)));
  for (int r = r0; r < r1; ++r) {
    const float dy = std::max(std::abs(float(r * kTile) - y), std::abs(float((r + 1) * kTile) - y));
    const float h2 = innerRadius * innerRadius - dy * dy;
    if (h2 <= 0.0f) continue;
    const float half = std::sqrt(h2);
    const int c0 = std::max(0, int(std::ceil((x - half) / kTile)));
    const int c1 = std::min(columns_, int(std::floor((x + half) / kTile)));
    float* row = depth_.data() + size_t(r) * columns_;
    for (int c = c0; c < c1; ++c) row[c] = std::min(row[c], centreDepth);
  }
}

bool OcclusionGrid::hidden(float x0, float y0, float x1, float y1, float nearDepth) const {
  const int c0 = std::max(0, int(std::floor(x0 / kTile)));
  const int c1 = std::min(columns_ - 1, int(std::floor(x1 / kTile)));
  const int r0 = std::max(0, int(std::floor(y0 / kTile)));
  const int r1 = std::min(rows_ - 1, int(std::floor(y1 / kTile)));
  if (c0 > c1 || r0 > r1) return true;  // off screen
  for (int r = r0; r <= r1; ++r)
    for (int c = c0; c <= c1; ++c)
      if (!(depth_[size_t(r) * columns_ + c] < nearDepth)) return false;
  return true;
}

}  // namespace frac::render
