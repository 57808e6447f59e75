#include "window/throw_tool.h"

#include <algorithm>
#include <cmath>

namespace frac {

// Elements kept on the device (interop): the host knows only the box around them, so the ray meets that box.
std::optional<RayHit> castRayOnBox(const InstanceSummary& elements, const glm::vec3& origin, const glm::vec3& direction) {
  const glm::vec3 lo = elements.lo - elements.maxRadius, hi = elements.hi + elements.maxRadius;
  float enter = 0.0f, leave = 1e30f;
  int axis = -1;
  for (int k = 0; k < 3; ++k) {
    if (std::abs(direction[k]) < 1e-12f) {
      if (origin[k] < lo[k] || origin[k] > hi[k]) return std::nullopt;
      continue;
    }
    float t0 = (lo[k] - origin[k]) / direction[k], t1 = (hi[k] - origin[k]) / direction[k];
    if (t0 > t1) std::swap(t0, t1);
    if (t0 > enter) {
      enter = t0;
      axis = k;
    }
    leave = std::min(leave, t1);
  }
  if (axis < 0 || enter > leave) return std::nullopt;  // missed, or starting inside the box
  glm::vec3 normal(0.0f);
  normal[axis] = direction[axis] > 0.0f ? -1.0f : 1.0f;
  return RayHit{origin + enter * direction, normal, enter};
}

std::optional<RayHit> castRay(const RenderFrame& frame, const glm::vec3& origin, const glm::vec3& direction) {
  std::optional<RayHit> best;
  for (size_t i = 0; i < frame.elementCount(); ++i) {
    const glm::vec4& s = frame.spheres[i];
    if (s.w <= 0.0f) continue;
    const float t = raySphereEntry(origin, direction, glm::vec3(s), s.w);
    if (t <= 0.0f || (best && t >= best->distance)) continue;
    const glm::vec3 p = origin + t * direction;
    best = RayHit{p, glm::normalize(p - glm::vec3(s)), t};
  }
  if (frame.elementsOnDevice.count > 0) best = castRayOnBox(frame.elementsOnDevice, origin, direction);
  const std::optional<RayHit> ground = castRayOnGround(frame, origin, direction);
  if (ground && (!best || ground->distance < best->distance)) best = ground;
  return best;
}

std::optional<RayHit> castRayOnGround(const RenderFrame& frame, const glm::vec3& origin, const glm::vec3& direction) {
  std::optional<RayHit> best;
  for (const RenderMesh& m : frame.meshes) {  // ground planes: the first triangle's plane
    if (!m.grid || m.positions.size() < 3 || m.normals.empty()) continue;
    const glm::vec3 n = m.normals[0];
    const float denom = glm::dot(direction, n);
    if (std::abs(denom) < 1e-6f) continue;
    const float t = glm::dot(m.positions[0] - origin, n) / denom;
    if (t <= 0.0f || (best && t >= best->distance)) continue;
    best = RayHit{origin + t * direction, denom < 0.0f ? n : -n, t};
  }
  return best;
}

bool ThrowTool::press(const RenderFrame& frame, const glm::vec3& rayOrigin, const glm::vec3& rayDirection,
                      float ballRadius, float cursorX, float cursorY) {
  const std::optional<RayHit> hit = castRay(frame, rayOrigin, rayDirection);
  if (!hit) return false;
  start_ = Command::startOutside(hit->point, hit->normal, ballRadius);
  aim_.reset();
  if (frame.elementsOnDevice.count > 0) {
    const std::optional<RayHit> ground = castRayOnGround(frame, rayOrigin, rayDirection);
    const glm::vec3 fallback = ground ? Command::startOutside(ground->point, ground->normal, ballRadius) : start_;
    aim_ = Aim{rayOrigin, rayDirection, fallback};
  }
  pressCursor_ = cursor_ = {cursorX, cursorY};
  active_ = true;
  return true;
}

glm::vec3 ThrowTool::velocity(const render::Camera& camera, float, const ThrowSettings& settings) const {
  // The drag, in pixels, mapped onto the camera's right and up axes: direction in the plane facing the camera.
  const glm::vec2 drag = cursor_ - pressCursor_;
  const float pixels = glm::length(drag);
  if (pixels < 1.0f) return glm::vec3(0.0f);
  const glm::vec3 forward = glm::normalize(camera.target - camera.eye);
  const glm::vec3 right = glm::normalize(glm::cross(forward, camera.up));
  const glm::vec3 up = glm::cross(right, forward);
  const glm::vec3 direction = glm::normalize(drag.x * right - drag.y * up);
  return direction * (pixels * settings.speedPerPixel);
}

std::optional<Command> ThrowTool::release(const render::Camera& camera, float, float viewportHeight,
                                          const ThrowSettings& settings, const std::string& material) {
  if (!active_) return std::nullopt;
  active_ = false;
  const glm::vec3 v = velocity(camera, viewportHeight, settings);
  if (glm::length(v) <= 0.0f) return std::nullopt;
  Command c = Command::throwProjectile(aim_ ? aim_->fallback : start_, v, settings.radius, material);
  if (aim_) {
    c.aimed = true;
    c.aimOrigin = aim_->origin;
    c.aimDirection = aim_->direction;
  }
  c.density = settings.density;
  c.breakable = settings.breakable;
  c.elementRadius = std::min(settings.elementRadius, settings.radius);
  return c;
}

}  // namespace frac
