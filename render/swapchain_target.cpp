#include "swapchain_target.h"

#include <algorithm>

#include "context.h"
#include "render_pass.h"
#include "vk_check.h"

namespace frac::render {

namespace {

VkSurfaceFormatKHR chooseFormat(VkPhysicalDevice device, VkSurfaceKHR surface) {
  uint32_t count = 0;
  FRAC_VK(vkGetPhysicalDeviceSurfaceFormatsKHR(device, surface, &count, nullptr));
  std::vector<VkSurfaceFormatKHR> formats(count);
  FRAC_VK(vkGetPhysicalDeviceSurfaceFormatsKHR(device, surface, &count, formats.data()));
  for (VkFormat wanted : {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM})
    for (const VkSurfaceFormatKHR& f : formats)
      if (f.format == wanted) return f;
  throw RenderError("the window surface offers no 8-bit UNORM RGBA or BGRA format");
}

}  // namespace

SwapchainTarget::SwapchainTarget(const Context& context, VkSurfaceKHR surface, uint32_t width, uint32_t height,
                                 bool vsync)
    : context_(context), surface_(surface), vsync_(vsync) {
  VkBool32 presentable = VK_FALSE;
  FRAC_VK(vkGetPhysicalDeviceSurfaceSupportKHR(context.physicalDevice(), context.queueFamily(), surface, &presentable));
  if (!presentable) throw RenderError("the graphics queue of " + context.deviceName() + " cannot present to this window");
  format_ = chooseFormat(context.physicalDevice(), surface).format;
  pass_ = createRenderPass(context.device(), format_, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);
  keepPass_ = createRenderPass(context.device(), format_, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, true);
  create(width, height);
}

SwapchainTarget::~SwapchainTarget() {
  vkDeviceWaitIdle(context_.device());
  destroy();
  vkDestroySwapchainKHR(context_.device(), swapchain_, nullptr);
  vkDestroyRenderPass(context_.device(), pass_, nullptr);
  vkDestroyRenderPass(context_.device(), keepPass_, nullptr);
}

void SwapchainTarget::create(uint32_t width, uint32_t height) {
  VkDevice device = context_.device();
  VkSurfaceCapabilitiesKHR caps;
  FRAC_VK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(context_.physicalDevice(), surface_, &caps));
  extent_ = caps.currentExtent.width != UINT32_MAX
                ? caps.currentExtent
                : VkExtent2D{std::clamp(width, caps.minImageExtent.width, caps.maxImageExtent.width),
                             std::clamp(height, caps.minImageExtent.height, caps.maxImageExtent.height)};
  uint32_t count = std::max(caps.minImageCount + 1, 2u);
  if (caps.maxImageCount > 0) count = std::min(count, caps.maxImageCount);
  uint32_t modeCount = 0;
  vkGetPhysicalDeviceSurfacePresentModesKHR(context_.physicalDevice(), surface_, &modeCount, nullptr);
  std::vector<VkPresentModeKHR> modes(modeCount);
  vkGetPhysicalDeviceSurfacePresentModesKHR(context_.physicalDevice(), surface_, &modeCount, modes.data());
  VkPresentModeKHR mode = VK_PRESENT_MODE_FIFO_KHR;  // always available: vsync
  if (!vsync_)
    for (VkPresentModeKHR m : modes)
      if (m == VK_PRESENT_MODE_MAILBOX_KHR || m == VK_PRESENT_MODE_IMMEDIATE_KHR) mode = m;
  copyable_ = (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0;
  VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
  info.surface = surface_;
  info.minImageCount = count;
  info.imageFormat = format_;
  info.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
  info.imageExtent = extent_;
  info.imageArrayLayers = 1;
  if (!(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT))
    throw RenderError("this window's swapchain images cannot be copied into (no TRANSFER_DST usage)");
  info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                    (copyable_ ? VK_IMAGE_USAGE_TRANSFER_SRC_BIT : 0);
  info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.preTransform = caps.currentTransform;
  info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  info.presentMode = mode;
  info.clipped = VK_TRUE;
  VkSwapchainKHR old = swapchain_;
  info.oldSwapchain = old;
  FRAC_VK(vkCreateSwapchainKHR(device, &info, nullptr, &swapchain_));
  if (old) vkDestroySwapchainKHR(device, old, nullptr);
  uint32_t imageCount = 0;
  FRAC_VK(vkGetSwapchainImagesKHR(device, swapchain_, &imageCount, nullptr));
  images_.resize(imageCount);
  FRAC_VK(vkGetSwapchainImagesKHR(device, swapchain_, &imageCount, images_.data()));
  depth_ = Image(context_, extent_.width, extent_.height, kDepthFormat, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                 VK_IMAGE_ASPECT_DEPTH_BIT);
  for (VkImage image : images_) {
    VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view.image = image;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = format_;
    view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView v;
    FRAC_VK(vkCreateImageView(device, &view, nullptr, &v));
    views_.push_back(v);
    const VkImageView attachments[2] = {v, depth_.view()};
    VkFramebufferCreateInfo fb{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    fb.renderPass = pass_;
    fb.attachmentCount = 2;
    fb.pAttachments = attachments;
    fb.width = extent_.width;
    fb.height = extent_.height;
    fb.layers = 1;
    VkFramebuffer f;
    FRAC_VK(vkCreateFramebuffer(device, &fb, nullptr, &f));
    framebuffers_.push_back(f);
  }
}

void SwapchainTarget::destroy() {
  for (VkFramebuffer f : framebuffers_) vkDestroyFramebuffer(context_.device(), f, nullptr);
  for (VkImageView v : views_) vkDestroyImageView(context_.device(), v, nullptr);
  framebuffers_.clear();
  views_.clear();
  images_.clear();
  depth_ = Image();
}

void SwapchainTarget::recreate(uint32_t width, uint32_t height) {
  vkDeviceWaitIdle(context_.device());
  destroy();
  create(width, height);
}

bool SwapchainTarget::acquire(VkSemaphore available, uint32_t& imageIndex) {
  const VkResult r = vkAcquireNextImageKHR(context_.device(), swapchain_, UINT64_MAX, available, VK_NULL_HANDLE,
                                           &imageIndex);
  if (r == VK_ERROR_OUT_OF_DATE_KHR) return false;
  if (r != VK_SUBOPTIMAL_KHR) check(r, "vkAcquireNextImageKHR");
  return true;
}

void SwapchainTarget::begin(VkCommandBuffer cmd, uint32_t imageIndex, const float clearColor[3]) const {
  beginRenderPass(cmd, pass_, framebuffers_.at(imageIndex), extent_, clearColor);
}

void SwapchainTarget::beginOver(VkCommandBuffer cmd, uint32_t imageIndex, VkImage source) const {
  VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  barrier.srcAccessMask = 0;
  barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = images_.at(imageIndex);
  barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                       VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1, &barrier);
  VkImageCopy region{};
  region.srcSubresource = region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.extent = {extent_.width, extent_.height, 1};
  vkCmdCopyImage(cmd, source, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, images_[imageIndex],
                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
  const float unused[3] = {0.0f, 0.0f, 0.0f};
  beginRenderPass(cmd, keepPass_, framebuffers_.at(imageIndex), extent_, unused);
}

void SwapchainTarget::copyToBuffer(VkCommandBuffer cmd, uint32_t imageIndex, VkBuffer buffer) const {
  if (!copyable_) throw RenderError("this window's swapchain images cannot be read back (no TRANSFER_SRC usage)");
  VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  barrier.oldLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
  barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = images_.at(imageIndex);
  barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                       nullptr, 0, nullptr, 1, &barrier);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {extent_.width, extent_.height, 1};
  vkCmdCopyImageToBuffer(cmd, images_[imageIndex], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1, &region);
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  barrier.dstAccessMask = 0;
  barrier.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  barrier.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &barrier);
  VkBufferMemoryBarrier host{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
  host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  host.srcQueueFamilyIndex = host.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  host.buffer = buffer;
  host.size = VK_WHOLE_SIZE;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, nullptr, 1, &host, 0,
                       nullptr);
}

bool SwapchainTarget::present(VkSemaphore rendered, uint32_t imageIndex) {
  VkPresentInfoKHR info{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
  info.waitSemaphoreCount = 1;
  info.pWaitSemaphores = &rendered;
  info.swapchainCount = 1;
  info.pSwapchains = &swapchain_;
  info.pImageIndices = &imageIndex;
  const VkResult r = vkQueuePresentKHR(context_.queue(), &info);
  if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR) return false;
  check(r, "vkQueuePresentKHR");
  return true;
}

}  // namespace frac::render
