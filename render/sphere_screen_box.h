#pragma once
// Screen footprint of a sphere impostor: what decides culling and the point sprite / quad choice.
#include <glm/glm.hpp>
#include <vulkan/vulkan.h>

namespace frac::render {

// Screen footprint of a sphere (pixels, y down).
struct SphereScreenBox {
  bool valid = false;  // false: behind or reaching the eye plane (drawn as a quad, never culled)
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // exact bounding box of the silhouette, one pixel of margin
  float centreX = 0, centreY = 0;        // projection of the centre
  float innerRadius = 0;                 // a disc around the centre's projection inside the silhouette
  float centreDepth = 0, nearDepth = 0;  // view depth of the centre and of the nearest point
};
SphereScreenBox sphereScreenBox(const glm::mat4& view, const glm::mat4& proj, VkExtent2D extent,
                                const glm::vec3& centre, float radius);

}  // namespace frac::render
