#include "offscreen_renderer.h"

namespace frac::render {

OffscreenRenderer::OffscreenRenderer(uint32_t width, uint32_t height, const ContextOptions& options)
    : context_(options) {
  target_ = std::make_unique<OffscreenTarget>(context_, width, height);
  scene_ = std::make_unique<SceneRenderer>(context_, target_->renderPass(), 1);
}

ColorRange OffscreenRenderer::render(const RenderFrame& frame, const Camera& camera, const RenderSettings& settings,
                                     std::vector<uint8_t>& rgba,
                                     const std::function<void(const ColorRange&)>& overlay) {
  const ColorRange range = scene_->prepare(0, frame, camera, target_->extent(), settings);
  if (overlay) {
    if (!imgui_) imgui_ = std::make_unique<ImGuiLayer>(context_, target_->renderPass());
    imgui_->newFrame(float(width()), float(height()), 0.0f);
    overlay(range);
  }
  const float clear[3] = {settings.background.r, settings.background.g, settings.background.b};
  context_.submitAndWait([&](VkCommandBuffer cmd) {
    scene_->recordShadow(cmd, 0);
    target_->begin(cmd, clear);
    scene_->record(cmd, 0);
    if (overlay) imgui_->record(cmd);
    target_->endAndCopy(cmd);
  });
  target_->readPixels(rgba);
  return range;
}

}  // namespace frac::render
