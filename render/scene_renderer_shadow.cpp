// SceneRenderer's shadow pass: the light's orthographic view fitted to what is drawn, the casters (culled on the
// host against a light-space occlusion grid where the device is a CPU) and the shadow map's render pass.
#include "scene_renderer.h"

#include <algorithm>
#include <limits>

#include <glm/gtc/matrix_transform.hpp>

#include "occlusion_grid.h"
#include "scene_draw_lists.h"
#include "shadow_map.h"

namespace frac::render {

bool SceneRenderer::fitShadow(Slot& slot, const glm::vec3& lo, const glm::vec3& hi, const RenderSettings& settings,
                              FrameUniforms& u) {
  u.shadowParams = glm::vec4(0.0f);
  if (!settings.shadows || !settings.lit || lo.x > hi.x) return false;
  // Orthographic light view fitted to the elements' bounding sphere (radius R); depth covers 8 R from the light's
  // eye at 2 R from the centre, so the ground under and beside the bodies receives the shadows.
  const glm::vec3 centre = 0.5f * (lo + hi);
  const float R = std::max(0.5f * glm::length(hi - lo), 1e-6f);
  const glm::vec3 towards = glm::normalize(kLightTowards);
  const glm::mat4 lightView =
      glm::lookAt(centre + 2.0f * R * towards, centre, std::abs(towards.y) < 0.99f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0));
  glm::mat4 lightProj(1.0f);
  lightProj[0][0] = lightProj[1][1] = 1.0f / R;
  lightProj[2][2] = -1.0f / (8.0f * R);
  const glm::mat4 lightViewProj = lightProj * lightView;
  const float texelWorld = 2.0f * R / float(kShadowMapSize);
  u.viewToLight = lightViewProj * glm::inverse(u.view);
  u.shadowParams = glm::vec4(1.0f, 1.5f * texelWorld, 2.0f * texelWorld / (8.0f * R), 0.0f);
  slot.shadowRadius = R;
  slot.shadowConstants.lightViewProj = lightViewProj;
  slot.shadowConstants.params = glm::vec4(settings.elementScale, float(kShadowMapSize), 0.0f, 0.0f);
  slot.shadowConstants.clipPlane = settings.activeClipPlane();
  return true;
}

void SceneRenderer::prepareShadow(Slot& slot, int slotIndex, const RenderFrame& frame,
                                  const RenderSettings& settings, FrameUniforms& u) {
  slot.shadowPointCount = slot.shadowQuadCount = 0;
  glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (const glm::vec4& sphere : frame.spheres)
    if (sphere.w > 0.0f) {
      lo = glm::min(lo, glm::vec3(sphere) - sphere.w);
      hi = glm::max(hi, glm::vec3(sphere) + sphere.w);
    }
  glm::vec3 surfaceLo, surfaceHi;
  if (surfaces_->bounds(slotIndex, surfaceLo, surfaceHi)) {
    lo = glm::min(lo, surfaceLo);
    hi = glm::max(hi, surfaceHi);
  }
  slot.shadowsOn = fitShadow(slot, lo, hi, settings, u);
  if (!slot.shadowsOn) return;
  const size_t n = frame.elementCount();
  if (!hostCulling(settings)) {  // every sphere casts, as quads (no light-space culling; see prepare)
    PointQuadSplit<glm::vec4> all(shadowStaging_, n);
    for (size_t i = 0; i < n; ++i)
      if (drawnAsSphere(frame, i, settings)) all.add(frame.spheres[i], false);
    all.finish(slot.shadowPointCount, slot.shadowQuadCount);
    upload(slot.shadowInstances, shadowStaging_.data(), slot.shadowQuadCount * sizeof(glm::vec4));
    return;
  }
  const glm::mat4 lightViewProj = slot.shadowConstants.lightViewProj;
  const float R = slot.shadowRadius;
  // Light-space culling with the same conservative grid: spheres behind others, seen from the light, cast nothing new.
  const float half = 0.5f * float(kShadowMapSize);
  shadowOcclusion_.reset(kShadowMapSize, kShadowMapSize);
  fitCapacity(boxes_, n);
  for (size_t i = 0; i < n; ++i) {
    const float r = drawnAsSphere(frame, i, settings) ? frame.spheres[i].w * settings.elementScale : 0.0f;
    SphereScreenBox& b = boxes_[i];
    b.valid = r > 0.0f;
    if (!b.valid) continue;
    const glm::vec4 c = lightViewProj * glm::vec4(glm::vec3(frame.spheres[i]), 1.0f);
    const float rPixels = r / R * half;
    b.centreX = half * (1.0f + c.x);
    b.centreY = half * (1.0f + c.y);
    b.x0 = b.centreX - rPixels - 1.0f;
    b.x1 = b.centreX + rPixels + 1.0f;
    b.y0 = b.centreY - rPixels - 1.0f;
    b.y1 = b.centreY + rPixels + 1.0f;
    b.innerRadius = 0.999f * rPixels;
    b.centreDepth = c.z;
    b.nearDepth = c.z - r / (8.0f * R);
    shadowOcclusion_.addOccluder(b.centreX, b.centreY, b.innerRadius, b.centreDepth);
  }
  // Casters: point sprites first, spheres wider than a point can be at the end (drawn as quads).
  const float pointLimit = std::min(maxPointSize_, 255.0f) - 4.0f;
  PointQuadSplit<glm::vec4> split(shadowStaging_, n);
  for (size_t i = 0; i < n; ++i) {
    const SphereScreenBox& b = boxes_[i];
    if (!b.valid || shadowOcclusion_.hidden(b.x0, b.y0, b.x1, b.y1, b.nearDepth)) continue;
    split.add(frame.spheres[i], b.x1 - b.x0 <= pointLimit);
  }
  split.finish(slot.shadowPointCount, slot.shadowQuadCount);
  upload(slot.shadowInstances, shadowStaging_.data(),
         (slot.shadowPointCount + slot.shadowQuadCount) * sizeof(glm::vec4));
}

void SceneRenderer::recordShadow(VkCommandBuffer cmd, int slotIndex) {
  Slot& slot = slots_.at(slotIndex);
  // Without shadows the map is not sampled: clear it once so its layout is valid for the descriptor, then skip it.
  if (!slot.shadowsOn && slot.shadowMapCleared) return;
  slot.shadowMapCleared = true;
  slot.shadowMap->begin(cmd, shadowPass_);
  if (slot.shadowPointCount + slot.shadowQuadCount) {
    const VkDeviceSize zero = 0;
    VkBuffer buffer = slot.shadowInstances.handle();
    vkCmdBindVertexBuffers(cmd, 0, 1, &buffer, &zero);
    vkCmdPushConstants(cmd, shadowLayout_, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(ShadowConstants),
                       &slot.shadowConstants);
    drawPointsThenQuads(cmd, shadowPoints_, shadowSpheres_, slot.shadowPointCount, slot.shadowQuadCount);
  }
  if (slot.shadowsOn) surfaces_->recordShadow(cmd, slotIndex, slot.shadowConstants);
  if (slot.shadowsOn && slot.external.buffer && slot.external.summary.count > 0) {
    const VkDeviceSize zero = 0;
    vkCmdBindVertexBuffers(cmd, 0, 1, &slot.external.buffer, &zero);
    vkCmdPushConstants(cmd, shadowLayout_, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(ShadowConstants),
                       &slot.shadowConstants);
    drawPointsThenQuads(cmd, VK_NULL_HANDLE, shadowInstances_, 0, uint32_t(slot.external.summary.count));
  }
  vkCmdEndRenderPass(cmd);
}

}  // namespace frac::render
