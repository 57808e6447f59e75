#include "camera.h"

#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace frac::render {

glm::mat4 Camera::view() const { return glm::lookAt(eye, target, up); }

glm::mat4 Camera::projection(float aspect) const {
  const float distance = glm::length(target - eye);
  const float nearPlane = 0.01f * distance, farPlane = 100.0f * distance;
  const float f = 1.0f / std::tan(0.5f * glm::radians(fovYDegrees));
  glm::mat4 p(0.0f);
  p[0][0] = f / aspect;
  p[1][1] = -f;  // Vulkan's y points down
  p[2][2] = farPlane / (nearPlane - farPlane);
  p[2][3] = -1.0f;
  p[3][2] = nearPlane * farPlane / (nearPlane - farPlane);
  return p;
}

glm::vec3 Camera::rayDirection(float ndcX, float ndcY, float aspect) const {
  const glm::vec3 forward = glm::normalize(target - eye);
  const glm::vec3 right = glm::normalize(glm::cross(forward, up));
  const glm::vec3 trueUp = glm::cross(right, forward);
  const float t = std::tan(0.5f * glm::radians(fovYDegrees));
  return glm::normalize(forward + ndcX * t * aspect * right - ndcY * t * trueUp);
}

}  // namespace frac::render
