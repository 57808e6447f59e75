#include "scene_renderer.h"

#include <algorithm>
#include <cstring>

#include "context.h"
#include "occlusion_grid.h"
#include "pipelines.h"
#include "scene_draw_lists.h"
#include "shadow_map.h"
#include "vk_check.h"

namespace frac::render {

namespace {

// The clipping plane cuts the sphere away (its centre lies beyond the plane), as the sphere shaders decide.
bool beyondClip(const RenderSettings& settings, const glm::vec4& sphere) {
  return settings.clip && glm::dot(glm::vec3(settings.clipPlane), glm::vec3(sphere)) > settings.clipPlane.w;
}

float instanceScalar(const RenderFrame& f, size_t i, ColorMode mode) {
  switch (mode) {
    case ColorMode::StressRatio: return f.stressRatio[i];
    case ColorMode::Damage: return f.damage[i];
    case ColorMode::Speed: return f.speed[i];
    default: return 0.0f;
  }
}

}  // namespace

SceneRenderer::SceneRenderer(const Context& context, VkRenderPass pass, int slots) : context_(context) {
  VkDevice device = context.device();
  // set 0: binding 0 the frame uniforms, binding 1 the shadow map
  VkDescriptorSetLayoutBinding bindings[2]{};
  bindings[0].binding = 0;
  bindings[0].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  bindings[0].descriptorCount = 1;
  bindings[0].stageFlags = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  bindings[1].binding = 1;
  bindings[1].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  bindings[1].descriptorCount = 1;
  bindings[1].stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT;
  VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  setInfo.bindingCount = 2;
  setInfo.pBindings = bindings;
  FRAC_VK(vkCreateDescriptorSetLayout(device, &setInfo, nullptr, &setLayout_));
  VkPushConstantRange push{VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(glm::vec4)};
  VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layoutInfo.setLayoutCount = 1;
  layoutInfo.pSetLayouts = &setLayout_;
  layoutInfo.pushConstantRangeCount = 1;
  layoutInfo.pPushConstantRanges = &push;
  FRAC_VK(vkCreatePipelineLayout(device, &layoutInfo, nullptr, &layout_));
  VkPushConstantRange shadowPush{VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(ShadowConstants)};
  VkPipelineLayoutCreateInfo shadowLayoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  shadowLayoutInfo.pushConstantRangeCount = 1;
  shadowLayoutInfo.pPushConstantRanges = &shadowPush;
  FRAC_VK(vkCreatePipelineLayout(device, &shadowLayoutInfo, nullptr, &shadowLayout_));
  VkDescriptorPoolSize poolSizes[2] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, uint32_t(slots)},
                                       {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, uint32_t(slots)}};
  VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  poolInfo.maxSets = uint32_t(slots);
  poolInfo.poolSizeCount = 2;
  poolInfo.pPoolSizes = poolSizes;
  FRAC_VK(vkCreateDescriptorPool(device, &poolInfo, nullptr, &pool_));
  VkSamplerCreateInfo sampler{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sampler.magFilter = sampler.minFilter = VK_FILTER_LINEAR;  // 2x2 percentage-closer filtering per lookup
  sampler.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  sampler.addressModeU = sampler.addressModeV = sampler.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  sampler.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;  // outside the map: nothing in the way
  sampler.compareEnable = VK_TRUE;
  sampler.compareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
  FRAC_VK(vkCreateSampler(device, &sampler, nullptr, &shadowSampler_));
  shadowPass_ = createShadowRenderPass(device);
  createPipelines(pass);
  surfaces_ = std::make_unique<SurfaceRenderer>(context, pass, layout_, shadowPass_, shadowLayout_, slots);
  slots_.resize(slots);
  for (Slot& s : slots_) {
    s.uniforms = Buffer(context, sizeof(FrameUniforms), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, true);
    s.shadowMap = std::make_unique<ShadowMap>(context, shadowPass_);
    VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = pool_;
    alloc.descriptorSetCount = 1;
    alloc.pSetLayouts = &setLayout_;
    FRAC_VK(vkAllocateDescriptorSets(device, &alloc, &s.descriptors));
    VkDescriptorBufferInfo bufferInfo{s.uniforms.handle(), 0, sizeof(FrameUniforms)};
    VkDescriptorImageInfo imageInfo{shadowSampler_, s.shadowMap->view(), VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL};
    VkWriteDescriptorSet writes[2]{};
    writes[0].sType = writes[1].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[0].dstSet = writes[1].dstSet = s.descriptors;
    writes[0].dstBinding = 0;
    writes[0].descriptorCount = 1;
    writes[0].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    writes[0].pBufferInfo = &bufferInfo;
    writes[1].dstBinding = 1;
    writes[1].descriptorCount = 1;
    writes[1].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    writes[1].pImageInfo = &imageInfo;
    vkUpdateDescriptorSets(device, 2, writes, 0, nullptr);
  }
}

SceneRenderer::~SceneRenderer() {
  VkDevice device = context_.device();
  vkDeviceWaitIdle(device);
  slots_.clear();
  surfaces_.reset();
  for (VkPipeline p : {spherePoints_, sphereQuads_, meshes_, lines_, shadowSpheres_, shadowPoints_, shadowInstances_})
    vkDestroyPipeline(device, p, nullptr);
  vkDestroyPipelineLayout(device, layout_, nullptr);
  vkDestroyPipelineLayout(device, shadowLayout_, nullptr);
  vkDestroyRenderPass(device, shadowPass_, nullptr);
  vkDestroySampler(device, shadowSampler_, nullptr);
  vkDestroyDescriptorPool(device, pool_, nullptr);
  vkDestroyDescriptorSetLayout(device, setLayout_, nullptr);
}

void SceneRenderer::createPipelines(VkRenderPass pass) {
  VkDevice device = context_.device();
  PipelineDesc sphere{"sphere.vert", "sphere.frag"};
  sphere.bindings = {{0, sizeof(SphereInstance), VK_VERTEX_INPUT_RATE_INSTANCE}};
  sphere.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(SphereInstance, sphere)},
                       {1, 0, VK_FORMAT_R32_SFLOAT, offsetof(SphereInstance, scalar)},
                       {2, 0, VK_FORMAT_R32_UINT, offsetof(SphereInstance, fragment)},
                       {3, 0, VK_FORMAT_R32_UINT, offsetof(SphereInstance, materialKind)}};
  sphere.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  sphereQuads_ = createPipeline(device, layout_, pass, sphere);
  sphere.vertexShader = "sphere_point.vert";
  sphere.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  spherePoints_ = createPipeline(device, layout_, pass, sphere);
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(context_.physicalDevice(), &props);
  maxPointSize_ = props.limits.pointSizeRange[1];
  PipelineDesc mesh{"mesh.vert", "mesh.frag"};
  mesh.bindings = {{0, 2 * sizeof(glm::vec3), VK_VERTEX_INPUT_RATE_VERTEX}};
  mesh.attributes = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0}, {1, 0, VK_FORMAT_R32G32B32_SFLOAT, sizeof(glm::vec3)}};
  meshes_ = createPipeline(device, layout_, pass, mesh);
  PipelineDesc line{"line.vert", "line.frag"};
  line.bindings = {{0, sizeof(glm::vec4), VK_VERTEX_INPUT_RATE_VERTEX}};
  line.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
  line.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  lines_ = createPipeline(device, layout_, pass, line);
  PipelineDesc shadow{"sphere_shadow.vert", "sphere_shadow.frag"};
  shadow.bindings = {{0, sizeof(glm::vec4), VK_VERTEX_INPUT_RATE_INSTANCE}};
  shadow.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
  shadow.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  shadow.colorOutput = false;
  shadowSpheres_ = createPipeline(device, shadowLayout_, shadowPass_, shadow);
  PipelineDesc shadowFromInstances = shadow;  // the same quads, reading the sphere of each SphereInstance
  shadowFromInstances.bindings = {{0, sizeof(SphereInstance), VK_VERTEX_INPUT_RATE_INSTANCE}};
  shadowFromInstances.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(SphereInstance, sphere)}};
  shadowInstances_ = createPipeline(device, shadowLayout_, shadowPass_, shadowFromInstances);
  shadow.vertexShader = "sphere_shadow_point.vert";
  shadow.fragmentShader = "sphere_shadow_point.frag";
  shadow.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  shadowPoints_ = createPipeline(device, shadowLayout_, shadowPass_, shadow);
}

void SceneRenderer::ensure(Buffer& buffer, VkDeviceSize bytes, VkBufferUsageFlags usage) {
  fitHostBuffer(context_, buffer, bytes, usage);
}

void SceneRenderer::upload(Buffer& vertexBuffer, const void* data, size_t bytes) {
  if (!bytes) return;
  ensure(vertexBuffer, bytes, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  std::memcpy(vertexBuffer.mapped(), data, bytes);
}

namespace {

SphereInstance sphereInstance(const RenderFrame& frame, size_t i, const RenderSettings& settings) {
  SphereInstance s;
  s.sphere = frame.spheres[i];
  s.scalar = instanceScalar(frame, i, settings.colorMode);
  s.fragment = frame.fragment[i];
  s.materialKind = packMaterialKind(frame.material[i], uint32_t(frame.kind[i]));
  s.speed = frame.speed[i];
  return s;
}

// The host's culling (for a CPU device): `boxes` and `occlusion` are the renderer's reused work space.
void addCulledSpheres(PointQuadSplit<SphereInstance>& split, std::vector<SphereScreenBox>& boxes,
                      OcclusionGrid& occlusion, float maxPointSize, const RenderFrame& frame,
                      const RenderSettings& settings, const FrameUniforms& u, VkExtent2D extent) {
  const size_t n = frame.elementCount();
  // Sphere instances. Each sphere's exact screen box (sphereScreenBox) decides how it is drawn: point sprites
  // first in the buffer, then the spheres a point cannot draw (larger than the device's point size, crossing the
  // image border where a point whose centre leaves the view would vanish at once, or reaching the eye plane).
  // Spheres the occlusion grid proves hidden behind nearer ones, or entirely off screen, are left out.
  const bool cull = settings.occlusionCulling;
  const float pointLimit = std::min(maxPointSize, 255.0f) - 2.0f;
  fitCapacity(boxes, n);
  if (cull) occlusion.reset(extent.width, extent.height);
  for (size_t i = 0; i < n; ++i) {
    const float radius = drawnAsSphere(frame, i, settings) ? frame.spheres[i].w * settings.elementScale : 0.0f;
    boxes[i] = sphereScreenBox(u.view, u.proj, extent, glm::vec3(frame.spheres[i]), radius);
    const SphereScreenBox& b = boxes[i];
    // a sphere the clipping plane cuts away hides nothing
    if (cull && b.valid && !beyondClip(settings, frame.spheres[i]))
      occlusion.addOccluder(b.centreX, b.centreY, b.innerRadius, b.centreDepth);
  }
  for (size_t i = 0; i < n; ++i) {
    const SphereScreenBox& b = boxes[i];
    if (!drawnAsSphere(frame, i, settings) || beyondClip(settings, frame.spheres[i])) continue;
    if (cull && b.valid && occlusion.hidden(b.x0, b.y0, b.x1, b.y1, b.nearDepth)) continue;
    const bool inside = b.x0 >= 0.0f && b.y0 >= 0.0f && b.x1 <= float(extent.width) && b.y1 <= float(extent.height);
    const bool point = b.valid && inside && std::max(b.x1 - b.x0, b.y1 - b.y0) <= pointLimit;
    split.add(sphereInstance(frame, i, settings), point);
  }
}

}  // namespace

bool SceneRenderer::hostCulling(const RenderSettings& settings) const {
  return settings.occlusionCulling && context_.isCpuDevice();
}

ColorRange SceneRenderer::prepare(int slotIndex, const RenderFrame& frame, const Camera& camera, VkExtent2D extent,
                                  const RenderSettings& settings, const ExternalInstances* external) {
  Slot& slot = slots_.at(slotIndex);
  const size_t n = external ? 0 : frame.elementCount();
  slot.external = external ? *external : ExternalInstances{};
  ColorRange range{settings.scalarMin, settings.scalarMax};
  if (settings.colorMode == ColorMode::Speed && settings.autoSpeedRange) {
    float top = external ? external->summary.maxBodySpeed : 0.0f;
    for (size_t i = 0; i < n; ++i)
      if (frame.kind[i] == ElementKind::Body) top = std::max(top, frame.speed[i]);
    range = {0.0f, top > 1e-6f ? top : 1.0f};
  }
  // uniforms
  FrameUniforms u{};
  u.view = camera.view();
  u.proj = camera.projection(float(extent.width) / float(extent.height));
  u.lightDirView = glm::vec4(glm::normalize(glm::mat3(u.view) * glm::normalize(kLightTowards)), 0.0f);
  u.skyColor = glm::vec4(0.30f, 0.34f, 0.40f, 0.0f);
  u.groundColor = glm::vec4(0.10f, 0.09f, 0.08f, 0.0f);
  u.upView = glm::vec4(glm::mat3(u.view) * glm::vec3(0, 1, 0), 0.0f);
  u.params = glm::vec4(float(uint32_t(settings.colorMode)), range.min, range.max, settings.lit ? 0.0f : 1.0f);
  u.viewport = glm::vec4(float(extent.width), float(extent.height), settings.elementScale, 0.0f);
  u.clipPlane = settings.activeClipPlane();
  const auto& stops = scalarColorStops();
  for (size_t k = 0; k < stops.size(); ++k) u.colormap[k] = glm::vec4(stops[k].color, stops[k].position);
  for (size_t m = 0; m < 32; ++m)
    u.materialColors[m] = glm::vec4(m < frame.materialColors.size() ? frame.materialColors[m] : glm::vec3(0.7f), 0.0f);
  u.kindColors[1] = glm::vec4(kinematicColor(), 0.0f);
  u.kindColors[2] = glm::vec4(projectileColor(), 0.0f);
  surfaces_->prepare(slotIndex, frame, settings, range);
  if (external) {
    const InstanceSummary& s = external->summary;
    const float margin = s.maxRadius * settings.elementScale;
    slot.shadowPointCount = slot.shadowQuadCount = 0;
    slot.shadowsOn = fitShadow(slot, s.lo - margin, s.hi + margin, settings, u);
  } else {
    prepareShadow(slot, slotIndex, frame, settings, u);
  }
  std::memcpy(slot.uniforms.mapped(), &u, sizeof(u));
  // Sphere instances: culled on the host where the device is the CPU (lavapipe: each hidden sphere it skips saves
  // its rasteriser time), all of them as quads on a GPU (it draws a million impostors in milliseconds; the host's
  // culling cost 0.19 s a frame for 1M on an H200 machine) or with culling off.
  PointQuadSplit<SphereInstance> split(staging_, n);
  if (hostCulling(settings)) {
    addCulledSpheres(split, boxes_, occlusion_, maxPointSize_, frame, settings, u, extent);
  } else {
    for (size_t i = 0; i < n; ++i)
      if (drawnAsSphere(frame, i, settings) && !beyondClip(settings, frame.spheres[i]))
        split.add(sphereInstance(frame, i, settings), false);
  }
  split.finish(slot.pointCount, slot.quadCount);
  upload(slot.instances, staging_.data(), (slot.pointCount + slot.quadCount) * sizeof(SphereInstance));
  // meshes: one vertex and one index buffer for all
  size_t vertices = 0, indices = 0;
  for (const RenderMesh& m : frame.meshes) {
    vertices += m.positions.size();
    indices += m.indices.size();
  }
  slot.meshes.clear();
  if (!indices) {  // nothing to draw: the memory goes too
    slot.meshVertices = Buffer();
    slot.meshIndices = Buffer();
  } else {
    ensure(slot.meshVertices, vertices * 2 * sizeof(glm::vec3), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    ensure(slot.meshIndices, indices * sizeof(uint32_t), VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
    auto* v = static_cast<glm::vec3*>(slot.meshVertices.mapped());
    auto* idx = static_cast<uint32_t*>(slot.meshIndices.mapped());
    uint32_t vertexBase = 0, indexBase = 0;
    for (const RenderMesh& m : frame.meshes) {
      for (size_t k = 0; k < m.positions.size(); ++k) {
        *v++ = m.positions[k];
        *v++ = k < m.normals.size() ? m.normals[k] : glm::vec3(0, 1, 0);
      }
      std::memcpy(idx + indexBase, m.indices.data(), m.indices.size() * sizeof(uint32_t));
      slot.meshes.push_back({indexBase, uint32_t(m.indices.size()), int32_t(vertexBase),
                             glm::vec4(m.color, m.grid ? 1.0f : 0.0f)});
      vertexBase += uint32_t(m.positions.size());
      indexBase += uint32_t(m.indices.size());
    }
  }
  // bond lines
  slot.lineVertexCount = 0;
  if (!settings.bonds || frame.bondEnds.empty()) slot.lines = Buffer();
  if (settings.bonds && !frame.bondEnds.empty()) {
    const size_t count = frame.bondEnds.size();
    ensure(slot.lines, count * sizeof(glm::vec4), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    auto* l = static_cast<glm::vec4*>(slot.lines.mapped());
    for (size_t k = 0; k < count; ++k) l[k] = glm::vec4(frame.bondEnds[k], frame.bondBroken[k / 2] ? 1.0f : 0.0f);
    slot.lineVertexCount = uint32_t(count);
  }
  return range;
}

namespace {

void externalOwnership(VkCommandBuffer cmd, VkBuffer buffer, uint32_t from, uint32_t to, VkAccessFlags access) {
  VkBufferMemoryBarrier barrier{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
  barrier.srcAccessMask = 0;  // written outside Vulkan, or only read here: nothing to make available
  barrier.dstAccessMask = access;
  barrier.srcQueueFamilyIndex = from;
  barrier.dstQueueFamilyIndex = to;
  barrier.buffer = buffer;
  barrier.size = VK_WHOLE_SIZE;
  const VkPipelineStageFlags vertexInput = VK_PIPELINE_STAGE_VERTEX_INPUT_BIT;
  const VkPipelineStageFlags after = access ? vertexInput : VkPipelineStageFlags(VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
  vkCmdPipelineBarrier(cmd, vertexInput, after, 0, 0, nullptr, 1, &barrier, 0, nullptr);
}

}  // namespace

void SceneRenderer::recordExternalAcquire(VkCommandBuffer cmd, int slotIndex) const {
  const Slot& slot = slots_.at(slotIndex);
  if (!slot.external.buffer) return;
  externalOwnership(cmd, slot.external.buffer, VK_QUEUE_FAMILY_EXTERNAL, context_.queueFamily(),
                    VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT);
}

void SceneRenderer::recordExternalRelease(VkCommandBuffer cmd, int slotIndex) const {
  const Slot& slot = slots_.at(slotIndex);
  if (!slot.external.buffer) return;
  externalOwnership(cmd, slot.external.buffer, context_.queueFamily(), VK_QUEUE_FAMILY_EXTERNAL, 0);
}

void SceneRenderer::record(VkCommandBuffer cmd, int slotIndex) const {
  const Slot& slot = slots_.at(slotIndex);
  const VkDeviceSize zero = 0;
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_, 0, 1, &slot.descriptors, 0, nullptr);
  // Spheres and surfaces first: the meshes drawn after them (the ground) skip the hidden pixels by the early depth test.
  if (slot.pointCount + slot.quadCount) {  // one draw call for nearly every element, one for the rest
    VkBuffer ib = slot.instances.handle();
    vkCmdBindVertexBuffers(cmd, 0, 1, &ib, &zero);
    drawPointsThenQuads(cmd, spherePoints_, sphereQuads_, slot.pointCount, slot.quadCount);
  }
  if (slot.external.buffer && slot.external.summary.count > 0) {  // written on the device: every sphere as a quad
    vkCmdBindVertexBuffers(cmd, 0, 1, &slot.external.buffer, &zero);
    drawPointsThenQuads(cmd, VK_NULL_HANDLE, sphereQuads_, 0, uint32_t(slot.external.summary.count));
  }
  surfaces_->record(cmd, slotIndex);
  if (!slot.meshes.empty()) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, meshes_);
    VkBuffer vb = slot.meshVertices.handle();
    vkCmdBindVertexBuffers(cmd, 0, 1, &vb, &zero);
    vkCmdBindIndexBuffer(cmd, slot.meshIndices.handle(), 0, VK_INDEX_TYPE_UINT32);
    for (const MeshDraw& m : slot.meshes) {
      vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(glm::vec4), &m.color);
      vkCmdDrawIndexed(cmd, m.indexCount, 1, m.firstIndex, m.vertexOffset, 0);
    }
  }
  if (slot.lineVertexCount) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, lines_);
    VkBuffer lb = slot.lines.handle();
    vkCmdBindVertexBuffers(cmd, 0, 1, &lb, &zero);
    vkCmdDraw(cmd, slot.lineVertexCount, 1, 0, 0);
  }
}

}  // namespace frac::render
