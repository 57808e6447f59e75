#pragma once
// Drag-to-throw: the press picks the start point by casting the cursor's ray against the elements and the ground
// (the ball starts just outside what was hit), dragging sets the direction and the speed (an arrow shows both),
// releasing launches a Throw command. While the elements stay on the device the frame only has their box: the arrow
// starts where the ray enters it, and the command carries the ray for the session to pick the element exactly.
#include <optional>

#include "camera.h"
#include "core/render_frame.h"
#include "session/command.h"

namespace frac {

struct ThrowSettings {
  float radius = 0.012f;      // m
  int material = 0;           // index into the scene's materials
  float speedPerPixel = 0.05f;  // m/s per pixel of drag
  float density = 0.0f;         // kg/m^3; 0 = the material's
  bool breakable = false;       // a ball of bonded elements (it breaks too)
  float elementRadius = 0.003f; // breakable: element radius (m)
};

// The nearest hit of a ray with the frame's spheres and planes (meshes flagged as ground grids).
struct RayHit {
  glm::vec3 point{0.0f}, normal{0.0f, 1.0f, 0.0f};
  float distance = 0.0f;
};
std::optional<RayHit> castRay(const RenderFrame& frame, const glm::vec3& origin, const glm::vec3& direction);
// The nearest hit with the frame's ground planes only.
std::optional<RayHit> castRayOnGround(const RenderFrame& frame, const glm::vec3& origin, const glm::vec3& direction);

class ThrowTool {
 public:
  // Press at the cursor ray: true when something was hit and a drag started.
  bool press(const RenderFrame& frame, const glm::vec3& rayOrigin, const glm::vec3& rayDirection, float ballRadius,
             float cursorX, float cursorY);
  void drag(float cursorX, float cursorY) { cursor_ = {cursorX, cursorY}; }
  // Release: the velocity for the current drag (in the plane facing the camera through the start point).
  std::optional<Command> release(const render::Camera& camera, float aspect, float viewportHeight,
                                 const ThrowSettings& settings, const std::string& material);
  bool active() const { return active_; }
  glm::vec3 start() const { return start_; }
  // World velocity the current drag would give.
  glm::vec3 velocity(const render::Camera& camera, float viewportHeight, const ThrowSettings& settings) const;
  void cancel() { active_ = false; }

 private:
  bool active_ = false;
  glm::vec3 start_{0.0f};
  // Elements on the device (the frame has only their box): the press's ray goes with the throw and the session
  // starts the ball at the element it meets first, or at `fallback` (on the ground, else start_).
  struct Aim {
    glm::vec3 origin, direction, fallback;
  };
  std::optional<Aim> aim_;
  glm::vec2 pressCursor_{0.0f}, cursor_{0.0f};
};

}  // namespace frac
