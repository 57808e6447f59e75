#include "core/render_frame.h"

namespace frac {

RenderMesh planeMesh(const vec3& point, const vec3& normal, const vec3& centre, float halfSize, const vec3& color) {
  const vec3 n = glm::normalize(normal);
  const vec3 helper = std::abs(n.y) < 0.9f ? vec3(0, 1, 0) : vec3(1, 0, 0);
  const vec3 u = glm::normalize(glm::cross(helper, n)), w = glm::cross(n, u);
  const vec3 c = centre - glm::dot(centre - point, n) * n;
  RenderMesh mesh;
  for (const float su : {-1.0f, 1.0f})
    for (const float sw : {-1.0f, 1.0f}) {
      mesh.positions.push_back(c + halfSize * (su * u + sw * w));
      mesh.normals.push_back(n);
    }
  // corners: 0 (-u,-w), 1 (-u,+w), 2 (+u,-w), 3 (+u,+w); counter-clockwise seen from the normal side
  mesh.indices = {0, 1, 3, 0, 3, 2};
  mesh.color = color;
  mesh.grid = true;
  return mesh;
}

}  // namespace frac
