#pragma once
// Reading a closed triangle mesh from an OBJ file (tinyobjloader): triangulated, welded, checked for holes.
#include <cstddef>
#include <string>
#include <vector>

#include "core/math.h"

namespace frac {

struct TriangleMesh {
  std::vector<vec3> vertices;
  std::vector<glm::uvec3> triangles;  // vertex indices
};

// Reads `path` and multiplies the coordinates by `scale`. Vertices at identical positions are merged.
// Throws SceneError naming the file when it is missing or unreadable, has no triangles, or is not closed.
TriangleMesh loadClosedObj(const std::string& path, float scale);

// Edges whose two sides do not cancel: 0 for a closed, consistently oriented mesh.
std::size_t countOpenEdges(const TriangleMesh& mesh);

}  // namespace frac
