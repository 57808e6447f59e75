#include "gui_layer.h"

#include <cstring>

#include <imgui.h>
#include <backends/imgui_impl_vulkan.h>

#include "context.h"
#include "vk_check.h"

namespace frac::render {

namespace {
void checkImGuiResult(VkResult result) { check(result, "ImGui Vulkan backend"); }
}  // namespace

GuiLayer::GuiLayer(const Context& context, VkRenderPass pass, uint32_t imageCount)
    : context_(context), pass_(pass), imageCount_(imageCount) {
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

  initBackend();
}

void GuiLayer::initBackend() {
  ImGui_ImplVulkan_InitInfo info{};
  info.Instance = context_.instance();
  info.PhysicalDevice = context_.physicalDevice();
  info.Device = context_.device();
  info.QueueFamily = context_.queueFamily();
  info.Queue = context_.queue();
  info.DescriptorPool = pool_;
  info.MinImageCount = imageCount_ < 2 ? 2 : imageCount_;
  info.ImageCount = info.MinImageCount;
  info.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
  info.CheckVkResultFn = checkImGuiResult;
  ImGui_ImplVulkan_Init(&info, pass_);
  context_.submitAndWait([](VkCommandBuffer cmd) { ImGui_ImplVulkan_CreateFontsTexture(cmd); });
  ImGui_ImplVulkan_DestroyFontUploadObjects();
}

// ImGui 1.86's Vulkan backend draws every command with its font texture (user textures are not supported), so images
// go into the font atlas as custom rectangles: the atlas is built anew with the default font and the images, and the
// backend restarted to upload it.
std::vector<GuiImageUv> GuiLayer::setImages(const std::vector<GuiImage>& images) {
  vkDeviceWaitIdle(context_.device());
  ImGui_ImplVulkan_Shutdown();
  vkResetDescriptorPool(context_.device(), pool_, 0);  // the backend's font descriptor set (it frees none itself)
  ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
  atlas.Clear();
  atlas.AddFontDefault();
  std::vector<int> ids;
  for (const GuiImage& image : images) ids.push_back(atlas.AddCustomRectRegular(image.width, image.height));
  unsigned char* pixels = nullptr;
  int width = 0, height = 0;
  atlas.GetTexDataAsRGBA32(&pixels, &width, &height);
  std::vector<GuiImageUv> uvs;
  for (size_t k = 0; k < images.size(); ++k) {
    const ImFontAtlasCustomRect* rect = atlas.GetCustomRectByIndex(ids[k]);
    const GuiImage& image = images[k];
    for (int y = 0; y < image.height; ++y)
      std::memcpy(pixels + (size_t(rect->Y + y) * width + rect->X) * 4, image.rgba.data() + size_t(y) * image.width * 4,
                  size_t(image.width) * 4);
    ImVec2 uv0, uv1;
    atlas.CalcCustomRectUV(rect, &uv0, &uv1);
    uvs.push_back({uv0.x, uv0.y, uv1.x, uv1.y});
  }
  initBackend();
  return uvs;
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
