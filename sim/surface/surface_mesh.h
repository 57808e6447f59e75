#pragma once
// The fracture surfaces of a frame (sim/surface/fracture_surfaces.h): one closed triangle mesh per fragment, welded
// (a vertex per grid edge the surface crosses), with what the renderer and the exporters need per vertex.
#include <cstdint>
#include <vector>

#include "core/math.h"

namespace frac {

struct SurfaceMesh {
  std::vector<vec3> positions;
  std::vector<vec3> normals;      // area-weighted, outward
  std::vector<uint32_t> fragment; // the fragment colour key (smallest element index of the piece, as RenderFrame)
  std::vector<int32_t> element;   // the element whose cell the vertex lies on (its material and colour scalars)
  std::vector<float> crack;       // 1 on a crack face (a fracture group's plane), 0 on the outer surface
  std::vector<uint32_t> indices;  // triangles, counter-clockwise seen from outside
  int pieces = 0;                 // fragments with a surface
  // Where the last extraction's wall time went (ms), each phase ending at a point where the device is idle: the grids
  // laid out, the cells grown until the surface closes, the mesh built, the mesh copied into these vectors.
  double layOutMs = 0, growMs = 0, polygoniseMs = 0, collectMs = 0;

  size_t triangleCount() const { return indices.size() / 3; }
  // Empties the mesh, keeping the storage for the next frame's.
  void clear() {
    positions.clear();
    normals.clear();
    fragment.clear();
    element.clear();
    crack.clear();
    indices.clear();
    pieces = 0;
    layOutMs = growMs = polygoniseMs = collectMs = 0;
  }
};

// How fine the surfaces are sampled.
struct SurfaceSettings {
  float cellSize = 1.0f;  // grid cell edge in element radii (the smallest member element's); debris: 1.5 times that
};

}  // namespace frac
