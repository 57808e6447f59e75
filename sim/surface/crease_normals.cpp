#include "surface/crease_normals.h"

#include <cmath>
#include <vector>

namespace frac {

void creaseNormals(SurfaceMesh& mesh, float creaseDegrees) {
  const size_t vertexCount = mesh.positions.size(), triangles = mesh.indices.size() / 3;
  std::vector<vec3> area(triangles), unit(triangles);  // each triangle's area-weighted normal, and its direction
  std::vector<uint32_t> start(vertexCount + 1, 0);     // CSR: the triangles around each vertex
  for (size_t t = 0; t < triangles; ++t) {
    const uint32_t* v = &mesh.indices[3 * t];
    area[t] = glm::cross(mesh.positions[v[1]] - mesh.positions[v[0]], mesh.positions[v[2]] - mesh.positions[v[0]]);
    const float length = glm::length(area[t]);
    unit[t] = length > 0.0f ? area[t] / length : vec3(0.0f);
    for (int k = 0; k < 3; ++k) ++start[v[k] + 1];
  }
  for (size_t v = 0; v < vertexCount; ++v) start[v + 1] += start[v];
  std::vector<uint32_t> around(start[vertexCount]), fill(start.begin(), start.end() - 1);
  for (size_t t = 0; t < triangles; ++t)
    for (int k = 0; k < 3; ++k) around[fill[mesh.indices[3 * t + k]]++] = uint32_t(t);

  const float cosCrease = std::cos(creaseDegrees * float(M_PI) / 180.0f);
  // Per vertex, the normals given out so far and their vertices: a list through copyNext from firstCopy (most
  // vertices have one).
  std::vector<int32_t> firstCopy(vertexCount, -1), copyNext;
  std::vector<vec3> copyNormal;
  std::vector<uint32_t> copyVertex;
  copyNext.reserve(vertexCount);
  copyNormal.reserve(vertexCount);
  copyVertex.reserve(vertexCount);
  for (size_t t = 0; t < triangles; ++t)
    for (int k = 0; k < 3; ++k) {
      uint32_t& index = mesh.indices[3 * t + k];
      const uint32_t v = index;
      vec3 sum(0.0f);
      for (uint32_t s = start[v]; s < start[v + 1]; ++s)
        if (glm::dot(unit[around[s]], unit[t]) >= cosCrease) sum += area[around[s]];
      const vec3 normal = glm::length(sum) > 0.0f ? glm::normalize(sum) : vec3(0, 1, 0);
      int32_t c = firstCopy[v];
      while (c >= 0 && copyNormal[size_t(c)] != normal) c = copyNext[size_t(c)];
      if (c >= 0) {
        index = copyVertex[size_t(c)];
        continue;
      }
      uint32_t copy = v;
      if (firstCopy[v] >= 0) {  // a vertex of its own on this side of the crease
        copy = uint32_t(mesh.positions.size());
        mesh.positions.push_back(mesh.positions[v]);
        mesh.normals.push_back(normal);
        mesh.fragment.push_back(mesh.fragment[v]);
        mesh.element.push_back(mesh.element[v]);
        mesh.crack.push_back(mesh.crack[v]);
      }
      mesh.normals[copy] = normal;
      copyNormal.push_back(normal);
      copyVertex.push_back(copy);
      copyNext.push_back(firstCopy[v]);
      firstCopy[v] = int32_t(copyNormal.size() - 1);
      index = copy;
    }
  for (size_t v = 0; v < vertexCount; ++v)  // a vertex no triangle uses
    if (firstCopy[v] < 0) mesh.normals[v] = vec3(0, 1, 0);
}

}  // namespace frac
