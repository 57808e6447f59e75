#pragma once
// Device-side build of the uniform grid of core/grid.h: cell keys, CUB radix sort by key, then cell starts.
#include <cstdint>

#include "backend/cuda/device_arena.cuh"
#include "core/grid.h"

namespace frac {

struct DeviceGridStorage {
  int32_t* cellStart = nullptr;    // cells + 1
  int32_t* sortedIndex = nullptr;  // capacity elements
  glm::vec4* sortedSphere = nullptr;
  int32_t* keys[2] = {nullptr, nullptr};
  int32_t* values = nullptr;
  void* temp = nullptr;  // CUB's scratch space
  size_t tempBytes = 0;
  int capacity = 0;
  int cells = 0;
};

// Storage for `capacity` elements in the grid window `window`, allocated from `arena`.
DeviceGridStorage allocateGridStorage(DeviceArena& arena, const GridView& window, int capacity);

// Fills storage.cellStart / sortedIndex / sortedSphere for the elements not matching excludeMask (same order as the
// CPU counting sort: by cell, then by element index); `window` supplies the geometry.
void buildGridCuda(DeviceGridStorage& storage, GridView window, const vec3* positions, const float* radii,
                   const uint8_t* flags, uint8_t excludeMask, int count);

}  // namespace frac
