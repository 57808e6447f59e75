#pragma once
// What multi-pass algorithms written once for every exec policy (surface/fracture_surfaces.h) need beyond
// parallel_for: scratch buffers in the policy's memory, an exclusive scan, the element grid's build, and output arrays
// that end up in host vectors. This file is the CPU side; backend/cuda/exec_memory_cuda.cuh is the device side, with
// the same names. ExecMemory<Exec> names the types.
#include <cstdint>
#include <vector>

#include "backend/exec.h"
#include "core/grid.h"
#include "core/math.h"

namespace frac {

// A buffer that grows on demand (contents are kept on the CPU; the device's are not).
template <class T>
class HostBuffer {
 public:
  T* ensure(size_t n) {
    if (data_.size() < n) data_.resize(n);
    return data_.data();
  }
  T* data() { return data_.data(); }

 private:
  std::vector<T> data_;
};

// The uniform grid of core/grid.h over elements in the policy's memory.
class HostElementGrid {
 public:
  GridView build(const CpuExec&, const GridWindow& window, const vec3* positions, const float* radii,
                 const uint8_t* flags, uint8_t excludeMask, int count) {
    grid_.setWindow(window);
    grid_.build(positions, radii, flags, excludeMask, count);
    return grid_.view();
  }

 private:
  UniformGrid grid_;
};

template <class Exec>
struct ExecMemory;

template <>
struct ExecMemory<CpuExec> {
  template <class T>
  using Buffer = HostBuffer<T>;
  using ElementGrid = HostElementGrid;
};

template <class Exec, class T>
using ExecBuffer = typename ExecMemory<Exec>::template Buffer<T>;

// An output array of n entries that ends up in `host`: on the CPU, host's own storage.
template <class T>
T* outputArray(const CpuExec&, std::vector<T>& host, HostBuffer<T>&, size_t n) {
  host.resize(n);
  return host.data();
}
// Makes `host` hold the n entries written to outputArray's pointer (nothing to do on the CPU).
template <class T>
void collectOutput(const CpuExec&, std::vector<T>&, const T*, size_t) {}

// Returns when the work queued on the policy is done (the CPU's passes return done).
inline void finishQueued(const CpuExec&) {}

// out[i] = in[0] + ... + in[i - 1] for i < n (integers: the same sums on any thread count); out may not be in.
template <class T>
void exclusiveScan(const CpuExec& exec, const T* in, T* out, int n) {
  const int threads = parallelBlocks(exec, n);
  if (threads == 1) {
    T sum = 0;
    for (int i = 0; i < n; ++i) {
      out[i] = sum;
      sum += in[i];
    }
    return;
  }
  std::vector<T> blockSum(size_t(threads) + 1, T(0));
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num(), count = omp_get_num_threads();
    const int begin = int(int64_t(n) * t / count), end = int(int64_t(n) * (t + 1) / count);
    T sum = 0;
    for (int i = begin; i < end; ++i) sum += in[i];
    blockSum[size_t(t) + 1] = sum;
#pragma omp barrier
#pragma omp single
    for (int b = 1; b <= count; ++b) blockSum[size_t(b)] += blockSum[size_t(b) - 1];
    T running = blockSum[size_t(t)];
    for (int i = begin; i < end; ++i) {
      out[i] = running;
      running += in[i];
    }
  }
}

}  // namespace frac

namespace frac {

// exclusiveScan into out[0, n) and the total into out[n] (n + 1 entries), for any exec policy; returns the total.
template <class Exec, class T>
T scanWithTotal(const Exec& exec, const T* in, T* out, int n) {
  exclusiveScan(exec, in, out, n);
  parallel_for(exec, 1, [=] FRAC_HD(int) { out[n] = n > 0 ? out[n - 1] + in[n - 1] : T(0); });
  T total;
  readValues(exec, &total, out + n, 1);
  return total;
}

template <class Exec, class T>
void fillValues(const Exec& exec, T* out, int n, T value) {
  parallel_for(exec, n, [=] FRAC_HD(int i) { out[i] = value; });
}

}  // namespace frac
