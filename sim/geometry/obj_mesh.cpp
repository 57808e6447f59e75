#include "geometry/obj_mesh.h"

#if defined(FRACTURE_HAVE_TINYOBJ)
#include <tiny_obj_loader.h>
#endif

#include <array>
#include <cmath>
#include <filesystem>
#include <map>
#include <utility>

#include "io/scene_error.h"

namespace frac {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw SceneError("mesh file '" + path + "': " + what);
}

#if defined(FRACTURE_HAVE_TINYOBJ)
std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  return text;
}

// Maps every OBJ vertex to one index per distinct position, so that seams split by the exporter still join.
std::vector<uint32_t> weldVertices(const std::vector<tinyobj::real_t>& coords, float scale, TriangleMesh& mesh) {
  std::map<std::array<float, 3>, uint32_t> indexOfPosition;
  std::vector<uint32_t> welded(coords.size() / 3);
  for (size_t v = 0; v < welded.size(); ++v) {
    const std::array<float, 3> p{float(coords[3 * v]) * scale, float(coords[3 * v + 1]) * scale,
                                 float(coords[3 * v + 2]) * scale};
    const auto [it, added] = indexOfPosition.try_emplace(p, uint32_t(mesh.vertices.size()));
    if (added) mesh.vertices.emplace_back(p[0], p[1], p[2]);
    welded[v] = it->second;
  }
  return welded;
}

#endif

}  // namespace

TriangleMesh loadClosedObj(const std::string& path, float scale) {
  if (!std::filesystem::is_regular_file(path)) fail(path, "file not found");
  if (!(scale > 0.0f)) fail(path, "mesh scale must be > 0");
#if !defined(FRACTURE_HAVE_TINYOBJ)
  fail(path, "this build cannot read OBJ files (built without tinyobjloader: install libtinyobjloader-dev)");
#else

  tinyobj::ObjReaderConfig config;
  config.triangulate = true;
  config.vertex_color = false;
  tinyobj::ObjReader reader;
  if (!reader.ParseFromFile(path, config)) fail(path, "cannot read OBJ: " + trimmed(reader.Error()));

  const std::vector<tinyobj::real_t>& coords = reader.GetAttrib().vertices;
  for (size_t k = 0; k < coords.size(); ++k)  // NaN, or beyond float's range once scaled: the bounds would be too
    if (!std::isfinite(float(coords[k]) * scale))
      fail(path, "vertex " + std::to_string(k / 3 + 1) + " has a coordinate that is not a finite number");
  TriangleMesh mesh;
  const std::vector<uint32_t> welded = weldVertices(coords, scale, mesh);
  for (const tinyobj::shape_t& shape : reader.GetShapes()) {
    size_t first = 0;
    for (const unsigned int corners : shape.mesh.num_face_vertices) {
      if (corners == 3) {
        glm::uvec3 tri;
        for (int k = 0; k < 3; ++k) {
          const int index = shape.mesh.indices[first + k].vertex_index;
          if (index < 0 || size_t(index) >= welded.size()) fail(path, "face refers to a missing vertex");
          tri[k] = welded[index];
        }
        const bool degenerate = tri[0] == tri[1] || tri[1] == tri[2] || tri[2] == tri[0];
        if (!degenerate) mesh.triangles.push_back(tri);
      }
      first += corners;
    }
  }
  if (mesh.triangles.empty()) fail(path, "no triangles");
  if (const size_t open = countOpenEdges(mesh); open > 0)
    fail(path, "mesh is not closed (" + std::to_string(open) + " edges without a matching opposite edge)");
  return mesh;
#endif
}

std::size_t countOpenEdges(const TriangleMesh& mesh) {
  // +1 for every edge a->b with a < b, -1 for b->a: a closed oriented surface leaves every sum at 0.
  std::map<std::pair<uint32_t, uint32_t>, int> balance;
  for (const glm::uvec3& tri : mesh.triangles) {
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = tri[k], b = tri[(k + 1) % 3];
      if (a < b) ++balance[{a, b}];
      else --balance[{b, a}];
    }
  }
  std::size_t open = 0;
  for (const auto& entry : balance) open += entry.second != 0;
  return open;
}

}  // namespace frac
