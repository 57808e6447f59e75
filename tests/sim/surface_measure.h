#pragma once
// Per fragment of a surface mesh: whether it is closed, its area and the volume it encloses (tests of sim/surface and
// of fem-debris' split surface).
#include <array>
#include <cstdint>
#include <vector>
#include <map>
#include <utility>

#include "surface/surface_mesh.h"

namespace frac::test {

struct PieceMeasure {
  double area = 0.0, volume = 0.0;  // volume: the divergence theorem over its triangles
  long long openEdges = 0;          // directed edges whose reverse is not there exactly once
  int triangles = 0;
};

// Edges are matched by vertex index, each directed edge with exactly one reverse (a closed manifold); or, with a weld
// distance, between vertices of one fragment closer than it, each directed edge as often as its reverse (a closed
// surface that may hold coincident faces in opposite pairs: a crack inside a piece, or outer and crack faces meeting
// along an edge with vertices of their own).
inline std::map<uint32_t, PieceMeasure> measurePieces(const SurfaceMesh& mesh, double weld = 0.0) {
  std::map<uint32_t, PieceMeasure> pieces;
  std::vector<uint32_t> welded(mesh.positions.size());  // each vertex's stand-in: the first one within `weld`
  std::map<std::array<long long, 4>, std::vector<uint32_t>> cells;  // fragment and cell of `weld` edge: the stand-ins
  for (uint32_t v = 0; v < welded.size(); ++v) {
    welded[v] = v;
    if (weld <= 0.0) continue;
    const glm::dvec3 p(mesh.positions[v]);
    const glm::dvec3 cell = glm::floor(p / weld);
    bool found = false;
    for (int dx = -1; dx <= 1 && !found; ++dx)
      for (int dy = -1; dy <= 1 && !found; ++dy)
        for (int dz = -1; dz <= 1 && !found; ++dz) {
          const auto it = cells.find({(long long)cell.x + dx, (long long)cell.y + dy, (long long)cell.z + dz,
                                      (long long)mesh.fragment[v]});
          if (it == cells.end()) continue;
          for (uint32_t u : it->second)
            if (glm::length(glm::dvec3(mesh.positions[u]) - p) <= weld) {
              welded[v] = u;
              found = true;
              break;
            }
        }
    if (!found) cells[{(long long)cell.x, (long long)cell.y, (long long)cell.z, (long long)mesh.fragment[v]}].push_back(v);
  }
  auto id = [&](uint32_t v) { return welded[v]; };
  const bool byPosition = weld > 0.0;
  std::map<std::pair<uint32_t, uint32_t>, int> directed;
  for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    const uint32_t i[3] = {mesh.indices[t], mesh.indices[t + 1], mesh.indices[t + 2]};
    const glm::dvec3 a(mesh.positions[i[0]]), b(mesh.positions[i[1]]), c(mesh.positions[i[2]]);
    PieceMeasure& m = pieces[mesh.fragment[i[0]]];
    m.area += 0.5 * glm::length(glm::cross(b - a, c - a));
    m.volume += glm::dot(a, glm::cross(b, c)) / 6.0;
    ++m.triangles;
    for (int k = 0; k < 3; ++k) ++directed[{id(i[k]), id(i[(k + 1) % 3])}];
  }
  for (const auto& [edge, count] : directed) {
    const auto reverse = directed.find({edge.second, edge.first});
    const int reverseCount = reverse == directed.end() ? 0 : reverse->second;
    const bool matched = byPosition ? count == reverseCount : count == 1 && reverseCount == 1;
    if (!matched) ++pieces[mesh.fragment[edge.first]].openEdges;
  }
  return pieces;
}

}  // namespace frac::test
