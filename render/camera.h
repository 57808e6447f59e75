#pragma once
// A look-at perspective camera with Vulkan's clip conventions (y down, depth 0..1).
#include <glm/glm.hpp>

namespace frac::render {

struct Camera {
  glm::vec3 eye{0.6f, 0.4f, 0.8f};
  glm::vec3 target{0.0f, 0.1f, 0.0f};
  glm::vec3 up{0.0f, 1.0f, 0.0f};
  float fovYDegrees = 45.0f;

  glm::mat4 view() const;
  // Near and far planes follow the eye-target distance: 1/100 and 100 times it.
  glm::mat4 projection(float aspect) const;
  // Unit ray direction (world) through a pixel at normalised device coordinates (-1..1, y down).
  glm::vec3 rayDirection(float ndcX, float ndcY, float aspect) const;
};

}  // namespace frac::render
