#pragma once
// A Verlet neighbour list on the device (CSR, each element's entries sorted by index), for any method: the caller
// says which elements take part and which candidates each has (a functor `candidates(i, f)` calling f(j) for every
// j; a named type, since nvcc rejects local lambdas as template arguments of functions holding extended lambdas).
// Built by count, CUB exclusive scan and fill; the rebuild test is the largest squared move since the build.
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>

#include "backend/cuda/cuda_exec.cuh"
#include "backend/cuda/device_arena.cuh"
#include "core/math.h"

namespace frac {

struct DeviceVerletList {
  int32_t* start = nullptr;  // n + 1
  int32_t* count = nullptr;  // n + 1
  vec3* builtAt = nullptr;   // positions at the build
  float* moved2 = nullptr;   // n
  float* largestMove2 = nullptr;
  void* temp = nullptr;      // CUB scratch, also lent to the caller's own reductions (tempBytes covers them)
  size_t tempBytes = 0;
  int32_t* entries = nullptr;  // own allocation, grown as needed
  size_t capacity = 0;
  bool valid = false;

  // Storage for n elements; `callerTempBytes`: scratch the caller's own CUB calls need from `temp`.
  void allocate(DeviceArena& arena, int n, size_t callerTempBytes = 0) {
    release();
    start = arena.allocate<int32_t>(size_t(n) + 1);
    count = arena.allocate<int32_t>(size_t(n) + 1);
    builtAt = arena.allocate<vec3>(n);
    moved2 = arena.allocate<float>(n);
    largestMove2 = arena.allocate<float>(1);
    size_t scan = 0, reduce = 0;
    cudaCheck(cub::DeviceScan::ExclusiveSum(nullptr, scan, count, start, n + 1), "CUB scan (size query)");
    cudaCheck(cub::DeviceReduce::Max(nullptr, reduce, moved2, largestMove2, n), "CUB max (size query)");
    tempBytes = std::max({scan, reduce, callerTempBytes, size_t(1)});
    temp = arena.allocate<unsigned char>(tempBytes);
  }

  void release() {
    cudaFree(entries);
    entries = nullptr;
    capacity = 0;
    valid = false;
  }
  ~DeviceVerletList() { release(); }

  // Largest squared distance an element (where take(i)) moved since the build; reads one float back.
  template <class Take>
  float largestMoveSquared(const vec3* positions, int n, Take take) {
    const vec3* built = builtAt;
    float* out = moved2;
    parallel_for(CudaExec{}, n, [=] __host__ __device__(int i) {
      out[i] = take(i) ? length2(positions[i] - built[i]) : 0.0f;
    });
    cudaCheck(cub::DeviceReduce::Max(temp, tempBytes, moved2, largestMove2, n), "CUB max");
    float largest = 0.0f;
    copyToHost(&largest, largestMove2, 1);
    return largest;
  }

  // Rebuilds from `candidates` for the elements where take(i); remembers `positions` for the next move test.
  template <class Take, class Candidates>
  void rebuild(const vec3* positions, int n, Take take, Candidates candidates) {
    const CudaExec exec;
    int32_t* counts = count;
    parallel_for(exec, n + 1, [=] __host__ __device__(int i) {
      int c = 0;
      if (i < n && take(i)) candidates(i, [&](int) { ++c; });
      counts[i] = c;
    });
    cudaCheck(cub::DeviceScan::ExclusiveSum(temp, tempBytes, count, start, n + 1), "CUB scan");
    int32_t total = 0;
    copyToHost(&total, start + n, 1);
    if (size_t(total) > capacity) {
      cudaFree(entries);
      capacity = size_t(total) + size_t(total) / 4 + 1024;
      cudaCheck(cudaMalloc(&entries, capacity * sizeof(int32_t)), "cudaMalloc (Verlet list)");
    }
    int32_t* list = entries;
    const int32_t* first = start;
    parallel_for(exec, n, [=] __host__ __device__(int i) {
      if (!take(i)) return;
      const int begin = first[i];
      int end = begin;
      candidates(i, [&](int j) {
        int k = end++;  // insertion keeps the entries sorted by index
        for (; k > begin && list[k - 1] > j; --k) list[k] = list[k - 1];
        list[k] = j;
      });
    });
    cudaCheck(cudaMemcpyAsync(builtAt, positions, size_t(n) * sizeof(vec3), cudaMemcpyDeviceToDevice),
              "Verlet list positions");
    valid = true;
  }
};

}  // namespace frac
