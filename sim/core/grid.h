#pragma once
// Uniform grid over a fixed window, built by counting sort. Cells outside the window are clamped onto its border
// cells: clamping is monotone, so two elements closer than one cell still land in the same or adjacent cells and a
// far-flung fragment costs only a few extra distance tests, never a missed contact.
#include <cstdint>
#include <vector>

#include "core/math.h"

namespace frac {

struct GridView {
  vec3 lo{0.0f};
  float invCell = 1.0f;
  int nx = 1, ny = 1, nz = 1;
  const int32_t* cellStart = nullptr;    // nx*ny*nz + 1 entries
  const int32_t* sortedIndex = nullptr;  // element indices ordered by cell, then by index
  const glm::vec4* sortedSphere = nullptr;  // (position, radius) in sortedIndex order: contiguous candidate reads

  FRAC_HD int clampAxis(float x, float lo0, int n) const {
    int c = int(floorf((x - lo0) * invCell));
    return c < 0 ? 0 : (c >= n ? n - 1 : c);
  }
  FRAC_HD int cellOf(const vec3& p) const {
    const int ix = clampAxis(p.x, lo.x, nx), iy = clampAxis(p.y, lo.y, ny), iz = clampAxis(p.z, lo.z, nz);
    return (iz * ny + iy) * nx + ix;
  }

  // Calls f(j, sphere_j) for every element in the 27 cells around p (each element once, in a fixed order).
  template <class F>
  FRAC_HD void forEachCandidate(const vec3& p, F&& f) const {
    const int ix = clampAxis(p.x, lo.x, nx), iy = clampAxis(p.y, lo.y, ny), iz = clampAxis(p.z, lo.z, nz);
    const int x0 = ix > 0 ? ix - 1 : 0, x1 = ix < nx - 1 ? ix + 1 : ix;
    for (int z = (iz > 0 ? iz - 1 : 0); z <= (iz < nz - 1 ? iz + 1 : iz); ++z)
      for (int y = (iy > 0 ? iy - 1 : 0); y <= (iy < ny - 1 ? iy + 1 : iy); ++y) {
        const int row = (z * ny + y) * nx;
        const int end = cellStart[row + x1 + 1];
        for (int k = cellStart[row + x0]; k < end; ++k) f(sortedIndex[k], sortedSphere[k]);
      }
  }

  // Calls f(j, sphere_j) for every element in the cells that overlap the box p +- reach (clamped onto the window like
  // cellOf), any cell size: with cells of half the reach a point visits 4-5 cells per axis holding ~1.7x fewer
  // candidates than the 27 cells of reach-wide cells.
  template <class F>
  FRAC_HD void forEachCandidateWithin(const vec3& p, float reach, F&& f) const {
    const int x0 = clampAxis(p.x - reach, lo.x, nx), x1 = clampAxis(p.x + reach, lo.x, nx);
    const int y0 = clampAxis(p.y - reach, lo.y, ny), y1 = clampAxis(p.y + reach, lo.y, ny);
    const int z0 = clampAxis(p.z - reach, lo.z, nz), z1 = clampAxis(p.z + reach, lo.z, nz);
    for (int z = z0; z <= z1; ++z)
      for (int y = y0; y <= y1; ++y) {
        const int row = (z * ny + y) * nx;
        const int end = cellStart[row + x1 + 1];
        for (int k = cellStart[row + x0]; k < end; ++k) f(sortedIndex[k], sortedSphere[k]);
      }
  }
};

// The geometry of a grid over the window [lo, hi] with cells of at least `cell`, grown by 1.25x until it needs at most
// maxCells cells.
struct GridWindow {
  vec3 lo{0.0f};
  float cell = 1.0f;
  int nx = 1, ny = 1, nz = 1;
  int64_t cells() const { return int64_t(nx) * ny * nz; }
  GridView view() const;  // the geometry, with no storage (null pointers)
};
GridWindow gridWindow(const vec3& lo, const vec3& hi, float cell, int64_t maxCells);

// Host-side grid storage and the CPU build (serial counting sort: O(n + cells), deterministic).
class UniformGrid {
 public:
  // Window [lo, hi] with cells of at least `cell`; the cell grows if the window would need more than maxCells.
  void setWindow(const vec3& lo, const vec3& hi, float cell, int64_t maxCells = 1 << 22);
  void setWindow(const GridWindow& window);
  // Inserts every element whose flags share no bit with excludeMask.
  void build(const vec3* positions, const float* radii, const uint8_t* flags, uint8_t excludeMask, int count);
  GridView view() const;

 private:
  GridWindow window_;
  std::vector<int32_t> cellStart_, sortedIndex_, cellOfElement_, fill_;
  std::vector<glm::vec4> sortedSphere_;
};

}  // namespace frac
