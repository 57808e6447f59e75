#include <cuda_runtime.h>
#include <unistd.h>

#include "backend/backend.h"
#include "backend/external_memory.h"

namespace frac {

bool importExternalMemoryFd(int fd, size_t bytes, ExternalDeviceBuffer& out, std::string* why) {
  if (!cudaBackendAvailable(why)) {
    if (fd >= 0) close(fd);
    return false;
  }
  cudaExternalMemoryHandleDesc handle{};
  handle.type = cudaExternalMemoryHandleTypeOpaqueFd;
  handle.handle.fd = fd;
  handle.size = bytes;
  cudaExternalMemory_t memory = nullptr;
  cudaError_t err = cudaImportExternalMemory(&memory, &handle);
  if (err != cudaSuccess) {
    if (fd >= 0) close(fd);  // not imported: still ours
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

bool importExternalTimelineSemaphoreFd(int fd, ExternalSemaphore& out, std::string* why) {
  if (!cudaBackendAvailable(why)) {
    if (fd >= 0) close(fd);
    return false;
  }
  cudaExternalSemaphoreHandleDesc handle{};
  handle.type = cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd;
  handle.handle.fd = fd;
  cudaExternalSemaphore_t semaphore = nullptr;
  const cudaError_t err = cudaImportExternalSemaphore(&semaphore, &handle);
  if (err != cudaSuccess) {
    if (fd >= 0) close(fd);
    if (why) *why = std::string("cudaImportExternalSemaphore: ") + cudaGetErrorString(err);
    return false;
  }
  out.handle = semaphore;
  return true;
}

bool signalExternalSemaphore(const ExternalSemaphore& semaphore, unsigned long long value, std::string* why) {
  cudaExternalSemaphoreSignalParams params{};
  params.params.fence.value = value;
  cudaExternalSemaphore_t handle = static_cast<cudaExternalSemaphore_t>(semaphore.handle);
  const cudaError_t err = cudaSignalExternalSemaphoresAsync(&handle, &params, 1, nullptr);
  if (err != cudaSuccess && why) *why = std::string("cudaSignalExternalSemaphoresAsync: ") + cudaGetErrorString(err);
  return err == cudaSuccess;
}

void releaseExternalSemaphore(ExternalSemaphore& semaphore) {
  // "Any outstanding signals or waits must have completed before the semaphore is destroyed" (CUDA runtime API):
  // signals go on the default stream.
  if (semaphore.handle) cudaStreamSynchronize(nullptr);
  if (semaphore.handle) cudaDestroyExternalSemaphore(static_cast<cudaExternalSemaphore_t>(semaphore.handle));
  semaphore = ExternalSemaphore{};
}

}  // namespace frac
