// CUDA -> Vulkan without the host: a solver on CUDA writes its instances into a SharedInstanceRing buffer (imported
// with cudaImportExternalMemory) and signals the ring's timeline semaphore; Vulkan waits for that value, copies the
// buffer to host-visible memory, and the bytes equal the CPU's writeInstances of the same state.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "backend/external_memory.h"
#include "context.h"
#include "gpu_memory.h"
#include "io/scene_loader.h"
#include "shared_instances.h"
#include "solvers/simulation.h"
#include "vk_check.h"

using namespace frac;

namespace {

// Copies `source` into `destination` on the queue once `semaphore` reaches `value`, and waits for the copy.
void copyAfter(const render::Context& context, VkSemaphore semaphore, uint64_t value, VkBuffer source,
               VkBuffer destination, VkDeviceSize bytes) {
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = context.commandPool();
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cmd;
  FRAC_VK(vkAllocateCommandBuffers(context.device(), &alloc, &cmd));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  FRAC_VK(vkBeginCommandBuffer(cmd, &begin));
  // CUDA wrote the buffer: its contents come to this queue family from outside Vulkan (acquire), and after the copy
  // the host reads the destination (a fence alone does not make device writes visible to the host).
  VkBufferMemoryBarrier acquire{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
  acquire.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  acquire.srcQueueFamilyIndex = VK_QUEUE_FAMILY_EXTERNAL;
  acquire.dstQueueFamilyIndex = context.queueFamily();
  acquire.buffer = source;
  acquire.size = VK_WHOLE_SIZE;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 1,
                       &acquire, 0, nullptr);  // chained after the semaphore wait (its stage: transfer)
  const VkBufferCopy region{0, 0, bytes};
  vkCmdCopyBuffer(cmd, source, destination, 1, &region);
  VkMemoryBarrier toHost{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  toHost.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0, nullptr, 0,
                       nullptr);
  FRAC_VK(vkEndCommandBuffer(cmd));
  VkTimelineSemaphoreSubmitInfo timeline{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
  timeline.waitSemaphoreValueCount = 1;
  timeline.pWaitSemaphoreValues = &value;
  const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.pNext = &timeline;
  submit.waitSemaphoreCount = 1;
  submit.pWaitSemaphores = &semaphore;
  submit.pWaitDstStageMask = &stage;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  FRAC_VK(vkCreateFence(context.device(), &fenceInfo, nullptr, &fence));
  FRAC_VK(vkQueueSubmit(context.queue(), 1, &submit, fence));
  const VkResult waited = vkWaitForFences(context.device(), 1, &fence, VK_TRUE, 10'000'000'000ull);
  bool released = false;
  if (waited == VK_TIMEOUT) {  // CUDA's signal never came: signal from the host so the queue (and teardown) go on
    VkSemaphoreSignalInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
    signal.semaphore = semaphore;
    signal.value = value;
    released = vkSignalSemaphore(context.device(), &signal) == VK_SUCCESS &&
               vkWaitForFences(context.device(), 1, &fence, VK_TRUE, 10'000'000'000ull) == VK_SUCCESS;
  }
  if (waited == VK_SUCCESS || released) {
    vkDestroyFence(context.device(), fence, nullptr);
    vkFreeCommandBuffers(context.device(), context.commandPool(), 1, &cmd);
  }
  if (waited != VK_SUCCESS && !released) {  // the queue is stuck: tearing down would wait for ever
    std::fprintf(stderr, "interop test: the copy waiting for semaphore value %llu never ran (%s)\n",
                 (unsigned long long)value, render::resultName(waited));
    std::_Exit(1);
  }
  REQUIRE_MESSAGE(waited == VK_SUCCESS, "CUDA's signal of value " << value << " did not reach Vulkan within 10 s");
}

// CUDA's imports of the ring's memory and semaphore, released before the ring goes (also when a check throws).
struct Imports {
  ExternalDeviceBuffer shared;
  ExternalSemaphore ready;
  ~Imports() {
    releaseExternalSemaphore(ready);
    releaseExternalMemory(shared);
  }
};

void checkScene(const std::string& scene, const std::vector<std::string>& overrides, int steps) {
  std::vector<std::string> onCuda = overrides;
  onCuda.push_back("solver.backend=cuda");
  Simulation sim(loadScene(std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/" + scene, onCuda), 0);
  for (int s = 0; s < steps; ++s) sim.step();
  Solver& solver = sim.solver();
  REQUIRE(solver.activeBackend() == Backend::Cuda);
  RenderFrame frame;
  solver.writeFrame(frame, false);
  const int n = int(frame.elementCount());

  render::ContextOptions options;
  options.validation = false;  // the GPU machine carries no validation layer
  render::Context vulkan(options);
  render::SharedInstanceRing ring(vulkan, n + 64, 2);
  std::string why;
  Imports imports;
  ExternalDeviceBuffer& shared = imports.shared;
  ExternalSemaphore& ready = imports.ready;
  REQUIRE_MESSAGE(importExternalMemoryFd(ring.exportMemoryFd(1), size_t(ring.allocationSize(1)), shared, &why), why);
  REQUIRE_MESSAGE(importExternalTimelineSemaphoreFd(ring.exportSemaphoreFd(), ready, &why), why);

  for (ElementScalar scalar : {ElementScalar::StressRatio, ElementScalar::Damage, ElementScalar::Speed}) {
    CAPTURE(int(scalar));
    const InstanceSummary summary =
        solver.writeInstances(static_cast<SphereInstance*>(shared.pointer), ring.capacity(), scalar);
    REQUIRE(summary.count == n);
    const uint64_t value = uint64_t(scalar);  // 1, 2, 3: increasing, as the simulation thread's
    REQUIRE_MESSAGE(signalExternalSemaphore(ready, value, &why), why);
    const VkDeviceSize bytes = VkDeviceSize(n) * sizeof(SphereInstance);
    render::Buffer readBack(vulkan, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
    copyAfter(vulkan, ring.semaphore(), value, ring.buffer(1), readBack.handle(), bytes);
    // The same state on the CPU (the host copy is refreshed on reads) through the CPU instance pass.
    solver.setBackend(Backend::Cpu);
    std::vector<SphereInstance> expected(static_cast<size_t>(n));
    solver.writeInstances(expected.data(), n, scalar);
    solver.setBackend(Backend::Cuda);
    const auto* got = static_cast<const SphereInstance*>(readBack.mapped());
    int differing = 0;
    for (int i = 0; i < n; ++i) differing += std::memcmp(&got[i], &expected[i], sizeof(SphereInstance)) != 0;
    INFO(differing << " of " << n << " instances differ");
    CHECK(differing == 0);
  }
}

}  // namespace

TEST_CASE("BDEM on CUDA writes its instances into Vulkan's buffer, handed over by the timeline semaphore") {
  checkScene("wall_impact.json", {"projectiles.0.position=[0.02,0.1,0.051]", "projectiles.0.velocity=[0,0,-20]"},
             150);
}

TEST_CASE("pd-bond on CUDA writes its instances into Vulkan's buffer, handed over by the timeline semaphore") {
  checkScene("lammps_peri_pmb.json", {}, 280);
}
