#pragma once
// A window's swapchain as a render target: colour images from the surface (B8G8R8A8_UNORM preferred: the shaders
// write gamma-encoded values themselves), a depth image, one framebuffer per image. Recreated on resize.
#include <vector>

#include "gpu_memory.h"

namespace frac::render {

class SwapchainTarget {
 public:
  SwapchainTarget(const Context& context, VkSurfaceKHR surface, uint32_t width, uint32_t height, bool vsync = true);
  ~SwapchainTarget();
  SwapchainTarget(const SwapchainTarget&) = delete;
  SwapchainTarget& operator=(const SwapchainTarget&) = delete;

  VkRenderPass renderPass() const { return pass_; }
  VkExtent2D extent() const { return extent_; }
  VkFormat format() const { return format_; }
  uint32_t imageCount() const { return uint32_t(images_.size()); }

  // Gets the next image, signalling `available` when it may be written. False: the swapchain is out of date
  // (window resized) and must be recreated.
  bool acquire(VkSemaphore available, uint32_t& imageIndex);
  void begin(VkCommandBuffer cmd, uint32_t imageIndex, const float clearColor[3]) const;
  // Copies `source` (same size and format, TRANSFER_SRC_OPTIMAL) into the image and begins a pass that keeps it:
  // a scene rendered once offscreen under a UI redrawn every frame.
  void beginOver(VkCommandBuffer cmd, uint32_t imageIndex, VkImage source) const;
  void end(VkCommandBuffer cmd) const { vkCmdEndRenderPass(cmd); }
  // Copies a rendered image (after end(), before present) into a host-visible buffer as rows of 4 bytes per pixel
  // in the swapchain's format (BGRA or RGBA: see isBgra()).
  void copyToBuffer(VkCommandBuffer cmd, uint32_t imageIndex, VkBuffer buffer) const;
  bool isBgra() const { return format_ == VK_FORMAT_B8G8R8A8_UNORM; }
  // Presents after `rendered` is signalled. False: out of date or suboptimal, recreate.
  bool present(VkSemaphore rendered, uint32_t imageIndex);
  void recreate(uint32_t width, uint32_t height);

 private:
  void create(uint32_t width, uint32_t height);
  void destroy();

  const Context& context_;
  VkSurfaceKHR surface_;
  bool vsync_;
  VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
  VkFormat format_ = VK_FORMAT_UNDEFINED;
  VkExtent2D extent_{};
  VkRenderPass pass_ = VK_NULL_HANDLE, keepPass_ = VK_NULL_HANDLE;
  std::vector<VkImage> images_;
  std::vector<VkImageView> views_;
  std::vector<VkFramebuffer> framebuffers_;
  Image depth_;
  bool copyable_ = false;  // images may be a transfer source (screenshots with the UI)
};

}  // namespace frac::render
