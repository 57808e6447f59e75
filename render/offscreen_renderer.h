#pragma once
// Headless rendering: a context, an offscreen target and the scene renderer, for recordings, tests and benchmarks.
#include <functional>
#include <memory>
#include <vector>

#include "context.h"
#include "imgui_layer.h"
#include "offscreen_target.h"
#include "scene_renderer.h"

namespace frac::render {

class OffscreenRenderer {
 public:
  OffscreenRenderer(uint32_t width, uint32_t height, const ContextOptions& options = {});

  // Renders the frame and returns its pixels (RGBA8, top row first, width * height * 4 bytes). `overlay`, when
  // given, draws ImGui windows (the legend) over the scene.
  ColorRange render(const RenderFrame& frame, const Camera& camera, const RenderSettings& settings,
                    std::vector<uint8_t>& rgba, const std::function<void(const ColorRange&)>& overlay = {});
  const Context& context() const { return context_; }
  uint32_t drawnSpheres() const { return scene_->drawnSpheres(0); }
  uint32_t width() const { return target_->extent().width; }
  uint32_t height() const { return target_->extent().height; }

 private:
  Context context_;
  std::unique_ptr<OffscreenTarget> target_;
  std::unique_ptr<SceneRenderer> scene_;
  std::unique_ptr<ImGuiLayer> imgui_;  // created on the first overlay
};

}  // namespace frac::render
