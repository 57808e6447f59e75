#pragma once
// CUDA's half of the Vulkan interop (issue 6): a device pointer to memory another API exported as an opaque POSIX
// file descriptor (Vulkan: render/gpu_memory.h ExternalMemoryFd, VK_KHR_external_memory_fd). sim/ sees only the
// descriptor and the size, never Vulkan.
#include <cstddef>
#include <string>

namespace frac {

struct ExternalDeviceBuffer {
  void* pointer = nullptr;  // device memory CUDA kernels can write
  void* handle = nullptr;   // cudaExternalMemory_t
  size_t bytes = 0;
};

// Imports `fd` holding `bytes` bytes; false with the reason where CUDA cannot (no device, a build without CUDA, a
// driver that refuses the descriptor). The descriptor is consumed either way (CUDA owns it, or it is closed).
bool importExternalMemoryFd(int fd, size_t bytes, ExternalDeviceBuffer& out, std::string* why);
void releaseExternalMemory(ExternalDeviceBuffer& buffer);

// A timeline semaphore another API exported as an opaque fd (Vulkan: VK_KHR_external_semaphore_fd): CUDA signals it
// when work it queued is done, and the other side waits for that value before reading what the work wrote.
struct ExternalSemaphore {
  void* handle = nullptr;  // cudaExternalSemaphore_t
};
// Same contract as importExternalMemoryFd: false with the reason, the descriptor consumed either way.
bool importExternalTimelineSemaphoreFd(int fd, ExternalSemaphore& out, std::string* why);
// Sets the semaphore to `value` once the work queued on the default stream so far has finished.
bool signalExternalSemaphore(const ExternalSemaphore& semaphore, unsigned long long value, std::string* why);
void releaseExternalSemaphore(ExternalSemaphore& semaphore);

}  // namespace frac
