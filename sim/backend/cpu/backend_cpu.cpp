#include "backend/backend.h"
#include "backend/external_memory.h"

#include <unistd.h>

namespace frac {

std::optional<Backend> parseBackend(const std::string& name) {
  for (const EnumName<Backend>& n : kBackendNames)
    if (name == n.name) return n.value;
  return std::nullopt;
}

const char* backendName(Backend backend) {
  for (const EnumName<Backend>& n : kBackendNames)
    if (backend == n.value) return n.name;
  return "auto";
}

#if !defined(FRACTURE_HAVE_CUDA)
bool cudaBackendAvailable(std::string* why) {
  if (why) *why = "this build has no CUDA backend (configured with FRACTURE_CUDA=OFF or without nvcc)";
  return false;
}

std::string cudaDeviceName() { return ""; }

double cudaFreeMemoryBytes() { return 0.0; }

std::array<uint8_t, 16> cudaDeviceUuid() { return {}; }

bool importExternalMemoryFd(int fd, size_t, ExternalDeviceBuffer&, std::string* why) {
  if (fd >= 0) close(fd);
  cudaBackendAvailable(why);
  return false;
}

void releaseExternalMemory(ExternalDeviceBuffer& buffer) { buffer = ExternalDeviceBuffer{}; }

bool importExternalTimelineSemaphoreFd(int fd, ExternalSemaphore&, std::string* why) {
  if (fd >= 0) close(fd);
  cudaBackendAvailable(why);
  return false;
}

bool signalExternalSemaphore(const ExternalSemaphore&, unsigned long long, std::string* why) {
  cudaBackendAvailable(why);
  return false;
}

void releaseExternalSemaphore(ExternalSemaphore& semaphore) { semaphore = ExternalSemaphore{}; }
#endif

}  // namespace frac
