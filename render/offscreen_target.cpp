#include "offscreen_target.h"

#include <cstring>

#include "context.h"
#include "render_pass.h"
#include "vk_check.h"

namespace frac::render {

OffscreenTarget::OffscreenTarget(const Context& context, uint32_t width, uint32_t height, VkFormat format)
    : context_(context), width_(width), height_(height) {
  if (width == 0 || height == 0 || width > 16384 || height > 16384)
    throw RenderError("image size " + std::to_string(width) + "x" + std::to_string(height) +
                      " is out of range (1..16384 pixels per side)");
  color_ = Image(context, width, height, format,
                 VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
  depth_ = Image(context, width, height, kDepthFormat, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                 VK_IMAGE_ASPECT_DEPTH_BIT);
  readback_ = Buffer(context, VkDeviceSize(width) * height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
  pass_ = createRenderPass(context.device(), format, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  const VkImageView views[2] = {color_.view(), depth_.view()};
  VkFramebufferCreateInfo info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  info.renderPass = pass_;
  info.attachmentCount = 2;
  info.pAttachments = views;
  info.width = width;
  info.height = height;
  info.layers = 1;
  FRAC_VK(vkCreateFramebuffer(context.device(), &info, nullptr, &framebuffer_));
}

OffscreenTarget::~OffscreenTarget() {
  vkDeviceWaitIdle(context_.device());
  vkDestroyFramebuffer(context_.device(), framebuffer_, nullptr);
  vkDestroyRenderPass(context_.device(), pass_, nullptr);
}

void OffscreenTarget::begin(VkCommandBuffer cmd, const float clearColor[3]) const {
  beginRenderPass(cmd, pass_, framebuffer_, extent(), clearColor);
}

void OffscreenTarget::endAndCopy(VkCommandBuffer cmd) const {
  vkCmdEndRenderPass(cmd);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {width_, height_, 1};
  vkCmdCopyImageToBuffer(cmd, color_.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback_.handle(), 1, &region);
  VkBufferMemoryBarrier barrier{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.buffer = readback_.handle();
  barrier.size = VK_WHOLE_SIZE;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, nullptr, 1, &barrier, 0,
                       nullptr);
}

void OffscreenTarget::readPixels(std::vector<uint8_t>& rgba) const {
  rgba.resize(size_t(width_) * height_ * 4);
  std::memcpy(rgba.data(), readback_.mapped(), rgba.size());
}

}  // namespace frac::render
