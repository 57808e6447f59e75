#include "offscreen_renderer.h"

#include "vk_check.h"

namespace frac::render {

OffscreenRenderer::OffscreenRenderer(uint32_t width, uint32_t height, const ContextOptions& options)
    : context_(options), width_(width), height_(height) {
  for (Slot& slot : slots_) {
    slot.target = std::make_unique<OffscreenTarget>(context_, width, height);
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = context_.commandPool();
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    FRAC_VK(vkAllocateCommandBuffers(context_.device(), &alloc, &slot.commands));
    VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    fence.flags = VK_FENCE_CREATE_SIGNALED_BIT;
    FRAC_VK(vkCreateFence(context_.device(), &fence, nullptr, &slot.done));
  }
  // All targets' render passes have the same attachments, so pipelines made for the first suit every target.
  scene_ = std::make_unique<SceneRenderer>(context_, slots_[0].target->renderPass(), kFramesInFlight);
}

OffscreenRenderer::~OffscreenRenderer() {
  vkDeviceWaitIdle(context_.device());
  imgui_.reset();
  scene_.reset();
  for (Slot& slot : slots_) {
    vkDestroyFence(context_.device(), slot.done, nullptr);
    vkFreeCommandBuffers(context_.device(), context_.commandPool(), 1, &slot.commands);
    slot.target.reset();
  }
}

ColorRange OffscreenRenderer::submit(const RenderFrame& frame, const Camera& camera, const RenderSettings& settings,
                                     const Overlay& overlay, const ExternalInstances* external) {
  if (pending_ == kFramesInFlight) throw RenderError("OffscreenRenderer::submit: collect a pending frame first");
  const int index = next_;
  Slot& slot = slots_[index];
  FRAC_VK(vkWaitForFences(context_.device(), 1, &slot.done, VK_TRUE, UINT64_MAX));  // its buffers are free again
  const ColorRange range = scene_->prepare(index, frame, camera, slot.target->extent(), settings, external);
  if (overlay) {
    if (!imgui_) {
      imgui_ = std::make_unique<GuiLayer>(context_, slots_[0].target->renderPass(), kFramesInFlight);
      // Dear ImGui sizes an auto-resized window from its first frame's contents: that frame is laid out and dropped,
      // so the first recorded frame has its legend like every later one.
      imgui_->newFrame(float(width_), float(height_), 0.0f);
      overlay(range);
      imgui_->discardFrame();
    }
    imgui_->newFrame(float(width_), float(height_), 0.0f);
    overlay(range);
  }
  const float clear[3] = {settings.background.r, settings.background.g, settings.background.b};
  FRAC_VK(vkResetCommandBuffer(slot.commands, 0));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  FRAC_VK(vkBeginCommandBuffer(slot.commands, &begin));
  scene_->recordExternalAcquire(slot.commands, index);
  scene_->recordShadow(slot.commands, index);
  slot.target->begin(slot.commands, clear);
  scene_->record(slot.commands, index);
  if (overlay) imgui_->record(slot.commands);
  slot.target->endAndCopy(slot.commands);
  scene_->recordExternalRelease(slot.commands, index);
  FRAC_VK(vkEndCommandBuffer(slot.commands));
  FRAC_VK(vkResetFences(context_.device(), 1, &slot.done));
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &slot.commands;
  FRAC_VK(vkQueueSubmit(context_.queue(), 1, &submit, slot.done));
  lastSlot_ = index;
  next_ = (next_ + 1) % kFramesInFlight;
  ++pending_;
  return range;
}

bool OffscreenRenderer::collect(std::vector<uint8_t>& rgba) {
  if (pending_ == 0) return false;
  const int oldest = (next_ - pending_ + kFramesInFlight) % kFramesInFlight;
  Slot& slot = slots_[oldest];
  FRAC_VK(vkWaitForFences(context_.device(), 1, &slot.done, VK_TRUE, UINT64_MAX));
  slot.target->readPixels(rgba);
  --pending_;
  return true;
}

ColorRange OffscreenRenderer::render(const RenderFrame& frame, const Camera& camera, const RenderSettings& settings,
                                     std::vector<uint8_t>& rgba, const Overlay& overlay,
                                     const ExternalInstances* external) {
  std::vector<uint8_t> older;
  while (pending_ > 0) collect(older);  // a synchronous caller wants this frame's pixels
  const ColorRange range = submit(frame, camera, settings, overlay, external);
  collect(rgba);
  return range;
}

}  // namespace frac::render
