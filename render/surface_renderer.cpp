#include "surface_renderer.h"

#include <algorithm>
#include <cstring>

#include "context.h"
#include "pipelines.h"

namespace frac::render {

SurfaceRenderer::SurfaceRenderer(const Context& context, VkRenderPass pass, VkPipelineLayout layout,
                                 VkRenderPass shadowPass, VkPipelineLayout shadowLayout, int slots)
    : context_(context), shadowLayout_(shadowLayout), slots_(size_t(slots)) {
  PipelineDesc surface{"surface.vert", "surface.frag"};
  surface.bindings = {{0, sizeof(SurfaceVertex), VK_VERTEX_INPUT_RATE_VERTEX}};
  surface.attributes = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(SurfaceVertex, position)},
                        {1, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(SurfaceVertex, normal)},
                        {2, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(SurfaceVertex, color)},
                        {3, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(SurfaceVertex, interior)},
                        {4, 0, VK_FORMAT_R32_SFLOAT, offsetof(SurfaceVertex, crack)}};
  surface.cull = VK_CULL_MODE_BACK_BIT;  // closed meshes, counter-clockwise seen from outside
  pipeline_ = createPipeline(context.device(), layout, pass, surface);
  PipelineDesc shadow{"surface_shadow.vert", "surface_shadow.frag"};
  shadow.bindings = surface.bindings;
  shadow.attributes = {surface.attributes[0]};
  shadow.colorOutput = false;
  shadowPipeline_ = createPipeline(context.device(), shadowLayout, shadowPass, shadow);
}

SurfaceRenderer::~SurfaceRenderer() {
  vkDestroyPipeline(context_.device(), pipeline_, nullptr);
  vkDestroyPipeline(context_.device(), shadowPipeline_, nullptr);
}

void SurfaceRenderer::upload(Buffer& buffer, const void* data, size_t bytes, VkBufferUsageFlags usage) {
  fitHostBuffer(context_, buffer, bytes, usage);
  std::memcpy(buffer.mapped(), data, bytes);
}

void SurfaceRenderer::prepare(int slotIndex, const RenderFrame& frame, const RenderSettings& settings,
                              const ColorRange& range) {
  Slot& slot = slots_.at(slotIndex);
  slot.indexCount = 0;
  if (!settings.drawSurfaces() || !frame.surfaces || frame.surfaces->indices.empty()) {
    slot.vertices = Buffer();  // nothing to draw: the memory goes too
    slot.indices = Buffer();
    return;
  }
  buildSurfaceVertices(frame, settings.colorMode, range, staging_);
  const std::vector<uint32_t>& indices = frame.surfaces->indices;
  upload(slot.vertices, staging_.data(), staging_.size() * sizeof(SurfaceVertex), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  upload(slot.indices, indices.data(), indices.size() * sizeof(uint32_t), VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
  slot.indexCount = uint32_t(indices.size());
  slot.lo = glm::vec3(3e38f);
  slot.hi = glm::vec3(-3e38f);
  for (const SurfaceVertex& v : staging_) {
    slot.lo = glm::min(slot.lo, v.position);
    slot.hi = glm::max(slot.hi, v.position);
  }
}

bool SurfaceRenderer::bounds(int slotIndex, glm::vec3& lo, glm::vec3& hi) const {
  const Slot& slot = slots_.at(slotIndex);
  if (!slot.indexCount) return false;
  lo = slot.lo;
  hi = slot.hi;
  return true;
}

void SurfaceRenderer::recordShadow(VkCommandBuffer cmd, int slotIndex, const ShadowConstants& constants) const {
  const Slot& slot = slots_.at(slotIndex);
  if (!slot.indexCount) return;
  const VkDeviceSize zero = 0;
  VkBuffer vb = slot.vertices.handle();
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, shadowPipeline_);
  vkCmdPushConstants(cmd, shadowLayout_, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(ShadowConstants), &constants);
  vkCmdBindVertexBuffers(cmd, 0, 1, &vb, &zero);
  vkCmdBindIndexBuffer(cmd, slot.indices.handle(), 0, VK_INDEX_TYPE_UINT32);
  vkCmdDrawIndexed(cmd, slot.indexCount, 1, 0, 0, 0);
}

void SurfaceRenderer::record(VkCommandBuffer cmd, int slotIndex) const {
  const Slot& slot = slots_.at(slotIndex);
  if (!slot.indexCount) return;
  const VkDeviceSize zero = 0;
  VkBuffer vb = slot.vertices.handle();
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
  vkCmdBindVertexBuffers(cmd, 0, 1, &vb, &zero);
  vkCmdBindIndexBuffer(cmd, slot.indices.handle(), 0, VK_INDEX_TYPE_UINT32);
  vkCmdDrawIndexed(cmd, slot.indexCount, 1, 0, 0, 0);
}

}  // namespace frac::render
