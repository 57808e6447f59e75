#include <cuda_runtime.h>

#include "backend/backend.h"

namespace frac {

bool cudaBackendAvailable(std::string* why) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    if (why) *why = std::string("no usable CUDA device: ") + cudaGetErrorString(err) + " (error " +
                    std::to_string(int(err)) + ")";
    return false;
  }
  if (count == 0) {
    if (why) *why = "no CUDA device found";
    return false;
  }
  return true;
}

std::string cudaDeviceName() {
  cudaDeviceProp prop;
  if (!cudaBackendAvailable(nullptr) || cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return "";
  return prop.name;
}

double cudaFreeMemoryBytes() {
  size_t free = 0, total = 0;
  if (!cudaBackendAvailable(nullptr) || cudaMemGetInfo(&free, &total) != cudaSuccess) return 0.0;
  return double(free);
}

std::array<uint8_t, 16> cudaDeviceUuid() {
  std::array<uint8_t, 16> uuid{};
  cudaDeviceProp prop;
  if (!cudaBackendAvailable(nullptr) || cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return uuid;
  for (int k = 0; k < 16; ++k) uuid[k] = uint8_t(prop.uuid.bytes[k]);
  return uuid;
}

}  // namespace frac
