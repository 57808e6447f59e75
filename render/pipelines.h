#pragma once
// Shader modules from the embedded SPIR-V and the fixed-function state the renderer's pipelines share.
#include <vector>

#include <vulkan/vulkan.h>

namespace frac::render {

VkShaderModule createShaderModule(VkDevice device, const char* name);  // name: "sphere.vert", ...

struct PipelineDesc {
  const char* vertexShader;
  const char* fragmentShader;
  std::vector<VkVertexInputBindingDescription> bindings;
  std::vector<VkVertexInputAttributeDescription> attributes;
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkCullModeFlags cull = VK_CULL_MODE_NONE;
  bool depthWrite = true;
  bool colorOutput = true;  // false: a depth-only pass (shadow map)
};

VkPipeline createPipeline(VkDevice device, VkPipelineLayout layout, VkRenderPass pass, const PipelineDesc& desc);

}  // namespace frac::render
