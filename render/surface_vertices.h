#pragma once
// The fracture surfaces as the surface pipeline reads them: per vertex position, normal, the colour its element's
// sphere has in the current colour mode (computed here on the host, as shaders/common.glsl instanceColor does) and
// its material's interior colour, chosen per pixel by the crack flag so the edge of a crack face stays crisp.
#include <vector>

#include <glm/glm.hpp>

#include "color_map.h"
#include "core/render_frame.h"

namespace frac::render {

struct SurfaceVertex {
  glm::vec3 position;  // world
  glm::vec3 normal;    // outward
  glm::vec3 color;     // the element's colour in the colour mode, linear RGB
  glm::vec3 interior;  // its material's crack-face colour
  float crack;         // 1 on a crack face, 0 on the outer surface
};
static_assert(sizeof(SurfaceVertex) == 13 * sizeof(float), "the vertex layout of shaders/surface.vert");

// Element i's sphere colour in `mode` with the scalar map over `range` (the shader's instanceColor).
glm::vec3 elementColor(const RenderFrame& frame, size_t i, ColorMode mode, const ColorRange& range);
// The crack-face colour of a material (a lighter material colour where the frame has none).
glm::vec3 interiorColor(const RenderFrame& frame, size_t material);

// The vertices of frame.surfaces (none when null). Vertices whose element the frame's arrays lack (elements on the
// device, or no element) take their fragment's colour in the fragment mode and the first material's otherwise.
void buildSurfaceVertices(const RenderFrame& frame, ColorMode mode, const ColorRange& range,
                          std::vector<SurfaceVertex>& out);

}  // namespace frac::render
