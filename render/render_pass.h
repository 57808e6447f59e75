#pragma once
// The one render pass shape every target uses: a colour attachment cleared and stored, a depth attachment cleared.
#include <vulkan/vulkan.h>

namespace frac::render {

constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;

// finalColorLayout: TRANSFER_SRC_OPTIMAL for readback, PRESENT_SRC_KHR for a swapchain. keepColor: the colour is
// loaded (it was copied into the image, in TRANSFER_DST_OPTIMAL layout, just before) instead of cleared.
VkRenderPass createRenderPass(VkDevice device, VkFormat colorFormat, VkImageLayout finalColorLayout,
                              bool keepColor = false);

// Starts the pass on a framebuffer with the clear colour (linear RGB is converted like the shaders do) and depth 1,
// and sets a full-size viewport and scissor.
void beginRenderPass(VkCommandBuffer cmd, VkRenderPass pass, VkFramebuffer framebuffer, VkExtent2D extent,
                     const float clearColor[3]);

}  // namespace frac::render
