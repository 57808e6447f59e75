#pragma once
// Draws a frame's fracture surfaces (RenderFrame::surfaces): one indexed draw of every fragment's closed mesh, lit
// like the other meshes, back faces culled, plus a depth-only draw into the key light's shadow map so the surfaces
// cast shadows (they receive them through the lighting). Per-slot buffers as SceneRenderer's.
#include <vector>

#include "core/render_frame.h"
#include "frame_uniforms.h"
#include "gpu_memory.h"
#include "render_settings.h"
#include "surface_vertices.h"

namespace frac::render {

class Context;

class SurfaceRenderer {
 public:
  // `layout`: the scene's pipeline layout (frame uniforms and shadow map); `shadowLayout`: the shadow pass's
  // (ShadowConstants pushed to the vertex stage).
  SurfaceRenderer(const Context& context, VkRenderPass pass, VkPipelineLayout layout, VkRenderPass shadowPass,
                  VkPipelineLayout shadowLayout, int slots);
  ~SurfaceRenderer();
  SurfaceRenderer(const SurfaceRenderer&) = delete;
  SurfaceRenderer& operator=(const SurfaceRenderer&) = delete;

  // Uploads the frame's surfaces into the slot when the settings draw them (else the slot draws nothing).
  void prepare(int slot, const RenderFrame& frame, const RenderSettings& settings, const ColorRange& range);
  // The box of the slot's surface vertices; false when it draws none.
  bool bounds(int slot, glm::vec3& lo, glm::vec3& hi) const;
  // Inside the shadow pass, with the light's constants.
  void recordShadow(VkCommandBuffer cmd, int slot, const ShadowConstants& constants) const;
  // Inside the scene pass, with the scene's descriptor set bound.
  void record(VkCommandBuffer cmd, int slot) const;
  uint32_t triangles(int slot) const { return slots_.at(slot).indexCount / 3; }

 private:
  struct Slot {
    Buffer vertices, indices;
    uint32_t indexCount = 0;
    glm::vec3 lo{0.0f}, hi{0.0f};
  };
  void upload(Buffer& buffer, const void* data, size_t bytes, VkBufferUsageFlags usage);

  const Context& context_;
  VkPipelineLayout shadowLayout_;
  VkPipeline pipeline_ = VK_NULL_HANDLE, shadowPipeline_ = VK_NULL_HANDLE;
  std::vector<Slot> slots_;
  std::vector<SurfaceVertex> staging_;
};

}  // namespace frac::render
