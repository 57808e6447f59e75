#include "core/grid.h"

#include <algorithm>
#include <cmath>

#include "core/diverged_error.h"

namespace frac {

GridWindow gridWindow(const vec3& lo, const vec3& hi, float cell, int64_t maxCells) {
  // A diverged run's positions (inf, NaN) have no window: say so instead of sizing a grid from them.
  if (!std::isfinite(lo.x + lo.y + lo.z + hi.x + hi.y + hi.z) || !(cell > 0.0f) || !std::isfinite(cell))
    throw DivergedError("contact grid: element positions are not finite (the run diverged; a smaller dt helps)");
  const vec3 extent = glm::max(hi - lo, vec3(cell));
  GridWindow w;
  for (;;) {
    // Counted in double: positions flung far apart (a run about to diverge) would overflow int and int64 products.
    const double nx = std::max(1.0, double(std::ceil(extent.x / cell))), ny = std::max(1.0, double(std::ceil(extent.y / cell))),
                 nz = std::max(1.0, double(std::ceil(extent.z / cell)));
    if (nx * ny * nz <= double(maxCells)) {
      w.nx = int(nx);
      w.ny = int(ny);
      w.nz = int(nz);
      break;
    }
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
