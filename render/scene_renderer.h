#pragma once
// Draws a RenderFrame into a render pass: sphere impostors (one instanced draw for all elements), fracture surfaces
// (surface_renderer.h), triangle meshes and optional bond lines. `slots` sets of per-frame buffers let a swapchain record frame k+1 while frame k is in
// flight; offscreen rendering uses one.
#include <algorithm>
#include <memory>
#include <vector>

#include "camera.h"
#include "core/render_frame.h"
#include "frame_uniforms.h"
#include "gpu_memory.h"
#include "occlusion_grid.h"
#include "shadow_map.h"
#include "render_settings.h"
#include "sphere_screen_box.h"
#include "surface_renderer.h"

namespace frac::render {

class Context;

// Elements that are not in the RenderFrame's arrays but in a vertex buffer of SphereInstance (written by CUDA into a
// SharedInstanceRing slot): all drawn as quads, without the host-side culling, shadows fitted to the summary's box.
// Every one is drawn whatever the draw mode: frames with fracture surfaces come through the host arrays instead.
struct ExternalInstances {
  VkBuffer buffer = VK_NULL_HANDLE;
  InstanceSummary summary;  // summary.count instances from the start of the buffer
};

class SceneRenderer {
 public:
  SceneRenderer(const Context& context, VkRenderPass pass, int slots = 1);
  ~SceneRenderer();
  SceneRenderer(const SceneRenderer&) = delete;
  SceneRenderer& operator=(const SceneRenderer&) = delete;

  // Uploads the frame into slot's buffers (host-visible memory). Call while slot is not in use by the GPU. With
  // `external` the elements come from that buffer instead (the frame's element arrays are not read), and the caller
  // makes the submission wait until the buffer is written.
  ColorRange prepare(int slot, const RenderFrame& frame, const Camera& camera, VkExtent2D extent,
                     const RenderSettings& settings, const ExternalInstances* external = nullptr);
  // Instances written by CUDA come from outside Vulkan: before the passes that read them (the shadow pass too) the
  // slot's external buffer is acquired from VK_QUEUE_FAMILY_EXTERNAL, after them released back to it (Vulkan spec,
  // queue family ownership transfer). Outside any render pass; nothing without an external buffer. The acquire
  // chains after a semaphore wait at the vertex input stage.
  void recordExternalAcquire(VkCommandBuffer cmd, int slot) const;
  void recordExternalRelease(VkCommandBuffer cmd, int slot) const;
  // Records the shadow pass (outside any render pass). With shadows off it only clears the map the first time.
  void recordShadow(VkCommandBuffer cmd, int slot);
  // Records the draws inside an active render pass of the pass given at construction.
  void record(VkCommandBuffer cmd, int slot) const;
  // Surface triangles the last prepare() of this slot left to draw.
  uint32_t drawnSurfaceTriangles(int slot) const { return surfaces_->triangles(slot); }
  // Spheres the last prepare() of this slot left to draw (after culling).
  uint32_t drawnSpheres(int slot) const {
    const Slot& s = slots_.at(slot);
    return s.pointCount + s.quadCount + uint32_t(s.external.buffer ? std::max(s.external.summary.count, 0) : 0);
  }

 private:
  struct MeshDraw {
    uint32_t firstIndex, indexCount;
    int32_t vertexOffset;
    glm::vec4 color;
  };
  struct Slot {
    Buffer uniforms, instances, meshVertices, meshIndices, lines;
    VkDescriptorSet descriptors = VK_NULL_HANDLE;
    std::unique_ptr<ShadowMap> shadowMap;
    Buffer shadowInstances;  // vec4 spheres seen by the light (after light-space culling)
    uint32_t shadowPointCount = 0, shadowQuadCount = 0;
    bool shadowsOn = false, shadowMapCleared = false;
    float shadowRadius = 1.0f;  // of the sphere the light view is fitted to
    ShadowConstants shadowConstants{};
    uint32_t pointCount = 0, quadCount = 0, lineVertexCount = 0;  // instances [0, points) as point sprites
    ExternalInstances external;  // buffer set: the spheres (and their shadows) are drawn from it, all as quads
    std::vector<MeshDraw> meshes;
  };
  // Fits the light to the box [lo, hi] of the spheres (radii included); false when shadows are off or nothing is drawn.
  bool fitShadow(Slot& slot, const glm::vec3& lo, const glm::vec3& hi, const RenderSettings& settings, FrameUniforms& u);
  // The light is fitted to the spheres and the slot's surfaces (SurfaceRenderer::prepare first).
  void prepareShadow(Slot& slot, int slotIndex, const RenderFrame& frame, const RenderSettings& settings,
                     FrameUniforms& u);
  // Whether prepare() culls spheres on the host (occlusion grid, screen boxes, point sprites): only for a CPU device.
  bool hostCulling(const RenderSettings& settings) const;
  void ensure(Buffer& buffer, VkDeviceSize bytes, VkBufferUsageFlags usage);
  void upload(Buffer& vertexBuffer, const void* data, size_t bytes);  // grows the buffer when needed
  void createPipelines(VkRenderPass pass);

  const Context& context_;
  VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipelineLayout shadowLayout_ = VK_NULL_HANDLE;
  VkRenderPass shadowPass_ = VK_NULL_HANDLE;
  VkSampler shadowSampler_ = VK_NULL_HANDLE;
  VkPipeline shadowSpheres_ = VK_NULL_HANDLE, shadowPoints_ = VK_NULL_HANDLE;
  VkPipeline shadowInstances_ = VK_NULL_HANDLE;  // shadow quads read from SphereInstance (external buffers)
  VkPipeline spherePoints_ = VK_NULL_HANDLE, sphereQuads_ = VK_NULL_HANDLE, meshes_ = VK_NULL_HANDLE, lines_ = VK_NULL_HANDLE;
  std::vector<Slot> slots_;
  std::unique_ptr<SurfaceRenderer> surfaces_;
  std::vector<SphereInstance> staging_;
  std::vector<SphereScreenBox> boxes_;
  OcclusionGrid occlusion_, shadowOcclusion_;
  std::vector<glm::vec4> shadowStaging_;
  float maxPointSize_ = 1.0f;
};

}  // namespace frac::render
