// Memory shared through VK_KHR_external_memory_fd, the Vulkan half of the CUDA interop path (issue 6): a buffer's
// memory exported as a file descriptor and imported by another buffer holds the same bytes both ways. (CUDA imports
// the same descriptor with cudaImportExternalMemory; that half runs only where a GPU is.)
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>

#include "context.h"
#include "gpu_memory.h"

using namespace frac::render;

TEST_CASE("a buffer exported as an fd and imported by another buffer shares its memory (external memory)") {
  ContextOptions options;
  options.validation = true;
  Context context(options);
  if (!context.supportsExternalMemoryFd()) {
    WARN_MESSAGE(false, context.deviceName() << " has no VK_KHR_external_memory_fd: nothing to test here");
    return;
  }
  const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT;
  Buffer exported(context, 4096, usage, true, ExternalMemoryFd{true, -1});
  auto* a = static_cast<uint32_t*>(exported.mapped());
  for (uint32_t k = 0; k < 1024; ++k) a[k] = 0x9e3779b9u * (k + 1);
  const int fd = exported.exportFd();
  REQUIRE(fd >= 0);
  Buffer imported(context, 4096, usage, true, ExternalMemoryFd{false, fd});
  auto* b = static_cast<uint32_t*>(imported.mapped());
  int differing = 0;
  for (uint32_t k = 0; k < 1024; ++k) differing += b[k] != 0x9e3779b9u * (k + 1);
  CHECK(differing == 0);
  b[7] = 12345u;  // and back: one memory, two buffers
  CHECK(a[7] == 12345u);
  CHECK(context.validationMessages() == 0);
}
