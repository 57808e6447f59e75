// Memory shared through VK_KHR_external_memory_fd, the Vulkan half of the CUDA interop path (issue 6): a buffer's
// memory exported as a file descriptor and imported by another buffer holds the same bytes both ways. (CUDA imports
// the same descriptor with cudaImportExternalMemory; that half runs only where a GPU is.)
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "color_map.h"
#include "context.h"
#include "gpu_memory.h"
#include "offscreen_renderer.h"

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

TEST_CASE("spheres drawn from a shared instance buffer (the CUDA interop path) give the host path's image") {
  const uint32_t w = 480, h = 320;
  ContextOptions options;
  options.validation = true;
  OffscreenRenderer renderer(w, h, options);
  const Context& context = renderer.context();
  if (!context.supportsExternalMemoryFd()) {
    WARN_MESSAGE(false, context.deviceName() << " has no VK_KHR_external_memory_fd: nothing to test here");
    return;
  }
  // A 12^3 block of spheres coloured by a stress ratio, above a ground plane, lit, with shadows.
  frac::RenderFrame frame;
  frame.materialColors = {{0.7f, 0.5f, 0.3f}};
  const int side = 12;
  for (int i = 0; i < side * side * side; ++i) {
    const int x = i % side, y = (i / side) % side, z = i / (side * side);
    const size_t e = frame.elementCount();
    frame.resizeElements(e + 1);
    frame.spheres[e] = glm::vec4((x - 5.5f) / side, 0.6f + (y - 5.5f) / side, (z - 5.5f) / side, 0.5f / side);
    frame.orientations[e] = frac::quat(1, 0, 0, 0);
    frame.stressRatio[e] = float(x + y) / (2 * side);
    frame.damage[e] = 0.0f;
    frame.speed[e] = float(z);
    frame.fragment[e] = uint32_t(i);
    frame.material[e] = 0;
    frame.kind[e] = frac::ElementKind::Body;
  }
  frame.meshes.push_back(frac::planeMesh(frac::vec3(0.0f), frac::vec3(0, 1, 0), frac::vec3(0.0f), 3.0f, frac::vec3(0.6f)));
  Camera camera;
  camera.eye = {1.4f, 1.5f, 1.8f};
  camera.target = {0.0f, 0.4f, 0.0f};
  RenderSettings settings;
  settings.colorMode = ColorMode::StressRatio;
  std::vector<uint8_t> host, shared;
  renderer.render(frame, camera, settings, host);

  // The instances as a solver writes them (Solver::writeInstances), into memory exported as an fd and imported by the
  // buffer the renderer draws: the route CUDA's writes take.
  const size_t n = frame.elementCount();
  const VkDeviceSize bytes = n * sizeof(frac::SphereInstance);
  Buffer written(context, bytes, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, true, ExternalMemoryFd{true, -1});
  auto* instances = static_cast<frac::SphereInstance*>(written.mapped());
  ExternalInstances external;
  external.summary.count = int(n);
  external.summary.lo = frac::vec3(1e30f);
  external.summary.hi = frac::vec3(-1e30f);
  for (size_t i = 0; i < n; ++i) {
    instances[i] = {frame.spheres[i], frame.stressRatio[i], frame.fragment[i], 0u, frame.speed[i]};
    external.summary.lo = glm::min(external.summary.lo, frac::vec3(frame.spheres[i]));
    external.summary.hi = glm::max(external.summary.hi, frac::vec3(frame.spheres[i]));
    external.summary.maxRadius = std::max(external.summary.maxRadius, frame.spheres[i].w);
  }
  Buffer drawn(context, bytes, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, false, ExternalMemoryFd{false, written.exportFd()});
  external.buffer = drawn.handle();
  frac::RenderFrame withoutElements = frame;
  withoutElements.resizeElements(0);
  renderer.render(withoutElements, camera, settings, shared, {}, &external);
  CHECK(renderer.drawnSpheres() == n);

  size_t differing = 0;
  for (size_t p = 0; p < host.size(); p += 4)
    differing += host[p] != shared[p] || host[p + 1] != shared[p + 1] || host[p + 2] != shared[p + 2];
  MESSAGE("pixels differing " << differing << " of " << size_t(w) * h);
  // The host path culls hidden spheres and draws most as point sprites; the shared path draws every sphere as a quad.
  // Both ray-trace the same spheres per pixel, so only exact depth ties where touching spheres meet may resolve the
  // other way (2 pixels on lavapipe): at most one pixel in 10,000.
  CHECK(differing <= size_t(w) * h / 10000);
  CHECK(context.validationMessages() == 0);
}
