#pragma once
// Dear ImGui (Debian's libimgui 1.86, Vulkan backend) drawn into one of our render passes: the legend of headless
// recordings and, in the window, the panels. Owns the ImGui context; one GuiLayer at a time.
#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

namespace frac::render {

class Context;

struct GuiImage {  // RGBA8, top row first
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;
};
struct GuiImageUv {  // where an image lies in the font texture: ImGui::Image(io.Fonts->TexID, size, uv0, uv1)
  float u0 = 0, v0 = 0, u1 = 0, v1 = 0;
};

class GuiLayer {
 public:
  // imageCount: frames the caller may have in flight (>= 2 as the backend requires; 2 for offscreen use).
  GuiLayer(const Context& context, VkRenderPass pass, uint32_t imageCount = 2);
  ~GuiLayer();
  GuiLayer(const GuiLayer&) = delete;
  GuiLayer& operator=(const GuiLayer&) = delete;

  // Starts an ImGui frame. Without a platform backend (headless) pass the target size; a window's platform
  // backend (ImGui_ImplGlfw_NewFrame) must run before this and sets it itself (pass 0, 0).
  void newFrame(float width, float height, float deltaTime);
  // Ends the ImGui frame and records its draw data inside the active render pass.
  void record(VkCommandBuffer cmd);
  // Ends a frame that was laid out but is not drawn (a new window sizing itself).
  void discardFrame();
  // Replaces the images drawable with ImGui::Image (thumbnails) by these, returning where each lies in the font
  // texture. Between frames only: it waits for the device and restarts the backend.
  std::vector<GuiImageUv> setImages(const std::vector<GuiImage>& images);

 private:
  void initBackend();

  const Context& context_;
  VkRenderPass pass_ = VK_NULL_HANDLE;
  uint32_t imageCount_ = 2;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
};

}  // namespace frac::render
