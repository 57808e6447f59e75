#include "surface_vertices.h"

#include <algorithm>

#include "gpu_memory.h"

namespace frac::render {

namespace {

constexpr size_t kShaderMaterials = 32;  // FrameUniforms::materialColors
const glm::vec3 kUnknownMaterial{0.7f};  // what the uniforms hold past the frame's materials

glm::vec3 materialColor(const RenderFrame& frame, size_t material) {
  material = std::min(material, kShaderMaterials - 1);
  return material < frame.materialColors.size() ? frame.materialColors[material] : kUnknownMaterial;
}

float elementScalar(const RenderFrame& f, size_t i, ColorMode mode) {
  switch (mode) {
    case ColorMode::StressRatio: return f.stressRatio[i];
    case ColorMode::Damage: return f.damage[i];
    case ColorMode::Speed: return f.speed[i];
    default: return 0.0f;
  }
}

}  // namespace

glm::vec3 elementColor(const RenderFrame& frame, size_t i, ColorMode mode, const ColorRange& range) {
  if (mode == ColorMode::Material) return materialColor(frame, frame.material[i]);
  if (frame.kind[i] == ElementKind::Kinematic) return kinematicColor();
  if (frame.kind[i] == ElementKind::Projectile) return projectileColor();
  if (mode == ColorMode::Fragment) return fragmentColor(frame.fragment[i]);
  const float t = (elementScalar(frame, i, mode) - range.min) / std::max(range.max - range.min, 1e-20f);
  return scalarColor(t);
}

glm::vec3 interiorColor(const RenderFrame& frame, size_t material) {
  if (material < frame.materialInteriorColors.size()) return frame.materialInteriorColors[material];
  return glm::mix(materialColor(frame, material), glm::vec3(1.0f), 0.5f);
}

void buildSurfaceVertices(const RenderFrame& frame, ColorMode mode, const ColorRange& range,
                          std::vector<SurfaceVertex>& out) {
  out.clear();
  if (!frame.surfaces) return;
  const SurfaceMesh& mesh = *frame.surfaces;
  const size_t n = mesh.positions.size(), elements = frame.elementCount();
  fitCapacity(out, n);
  for (size_t v = 0; v < n; ++v) {
    SurfaceVertex& s = out[v];
    s.position = mesh.positions[v];
    s.normal = mesh.normals[v];
    s.crack = mesh.crack[v];
    const int32_t e = mesh.element[v];
    if (e >= 0 && size_t(e) < elements) {
      s.color = elementColor(frame, size_t(e), mode, range);
      s.interior = interiorColor(frame, frame.material[e]);
    } else {
      s.color = mode == ColorMode::Fragment ? fragmentColor(mesh.fragment[v]) : materialColor(frame, 0);
      s.interior = interiorColor(frame, 0);
    }
  }
}

}  // namespace frac::render
