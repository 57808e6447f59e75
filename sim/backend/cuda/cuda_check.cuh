#pragma once
// CUDA runtime errors become exceptions that name the call: a failed allocation or launch is reported, never
// ignored.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace frac {

inline void cudaCheck(cudaError_t err, const char* what) {
  if (err != cudaSuccess)
    throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(err) + " (error " +
                             std::to_string(int(err)) + ")");
}

}  // namespace frac
