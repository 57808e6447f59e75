#pragma once
// CUDA execution policy: parallel_for launches one thread per index with an extended __host__ __device__ lambda.
#include <cuda_runtime.h>

#include "backend/cuda/cuda_check.cuh"

namespace frac {

struct CudaExec {
  cudaStream_t stream = nullptr;
};

template <class F>
__global__ void parallelForKernel(int n, F f) {
  const int i = int(blockIdx.x) * int(blockDim.x) + int(threadIdx.x);
  if (i < n) f(i);
}

template <class F>
void parallel_for(const CudaExec& exec, int n, F f) {
  if (n <= 0) return;
  constexpr int kBlock = 256;
  parallelForKernel<<<(n + kBlock - 1) / kBlock, kBlock, 0, exec.stream>>>(n, f);
  cudaCheck(cudaGetLastError(), "kernel launch");
}

}  // namespace frac

namespace frac {

// exec.h's readValues / writeValues for device memory (they wait for the work queued before them).
template <class T>
void readValues(const CudaExec& exec, T* host, const T* source, int count) {
  if (count <= 0) return;
  cudaCheck(cudaMemcpyAsync(host, source, sizeof(T) * size_t(count), cudaMemcpyDeviceToHost, exec.stream),
            "read values");
  cudaCheck(cudaStreamSynchronize(exec.stream), "read values");
}
template <class T>
void writeValues(const CudaExec& exec, T* destination, const T* host, int count) {
  if (count <= 0) return;
  cudaCheck(cudaMemcpyAsync(destination, host, sizeof(T) * size_t(count), cudaMemcpyHostToDevice, exec.stream),
            "write values");
  cudaCheck(cudaStreamSynchronize(exec.stream), "write values");  // `host` may be a temporary
}

}  // namespace frac
