#pragma once
// Device memory for one solver's mirror of its host arrays: every block is owned by the arena and freed with it.
// Uploads are whole-array copies (done on load and after host-side edits); downloads copy views back by field.
#include <cstddef>
#include <vector>

#include "backend/cuda/cuda_check.cuh"

namespace frac {

class DeviceArena {
 public:
  DeviceArena() = default;
  DeviceArena(const DeviceArena&) = delete;
  DeviceArena& operator=(const DeviceArena&) = delete;
  ~DeviceArena() { release(); }

  void release() {
    for (void* p : blocks_) cudaFree(p);
    blocks_.clear();
    bytes_ = 0;
  }

  template <class T>
  T* allocate(size_t count) {
    if (count == 0) return nullptr;
    void* p = nullptr;
    cudaCheck(cudaMalloc(&p, count * sizeof(T)), "cudaMalloc");
    blocks_.push_back(p);
    bytes_ += count * sizeof(T);
    return static_cast<T*>(p);
  }

  // A device copy of host[0, count); null for an empty or absent array.
  template <class T>
  T* copyOf(const T* host, size_t count) {
    if (!host || count == 0) return nullptr;
    T* d = allocate<T>(count);
    cudaCheck(cudaMemcpy(d, host, count * sizeof(T), cudaMemcpyHostToDevice), "upload");
    return d;
  }

  size_t bytes() const { return bytes_; }

 private:
  std::vector<void*> blocks_;
  size_t bytes_ = 0;
};

template <class T>
void copyToHost(T* host, const T* device, size_t count) {
  if (host && device && count) cudaCheck(cudaMemcpy(host, device, count * sizeof(T), cudaMemcpyDeviceToHost), "download");
}

template <class T>
void copyToDevice(T* device, const T* host, size_t count) {
  if (host && device && count) cudaCheck(cudaMemcpy(device, host, count * sizeof(T), cudaMemcpyHostToDevice), "upload");
}

}  // namespace frac
