#pragma once
// Orbit camera of the window: right-drag orbits about the target, middle-drag (or shift + right-drag) pans, the
// wheel zooms. Starts from the scene's camera.
#include "camera.h"

namespace frac {

class CameraController {
 public:
  void reset(const render::Camera& start);
  void orbit(float dxPixels, float dyPixels);
  void pan(float dxPixels, float dyPixels, float viewportHeight);
  void zoom(float wheelSteps);
  const render::Camera& camera() const { return camera_; }

 private:
  void apply();  // eye from target, distance, yaw, pitch
  render::Camera camera_;
  float distance_ = 1.0f, yaw_ = 0.0f, pitch_ = 0.3f;
};

}  // namespace frac
