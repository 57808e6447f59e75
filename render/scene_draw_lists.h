#pragma once
// What the colour pass (scene_renderer.cpp) and the shadow pass (scene_renderer_shadow.cpp) share: the key light's
// direction, which elements are drawn as spheres, and the instance lists of point sprites and quads they draw.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>
#include <vulkan/vulkan.h>

#include "core/render_frame.h"
#include "gpu_memory.h"
#include "render_settings.h"

namespace frac::render {

constexpr glm::vec3 kLightTowards{0.45f, 1.0f, 0.35f};  // world direction towards the key light

// Element i is drawn as a sphere: it has a radius, and bodies only when the draw mode shows their spheres.
inline bool drawnAsSphere(const RenderFrame& f, size_t i, const RenderSettings& settings) {
  return f.spheres[i].w > 0.0f && (settings.drawBodySpheres() || f.kind[i] != ElementKind::Body);
}

// Instances for two draws from one buffer: point sprites fill `staging` from the front, quads from the back;
// finish() moves the quads next to the points.
template <class T>
class PointQuadSplit {
 public:
  PointQuadSplit(std::vector<T>& staging, size_t capacity) : staging_(staging), back_(capacity) {
    fitCapacity(staging, capacity);
  }
  void add(const T& item, bool point) { staging_[point ? front_++ : --back_] = item; }
  void finish(uint32_t& points, uint32_t& quads) {
    std::move(staging_.begin() + back_, staging_.end(), staging_.begin() + front_);
    points = uint32_t(front_);
    quads = uint32_t(staging_.size() - back_);
  }

 private:
  std::vector<T>& staging_;
  size_t front_ = 0, back_;
};

// The point sprites of the bound instance buffer, then its quads (4-vertex strips), each with its pipeline.
inline void drawPointsThenQuads(VkCommandBuffer cmd, VkPipeline points, VkPipeline quads, uint32_t pointCount,
                                uint32_t quadCount) {
  if (pointCount) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, points);
    vkCmdDraw(cmd, 1, pointCount, 0, 0);
  }
  if (quadCount) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, quads);
    vkCmdDraw(cmd, 4, quadCount, 0, pointCount);
  }
}

}  // namespace frac::render
