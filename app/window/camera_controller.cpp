#include "window/camera_controller.h"

#include <algorithm>
#include <cmath>

namespace frac {

void CameraController::reset(const render::Camera& start) {
  camera_ = start;
  const glm::vec3 d = start.eye - start.target;
  distance_ = std::max(glm::length(d), 1e-4f);
  yaw_ = std::atan2(d.x, d.z);
  pitch_ = std::asin(std::clamp(d.y / distance_, -1.0f, 1.0f));
  apply();
}

void CameraController::apply() {
  const glm::vec3 offset(std::cos(pitch_) * std::sin(yaw_), std::sin(pitch_), std::cos(pitch_) * std::cos(yaw_));
  camera_.eye = camera_.target + distance_ * offset;
  camera_.up = glm::vec3(0.0f, 1.0f, 0.0f);
}

void CameraController::orbit(float dx, float dy) {
  yaw_ -= 0.005f * dx;
  pitch_ = std::clamp(pitch_ + 0.005f * dy, -1.55f, 1.55f);
  apply();
}

void CameraController::pan(float dx, float dy, float viewportHeight) {
  // Move the target in the view plane so that the point under the cursor follows it.
  const glm::vec3 forward = glm::normalize(camera_.target - camera_.eye);
  const glm::vec3 right = glm::normalize(glm::cross(forward, camera_.up));
  const glm::vec3 up = glm::cross(right, forward);
  const float metersPerPixel =
      2.0f * distance_ * std::tan(0.5f * glm::radians(camera_.fovYDegrees)) / std::max(viewportHeight, 1.0f);
  camera_.target += metersPerPixel * (-dx * right + dy * up);
  apply();
}

void CameraController::zoom(float wheelSteps) {
  distance_ = std::clamp(distance_ * std::pow(0.88f, wheelSteps), 1e-3f, 1e4f);
  apply();
}

}  // namespace frac
