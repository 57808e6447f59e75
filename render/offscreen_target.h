#pragma once
// A colour + depth image to render into without a window, with readback to RGBA8 rows (top row first).
#include <cstdint>
#include <vector>

#include "gpu_memory.h"

namespace frac::render {

constexpr VkFormat kOffscreenColorFormat = VK_FORMAT_R8G8B8A8_UNORM;

class OffscreenTarget {
 public:
  // format: RGBA8 for recordings; a window's BGRA8 to share its pipelines (render passes must match).
  OffscreenTarget(const Context& context, uint32_t width, uint32_t height, VkFormat format = kOffscreenColorFormat);
  ~OffscreenTarget();
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;

  VkRenderPass renderPass() const { return pass_; }
  VkExtent2D extent() const { return {width_, height_}; }
  // Begins the render pass (cleared to clearColor, linear RGB).
  void begin(VkCommandBuffer cmd, const float clearColor[3]) const;
  // Ends the pass and copies the colour image into the readback buffer.
  void endAndCopy(VkCommandBuffer cmd) const;
  // The colour image (TRANSFER_SRC_OPTIMAL after the pass), e.g. to copy into a window's image.
  VkImage colorImage() const { return color_.handle(); }
  // After the command buffer completed: the pixels, width * height * 4 bytes.
  void readPixels(std::vector<uint8_t>& rgba) const;

 private:
  const Context& context_;
  uint32_t width_, height_;
  Image color_, depth_;
  Buffer readback_;
  VkRenderPass pass_ = VK_NULL_HANDLE;
  VkFramebuffer framebuffer_ = VK_NULL_HANDLE;
};

}  // namespace frac::render
