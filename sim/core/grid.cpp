#include "core/grid.h"

#include <algorithm>
#include <cmath>

namespace frac {

void UniformGrid::setWindow(const vec3& lo, const vec3& hi, float cell, int64_t maxCells) {
  const vec3 extent = glm::max(hi - lo, vec3(cell));
  cell_ = cell;
  for (;;) {
    nx_ = std::max(1, int(std::ceil(extent.x / cell_)));
    ny_ = std::max(1, int(std::ceil(extent.y / cell_)));
    nz_ = std::max(1, int(std::ceil(extent.z / cell_)));
    if (int64_t(nx_) * ny_ * nz_ <= maxCells) break;
    cell_ *= 1.25f;
  }
  lo_ = lo;
  cellStart_.assign(size_t(nx_) * ny_ * nz_ + 1, 0);
}

void UniformGrid::build(const vec3* positions, const float* radii, const uint8_t* flags, uint8_t excludeMask,
                        int count) {
  const GridView v = view();
  cellOfElement_.resize(count);
  std::fill(cellStart_.begin(), cellStart_.end(), 0);
  int inserted = 0;
  for (int i = 0; i < count; ++i) {
    if (flags[i] & excludeMask) {
      cellOfElement_[i] = -1;
      continue;
    }
    const int c = v.cellOf(positions[i]);
    cellOfElement_[i] = c;
    ++cellStart_[c + 1];
    ++inserted;
  }
  for (size_t c = 1; c < cellStart_.size(); ++c) cellStart_[c] += cellStart_[c - 1];
  sortedIndex_.resize(inserted);
  sortedSphere_.resize(inserted);
  fill_.assign(cellStart_.begin(), cellStart_.end() - 1);
  for (int i = 0; i < count; ++i) {
    if (cellOfElement_[i] < 0) continue;
    const int k = fill_[cellOfElement_[i]]++;
    sortedIndex_[k] = i;
    sortedSphere_[k] = glm::vec4(positions[i], radii[i]);
  }
}

GridView UniformGrid::view() const {
  GridView v;
  v.lo = lo_;
  v.invCell = 1.0f / cell_;
  v.nx = nx_;
  v.ny = ny_;
  v.nz = nz_;
  v.cellStart = cellStart_.data();
  v.sortedIndex = sortedIndex_.data();
  v.sortedSphere = sortedSphere_.data();
  return v;
}

}  // namespace frac
