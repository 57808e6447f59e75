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

// Imports `fd` (CUDA owns it afterwards) holding `bytes` bytes; false with the reason where CUDA cannot (no device,
// a build without CUDA, a driver that refuses the descriptor).
bool importExternalMemoryFd(int fd, size_t bytes, ExternalDeviceBuffer& out, std::string* why);
void releaseExternalMemory(ExternalDeviceBuffer& buffer);

}  // namespace frac
