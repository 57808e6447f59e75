// The interop suite (issue 6): CUDA writes into memory Vulkan exported and signals a semaphore Vulkan waits on.
// Without a CUDA device, or without a Vulkan device that shares memory and timeline semaphores as fds, it prints
// why and exits with 77, which ctest reports as skipped, never as passed.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <exception>
#include <string>

#include "backend/backend.h"
#include "context.h"
#include "shared_instances.h"

int main(int argc, char** argv) {
  std::string why;
  if (!frac::cudaBackendAvailable(&why)) {
    std::printf("interop tests skipped: %s\n", why.c_str());
    return 77;
  }
  try {
    frac::render::Context vulkan;
    if (!frac::render::SharedInstanceRing::supported(vulkan, &why)) {
      std::printf("interop tests skipped: %s\n", why.c_str());
      return 77;
    }
    std::printf("interop tests on %s (CUDA) and %s (Vulkan)\n", frac::cudaDeviceName().c_str(),
                vulkan.deviceName().c_str());
  } catch (const std::exception& e) {
    std::printf("interop tests skipped: no Vulkan device: %s\n", e.what());
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
