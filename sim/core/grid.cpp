#include "core/grid.h"

#include <algorithm>
#include <cmath>

namespace frac {

GridWindow gridWindow(const vec3& lo, const vec3& hi, float cell, int64_t maxCells) {
  const vec3 extent = glm::max(hi - lo, vec3(cell));
  GridWindow w;
  for (;;) {
    w.nx = std::max(1, int(std::ceil(extent.x / cell)));
    w.ny = std::max(1, int(std::ceil(extent.y / cell)));
    w.nz = std::max(1, int(std::ceil(extent.z / cell)));
    if (w.cells() <= maxCells) break;
    cell *= 1.25f;
  }
  w.lo = lo;
  w.cell = cell;
  return w;
}

GridView GridWindow::view() const {
  GridView v;
  v.lo = lo;
  v.invCell = 1.0f / cell;
  v.nx = nx;
  v.ny = ny;
  v.nz = nz;
  return v;
}

void UniformGrid::setWindow(const vec3& lo, const vec3& hi, float cell, int64_t maxCells) {
  setWindow(gridWindow(lo, hi, cell, maxCells));
}

void UniformGrid::setWindow(const GridWindow& window) {
  window_ = window;
  cellStart_.assign(size_t(window.cells()) + 1, 0);
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
  GridView v = window_.view();
  v.cellStart = cellStart_.data();
  v.sortedIndex = sortedIndex_.data();
  v.sortedSphere = sortedSphere_.data();
  return v;
}

}  // namespace frac
