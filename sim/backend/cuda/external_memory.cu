#include <cuda_runtime.h>

#include "backend/backend.h"
#include "backend/external_memory.h"

namespace frac {

bool importExternalMemoryFd(int fd, size_t bytes, ExternalDeviceBuffer& out, std::string* why) {
  if (!cudaBackendAvailable(why)) return false;
  cudaExternalMemoryHandleDesc handle{};
  handle.type = cudaExternalMemoryHandleTypeOpaqueFd;
  handle.handle.fd = fd;
  handle.size = bytes;
  cudaExternalMemory_t memory = nullptr;
  cudaError_t err = cudaImportExternalMemory(&memory, &handle);
  if (err != cudaSuccess) {
    if (why) *why = std::string("cudaImportExternalMemory: ") + cudaGetErrorString(err);
    return false;
  }
  cudaExternalMemoryBufferDesc buffer{};
  buffer.offset = 0;
  buffer.size = bytes;
  void* pointer = nullptr;
  err = cudaExternalMemoryGetMappedBuffer(&pointer, memory, &buffer);
  if (err != cudaSuccess) {
    cudaDestroyExternalMemory(memory);
    if (why) *why = std::string("cudaExternalMemoryGetMappedBuffer: ") + cudaGetErrorString(err);
    return false;
  }
  out = ExternalDeviceBuffer{pointer, memory, bytes};
  return true;
}

void releaseExternalMemory(ExternalDeviceBuffer& buffer) {
  if (buffer.pointer) cudaFree(buffer.pointer);
  if (buffer.handle) cudaDestroyExternalMemory(static_cast<cudaExternalMemory_t>(buffer.handle));
  buffer = ExternalDeviceBuffer{};
}

}  // namespace frac
