#pragma once
// The renderer's half of the CUDA interop (issue 6): a ring of device-local vertex buffers of sphere instances whose
// memory CUDA imports (VK_KHR_external_memory_fd) and writes, and one timeline semaphore CUDA signals when a buffer
// is complete (VK_KHR_external_semaphore_fd). A RenderFrame whose elements sit in slot k is drawn after the queue has
// waited for the semaphore to reach that frame's value, so element data never crosses the bus. Where either
// extension is missing (lavapipe has no external semaphores) frames keep their elements and take the host-visible
// staging path.
#include <string>
#include <vector>

#include "core/sphere_instance.h"
#include "gpu_memory.h"

namespace frac::render {

class Context;

class SharedInstanceRing {
 public:
  // True when the context can share buffers and a timeline semaphore with CUDA; otherwise false with the reason.
  static bool supported(const Context& context, std::string* why);

  SharedInstanceRing(const Context& context, int capacity, int slots);
  ~SharedInstanceRing();
  SharedInstanceRing(const SharedInstanceRing&) = delete;
  SharedInstanceRing& operator=(const SharedInstanceRing&) = delete;

  int slots() const { return int(buffers_.size()); }
  int capacity() const { return capacity_; }  // instances per slot
  VkDeviceSize bytesPerSlot() const { return VkDeviceSize(capacity_) * sizeof(SphereInstance); }
  VkBuffer buffer(int slot) const { return buffers_.at(slot).handle(); }
  VkSemaphore semaphore() const { return semaphore_; }

  // New descriptors (the caller owns them) for cudaImportExternalMemory / cudaImportExternalSemaphore.
  int exportMemoryFd(int slot) const { return buffers_.at(slot).exportFd(); }
  // The size CUDA must import (the allocation, which may be larger than bytesPerSlot()).
  VkDeviceSize allocationSize(int slot) const { return buffers_.at(slot).allocationSize(); }
  int exportSemaphoreFd() const;
  // The semaphore's current value (a new user continues above it: timeline values only increase).
  unsigned long long semaphoreValue() const;

 private:
  const Context& context_;
  int capacity_ = 0;
  std::vector<Buffer> buffers_;
  VkSemaphore semaphore_ = VK_NULL_HANDLE;
};

}  // namespace frac::render
