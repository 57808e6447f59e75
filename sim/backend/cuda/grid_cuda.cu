#include <cub/device/device_radix_sort.cuh>

#include "backend/cuda/cuda_exec.cuh"
#include "backend/cuda/grid_cuda.cuh"

namespace frac {

void buildGridCuda(DeviceGridStorage& s, GridView window, const vec3* positions, const float* radii,
                   const uint8_t* flags, uint8_t excludeMask, int count) {
  const CudaExec exec;
  const int cells = window.nx * window.ny * window.nz;
  int32_t* keys = s.keys[0];
  int32_t* values = s.values;
  // Excluded elements get the key `cells`, which sorts them behind every real cell.
  parallel_for(exec, count, [=] __host__ __device__(int i) {
    keys[i] = (flags[i] & excludeMask) ? cells : window.cellOf(positions[i]);
    values[i] = i;
  });
  size_t bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, s.keys[1], values, s.sortedIndex, count);
  if (bytes > s.tempBytes) {
    cudaFree(s.temp);
    cudaMalloc(&s.temp, bytes);
    s.tempBytes = bytes;
  }
  cub::DeviceRadixSort::SortPairs(s.temp, s.tempBytes, keys, s.keys[1], values, s.sortedIndex, count);
  // cellStart[c] = first sorted position with key >= c (stable radix sort keeps index order inside a cell).
  const int32_t* sortedKeys = s.keys[1];
  int32_t* start = s.cellStart;
  parallel_for(exec, cells + 1, [=] __host__ __device__(int c) {
    int lo = 0, hi = count;
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (sortedKeys[mid] < c) lo = mid + 1; else hi = mid;
    }
    start[c] = lo;
  });
  const int32_t* sorted = s.sortedIndex;
  glm::vec4* sphere = s.sortedSphere;
  parallel_for(exec, count, [=] __host__ __device__(int k) {
    const int i = sorted[k];
    sphere[k] = glm::vec4(positions[i], radii[i]);
  });
}

}  // namespace frac
