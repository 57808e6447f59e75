#include <cub/device/device_radix_sort.cuh>

#include "backend/cuda/cuda_exec.cuh"
#include "backend/cuda/grid_cuda.cuh"

namespace frac {

DeviceGridStorage allocateGridStorage(DeviceArena& arena, const GridView& window, int capacity) {
  DeviceGridStorage s;
  s.capacity = capacity;
  s.cells = window.nx * window.ny * window.nz;
  s.cellStart = arena.allocate<int32_t>(size_t(s.cells) + 1);
  s.sortedIndex = arena.allocate<int32_t>(capacity);
  s.sortedSphere = arena.allocate<glm::vec4>(capacity);
  s.keys[0] = arena.allocate<int32_t>(capacity);
  s.keys[1] = arena.allocate<int32_t>(capacity);
  s.values = arena.allocate<int32_t>(capacity);
  cudaCheck(cub::DeviceRadixSort::SortPairs(nullptr, s.tempBytes, s.keys[0], s.keys[1], s.values, s.sortedIndex,
                                            capacity),
            "CUB radix sort (size query)");
  s.temp = arena.allocate<unsigned char>(s.tempBytes > 0 ? s.tempBytes : 1);
  return s;
}

void buildGridCuda(DeviceGridStorage& s, GridView window, const vec3* positions, const float* radii,
                   const uint8_t* flags, uint8_t excludeMask, int count) {
  const CudaExec exec;
  const int cells = window.nx * window.ny * window.nz;
  if (count > s.capacity || cells != s.cells) throw std::runtime_error("CUDA grid: storage sized for another scene");
  int32_t* keys = s.keys[0];
  int32_t* values = s.values;
  // Excluded elements get the key `cells`, which sorts them behind every real cell.
  parallel_for(exec, count, [=] __host__ __device__(int i) {
    keys[i] = (flags[i] & excludeMask) ? cells : window.cellOf(positions[i]);
    values[i] = i;
  });
  // Keys lie in [0, cells]: sorting only the bits that can be set halves the passes of a 32-bit sort.
  int endBit = 1;
  while ((int64_t(1) << endBit) <= cells) ++endBit;
  cudaCheck(cub::DeviceRadixSort::SortPairs(s.temp, s.tempBytes, keys, s.keys[1], values, s.sortedIndex, count, 0,
                                            endBit),
            "CUB radix sort");
  // cellStart[c] = first sorted position with key >= c (the radix sort is stable: index order inside a cell).
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
