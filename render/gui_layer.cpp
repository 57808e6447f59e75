#include "gui_layer.h"

#include <imgui.h>
#include <backends/imgui_impl_vulkan.h>

#include "context.h"
#include "vk_check.h"

namespace frac::render {

namespace {
void checkImGuiResult(VkResult result) { check(result, "ImGui Vulkan backend"); }
}  // namespace

GuiLayer::GuiLayer(const Context& context, VkRenderPass pass, uint32_t imageCount) : context_(context) {
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 16};
  VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  poolInfo.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
  poolInfo.maxSets = 16;
  poolInfo.poolSizeCount = 1;
  poolInfo.pPoolSizes = &size;
  FRAC_VK(vkCreateDescriptorPool(context.device(), &poolInfo, nullptr, &pool_));

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // no imgui.ini next to the user's files
  ImGui::StyleColorsDark();
  ImGui::GetStyle().WindowRounding = 4.0f;

  ImGui_ImplVulkan_InitInfo info{};
  info.Instance = context.instance();
  info.PhysicalDevice = context.physicalDevice();
  info.Device = context.device();
  info.QueueFamily = context.queueFamily();
  info.Queue = context.queue();
  info.DescriptorPool = pool_;
  info.MinImageCount = imageCount < 2 ? 2 : imageCount;
  info.ImageCount = info.MinImageCount;
  info.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
  info.CheckVkResultFn = checkImGuiResult;
  ImGui_ImplVulkan_Init(&info, pass);
  context.submitAndWait([](VkCommandBuffer cmd) { ImGui_ImplVulkan_CreateFontsTexture(cmd); });
  ImGui_ImplVulkan_DestroyFontUploadObjects();
}

GuiLayer::~GuiLayer() {
  vkDeviceWaitIdle(context_.device());
  ImGui_ImplVulkan_Shutdown();
  ImGui::DestroyContext();
  vkDestroyDescriptorPool(context_.device(), pool_, nullptr);
}

void GuiLayer::newFrame(float width, float height, float deltaTime) {
  ImGuiIO& io = ImGui::GetIO();
  if (width > 0.0f && height > 0.0f) io.DisplaySize = ImVec2(width, height);
  io.DeltaTime = deltaTime > 0.0f ? deltaTime : 1.0f / 60.0f;
  ImGui_ImplVulkan_NewFrame();
  ImGui::NewFrame();
}

void GuiLayer::discardFrame() { ImGui::EndFrame(); }

void GuiLayer::record(VkCommandBuffer cmd) {
  ImGui::Render();
  ImGui_ImplVulkan_RenderDrawData(ImGui::GetDrawData(), cmd);
}

}  // namespace frac::render
