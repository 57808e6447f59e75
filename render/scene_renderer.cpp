#include "scene_renderer.h"

#include <algorithm>
#include <cstring>

#include "context.h"
#include "pipelines.h"
#include "vk_check.h"

namespace frac::render {

namespace {

constexpr glm::vec3 kLightTowards{0.45f, 1.0f, 0.35f};  // world direction towards the key light

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
  VkDescriptorSetLayoutBinding binding{};
  binding.binding = 0;
  binding.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  binding.descriptorCount = 1;
  binding.stageFlags = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  setInfo.bindingCount = 1;
  setInfo.pBindings = &binding;
  FRAC_VK(vkCreateDescriptorSetLayout(device, &setInfo, nullptr, &setLayout_));
  VkPushConstantRange push{VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(glm::vec4)};
  VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layoutInfo.setLayoutCount = 1;
  layoutInfo.pSetLayouts = &setLayout_;
  layoutInfo.pushConstantRangeCount = 1;
  layoutInfo.pPushConstantRanges = &push;
  FRAC_VK(vkCreatePipelineLayout(device, &layoutInfo, nullptr, &layout_));
  VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, uint32_t(slots)};
  VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  poolInfo.maxSets = uint32_t(slots);
  poolInfo.poolSizeCount = 1;
  poolInfo.pPoolSizes = &poolSize;
  FRAC_VK(vkCreateDescriptorPool(device, &poolInfo, nullptr, &pool_));
  createPipelines(pass);
  slots_.resize(slots);
  for (Slot& s : slots_) {
    s.uniforms = Buffer(context, sizeof(FrameUniforms), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, true);
    VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = pool_;
    alloc.descriptorSetCount = 1;
    alloc.pSetLayouts = &setLayout_;
    FRAC_VK(vkAllocateDescriptorSets(device, &alloc, &s.descriptors));
    VkDescriptorBufferInfo bufferInfo{s.uniforms.handle(), 0, sizeof(FrameUniforms)};
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = s.descriptors;
    write.dstBinding = 0;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    write.pBufferInfo = &bufferInfo;
    vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
  }
}

SceneRenderer::~SceneRenderer() {
  VkDevice device = context_.device();
  vkDeviceWaitIdle(device);
  slots_.clear();
  for (VkPipeline p : {spheres_, meshes_, lines_}) vkDestroyPipeline(device, p, nullptr);
  vkDestroyPipelineLayout(device, layout_, nullptr);
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
  spheres_ = createPipeline(device, layout_, pass, sphere);
  PipelineDesc mesh{"mesh.vert", "mesh.frag"};
  mesh.bindings = {{0, 2 * sizeof(glm::vec3), VK_VERTEX_INPUT_RATE_VERTEX}};
  mesh.attributes = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0}, {1, 0, VK_FORMAT_R32G32B32_SFLOAT, sizeof(glm::vec3)}};
  meshes_ = createPipeline(device, layout_, pass, mesh);
  PipelineDesc line{"line.vert", "line.frag"};
  line.bindings = {{0, sizeof(glm::vec4), VK_VERTEX_INPUT_RATE_VERTEX}};
  line.attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}};
  line.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  lines_ = createPipeline(device, layout_, pass, line);
}

void SceneRenderer::ensure(Buffer& buffer, VkDeviceSize bytes, VkBufferUsageFlags usage) {
  if (buffer && buffer.size() >= bytes) return;
  VkDeviceSize size = std::max<VkDeviceSize>(bytes + bytes / 4, 4096);
  buffer = Buffer(context_, size, usage, true);
}

ColorRange SceneRenderer::prepare(int slotIndex, const RenderFrame& frame, const Camera& camera, VkExtent2D extent,
                                  const RenderSettings& settings) {
  Slot& slot = slots_.at(slotIndex);
  const size_t n = frame.elementCount();
  ColorRange range{settings.scalarMin, settings.scalarMax};
  if (settings.colorMode == ColorMode::Speed && settings.autoSpeedRange) {
    float top = 0.0f;
    for (size_t i = 0; i < n; ++i)
      if (frame.kind[i] == ElementKind::Body) top = std::max(top, frame.speed[i]);
    range = {0.0f, top > 1e-6f ? top : 1.0f};
  }
  // uniforms
  FrameUniforms u{};
  u.view = camera.view();
  u.proj = camera.projection(float(extent.width) / float(extent.height));
  u.lightDirView = glm::vec4(glm::normalize(glm::mat3(u.view) * glm::normalize(kLightTowards)), 0.0f);
  u.skyColor = glm::vec4(0.42f, 0.46f, 0.52f, 0.0f);
  u.groundColor = glm::vec4(0.20f, 0.18f, 0.16f, 0.0f);
  u.upView = glm::vec4(glm::mat3(u.view) * glm::vec3(0, 1, 0), 0.0f);
  u.params = glm::vec4(float(uint32_t(settings.colorMode)), range.min, range.max, settings.lit ? 0.0f : 1.0f);
  u.viewport = glm::vec4(float(extent.width), float(extent.height), settings.elementScale, 0.0f);
  const auto& stops = scalarColorStops();
  for (size_t k = 0; k < stops.size(); ++k) u.colormap[k] = glm::vec4(stops[k].color, stops[k].position);
  for (size_t m = 0; m < 32; ++m)
    u.materialColors[m] = glm::vec4(m < frame.materialColors.size() ? frame.materialColors[m] : glm::vec3(0.7f), 0.0f);
  u.kindColors[1] = glm::vec4(kinematicColor(), 0.0f);
  u.kindColors[2] = glm::vec4(projectileColor(), 0.0f);
  std::memcpy(slot.uniforms.mapped(), &u, sizeof(u));
  // sphere instances
  staging_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    SphereInstance& s = staging_[i];
    s.sphere = frame.spheres[i];
    s.scalar = instanceScalar(frame, i, settings.colorMode);
    s.fragment = frame.fragment[i];
    s.materialKind = uint32_t(frame.material[i]) | (uint32_t(frame.kind[i]) << 16);
    s.unused = 0.0f;
  }
  slot.instanceCount = uint32_t(n);
  if (n) {
    ensure(slot.instances, n * sizeof(SphereInstance), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    std::memcpy(slot.instances.mapped(), staging_.data(), n * sizeof(SphereInstance));
  }
  // meshes: one vertex and one index buffer for all
  size_t vertices = 0, indices = 0;
  for (const RenderMesh& m : frame.meshes) {
    vertices += m.positions.size();
    indices += m.indices.size();
  }
  slot.meshes.clear();
  if (indices) {
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
  if (settings.bonds && !frame.bondEnds.empty()) {
    const size_t count = frame.bondEnds.size();
    ensure(slot.lines, count * sizeof(glm::vec4), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    auto* l = static_cast<glm::vec4*>(slot.lines.mapped());
    for (size_t k = 0; k < count; ++k) l[k] = glm::vec4(frame.bondEnds[k], frame.bondBroken[k / 2] ? 1.0f : 0.0f);
    slot.lineVertexCount = uint32_t(count);
  }
  return range;
}

void SceneRenderer::record(VkCommandBuffer cmd, int slotIndex) const {
  const Slot& slot = slots_.at(slotIndex);
  const VkDeviceSize zero = 0;
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_, 0, 1, &slot.descriptors, 0, nullptr);
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
  if (slot.instanceCount) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, spheres_);
    VkBuffer ib = slot.instances.handle();
    vkCmdBindVertexBuffers(cmd, 0, 1, &ib, &zero);
    vkCmdDraw(cmd, 4, slot.instanceCount, 0, 0);  // one draw call for every element
  }
  if (slot.lineVertexCount) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, lines_);
    VkBuffer lb = slot.lines.handle();
    vkCmdBindVertexBuffers(cmd, 0, 1, &lb, &zero);
    vkCmdDraw(cmd, slot.lineVertexCount, 1, 0, 0);
  }
}

}  // namespace frac::render
