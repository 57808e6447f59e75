#pragma once
// The key light's shadow map: a depth image rendered from the light (orthographic) and sampled with comparison.
#include "gpu_memory.h"

namespace frac::render {

constexpr uint32_t kShadowMapSize = 1024;
constexpr VkFormat kShadowFormat = VK_FORMAT_D32_SFLOAT;

// Depth-only pass that leaves the image ready for sampling.
VkRenderPass createShadowRenderPass(VkDevice device);

class ShadowMap {
 public:
  ShadowMap(const Context& context, VkRenderPass pass);
  ~ShadowMap();
  ShadowMap(const ShadowMap&) = delete;
  ShadowMap& operator=(const ShadowMap&) = delete;

  VkImageView view() const { return depth_.view(); }
  // Begins the shadow pass on this map (depth cleared to 1 = nothing in the way) with a full viewport.
  void begin(VkCommandBuffer cmd, VkRenderPass pass) const;

 private:
  VkDevice device_;
  Image depth_;
  VkFramebuffer framebuffer_ = VK_NULL_HANDLE;
};

}  // namespace frac::render
