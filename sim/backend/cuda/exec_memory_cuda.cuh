#pragma once
// backend/exec_memory.h for the CUDA exec policy: device buffers, CUB's exclusive scan, the device grid build, and
// output arrays copied into host vectors when collected.
#include <cub/device/device_scan.cuh>

#include <vector>

#include "backend/cuda/cuda_exec.cuh"
#include "backend/cuda/device_arena.cuh"
#include "backend/cuda/grid_cuda.cuh"
#include "backend/exec_memory.h"

namespace frac {

// A device buffer that grows on demand (by reallocation: the contents are not kept when it grows).
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { cudaFree(data_); }

  T* ensure(size_t n) {
    if (n > capacity_) {
      cudaFree(data_);
      data_ = nullptr;
      capacity_ = n + n / 4;
      cudaCheck(cudaMalloc(&data_, capacity_ * sizeof(T)), "cudaMalloc (device buffer)");
    }
    return data_;
  }
  T* data() { return data_; }

 private:
  T* data_ = nullptr;
  size_t capacity_ = 0;
};

// The uniform grid of core/grid.h built on the device (grid_cuda.cuh), its storage kept while the window's cell
// count and the element count fit.
class DeviceElementGrid {
 public:
  GridView build(const CudaExec&, const GridWindow& window, const vec3* positions, const float* radii,
                 const uint8_t* flags, uint8_t excludeMask, int count) {
    GridView view = window.view();
    if (count > storage_.capacity || window.cells() != storage_.cells) {
      arena_.release();
      storage_ = allocateGridStorage(arena_, view, count > storage_.capacity ? count + count / 4 : storage_.capacity);
    }
    buildGridCuda(storage_, view, positions, radii, flags, excludeMask, count);
    view.cellStart = storage_.cellStart;
    view.sortedIndex = storage_.sortedIndex;
    view.sortedSphere = storage_.sortedSphere;
    return view;
  }

 private:
  DeviceArena arena_;
  DeviceGridStorage storage_;
};

template <>
struct ExecMemory<CudaExec> {
  template <class T>
  using Buffer = DeviceBuffer<T>;
  using ElementGrid = DeviceElementGrid;
};

// (The host vector is sized when collected: its zero-filling is part of the copy, not of the device's passes.)
template <class T>
T* outputArray(const CudaExec&, std::vector<T>&, DeviceBuffer<T>& device, size_t n) {
  return device.ensure(n);
}
template <class T>
void collectOutput(const CudaExec& exec, std::vector<T>& host, const T* device, size_t n) {
  host.resize(n);
  if (n == 0) return;
  cudaCheck(cudaMemcpyAsync(host.data(), device, sizeof(T) * host.size(), cudaMemcpyDeviceToHost, exec.stream),
            "collect output");
  cudaCheck(cudaStreamSynchronize(exec.stream), "collect output");
}

inline void finishQueued(const CudaExec& exec) { cudaCheck(cudaStreamSynchronize(exec.stream), "queued passes"); }

// out[i] = in[0] + ... + in[i - 1] for i < n (CUB; integers, so the same sums as the CPU's).
template <class T>
void exclusiveScan(const CudaExec& exec, const T* in, T* out, int n) {
  if (n <= 0) return;
  size_t bytes = 0;
  cudaCheck(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, n, exec.stream), "CUB scan (size query)");
  void* temp = nullptr;
  cudaCheck(cudaMallocAsync(&temp, bytes > 0 ? bytes : 1, exec.stream), "cudaMallocAsync (scan)");
  cudaCheck(cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n, exec.stream), "CUB scan");
  cudaCheck(cudaFreeAsync(temp, exec.stream), "cudaFreeAsync (scan)");
}

}  // namespace frac
