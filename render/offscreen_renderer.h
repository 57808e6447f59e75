#pragma once
// Headless rendering: a context, offscreen targets and the scene renderer, for recordings, tests and benchmarks.
// Two frames can be in flight: submit() prepares and submits frame k while the device still renders frame k - 1,
// collect() returns the oldest frame's pixels. render() does both for one frame.
#include <functional>
#include <memory>
#include <vector>

#include "context.h"
#include "gui_layer.h"
#include "offscreen_target.h"
#include "scene_renderer.h"

namespace frac::render {

class OffscreenRenderer {
 public:
  static constexpr int kFramesInFlight = 2;
  using Overlay = std::function<void(const ColorRange&)>;

  OffscreenRenderer(uint32_t width, uint32_t height, const ContextOptions& options = {});
  ~OffscreenRenderer();

  // Starts rendering a frame; waits first if kFramesInFlight frames are pending (collect them to get their pixels).
  // `overlay`, when given, draws ImGui windows (the legend) over the scene. `external`: the elements are in that
  // buffer, already written (SceneRenderer::prepare).
  ColorRange submit(const RenderFrame& frame, const Camera& camera, const RenderSettings& settings,
                    const Overlay& overlay = {}, const ExternalInstances* external = nullptr);
  // Waits for the oldest pending frame and returns its pixels (RGBA8, top row first); false when none is pending.
  bool collect(std::vector<uint8_t>& rgba);
  int pending() const { return pending_; }
  // submit + collect: renders one frame and returns its pixels.
  ColorRange render(const RenderFrame& frame, const Camera& camera, const RenderSettings& settings,
                    std::vector<uint8_t>& rgba, const Overlay& overlay = {}, const ExternalInstances* external = nullptr);

  const Context& context() const { return context_; }
  uint32_t drawnSpheres() const { return scene_->drawnSpheres(lastSlot_); }
  uint32_t drawnSurfaceTriangles() const { return scene_->drawnSurfaceTriangles(lastSlot_); }
  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }

 private:
  struct Slot {
    std::unique_ptr<OffscreenTarget> target;
    VkCommandBuffer commands = VK_NULL_HANDLE;
    VkFence done = VK_NULL_HANDLE;
  };
  Context context_;
  uint32_t width_, height_;
  Slot slots_[kFramesInFlight];
  std::unique_ptr<SceneRenderer> scene_;
  std::unique_ptr<GuiLayer> imgui_;  // created on the first overlay
  int next_ = 0, pending_ = 0, lastSlot_ = 0;
};

}  // namespace frac::render
