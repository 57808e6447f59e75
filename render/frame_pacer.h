#pragma once
// Frame pacing and submission for a window's swapchain: up to `framesInFlight` frames queued at once, each acquired,
// submitted and presented in turn. Owns, per frame in flight, a command buffer, the fence its submission signals and
// the semaphore the image acquire signals; per swapchain image, the semaphore its submission signals and its present
// waits for (made again when the swapchain is re-created). Does not own the swapchain (SwapchainTarget) or what the
// commands draw: the caller records those between beginFrame() and submitAndPresent().
#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

namespace frac::render {

class Context;
class SwapchainTarget;

// A timeline semaphore value a frame's vertex input waits for (instances written outside Vulkan); none when 0.
struct TimelineWait {
  VkSemaphore semaphore = VK_NULL_HANDLE;
  uint64_t value = 0;
};

class FramePacer {
 public:
  FramePacer(const Context& context, SwapchainTarget& target, int framesInFlight);
  ~FramePacer();
  FramePacer(const FramePacer&) = delete;
  FramePacer& operator=(const FramePacer&) = delete;

  int framesInFlight() const { return int(slots_.size()); }

  struct Frame {
    int slot = 0;                               // which frame in flight (index per-frame resources with it)
    VkCommandBuffer commands = VK_NULL_HANDLE;  // begun for one submission
    uint32_t image = 0;                         // the swapchain image acquired
  };
  // Waits until the next slot's previous submission has finished, then acquires a swapchain image and begins the
  // slot's command buffer. False when the swapchain is stale (out of date at this acquire, or out of date or
  // suboptimal at the last present): nothing was acquired or begun; recreateSwapchain() before the next frame. Either
  // way frame.slot is set and its earlier submission has finished.
  bool beginFrame(Frame& frame);
  // Ends the frame's commands and submits them, waiting for the image at colour attachment output and, when
  // wait.value != 0, for wait.semaphore to reach it at vertex input; presents the image and moves to the next slot.
  void submitAndPresent(const Frame& frame, const TimelineWait& wait = {});
  // Blocks until the frame's submission has finished (before reading back what it drew).
  void waitUntilDone(const Frame& frame) const;
  // Re-creates the swapchain at this size (SwapchainTarget::recreate waits for the device) and the per-image
  // semaphores.
  void recreateSwapchain(uint32_t width, uint32_t height);

 private:
  struct Slot {
    VkCommandBuffer commands = VK_NULL_HANDLE;
    VkFence done = VK_NULL_HANDLE;
    VkSemaphore imageAvailable = VK_NULL_HANDLE;
  };
  void createRenderDone();
  void destroyRenderDone();

  const Context& context_;
  SwapchainTarget& target_;
  std::vector<Slot> slots_;
  std::vector<VkSemaphore> renderDone_;  // per swapchain image
  int next_ = 0;                         // the slot beginFrame() takes
  bool stale_ = false;                   // the last present asked for a new swapchain
};

}  // namespace frac::render
