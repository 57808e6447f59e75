#pragma once
// Device-side build of the uniform grid of core/grid.h: cell keys, CUB radix sort by key, then cell starts.
#include <cstdint>

#include "core/grid.h"

namespace frac {

struct DeviceGridStorage {
  int32_t* cellStart = nullptr;    // cells + 1
  int32_t* sortedIndex = nullptr;  // capacity elements
  glm::vec4* sortedSphere = nullptr;
  int32_t* keys[2] = {nullptr, nullptr};
  int32_t* values = nullptr;
  void* temp = nullptr;
  size_t tempBytes = 0;
  int capacity = 0;
  int cells = 0;
};

// Fills storage.cellStart / sortedIndex for the elements not matching excludeMask; `window` supplies the geometry.
void buildGridCuda(DeviceGridStorage& storage, GridView window, const vec3* positions, const float* radii,
                   const uint8_t* flags, uint8_t excludeMask, int count);

}  // namespace frac
