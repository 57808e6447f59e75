#pragma once
// Quality tetrahedral meshes of closed triangle surfaces and of every scene shape, through TetGen.
#include <array>
#include <cstdint>
#include <string>

#include "geometry/shape_triangles.h"

namespace frac {

// Nodes and tetrahedra, numbered from 0, every node used by some tet, every tet positively oriented:
// dot(cross(b - a, c - a), d - a) > 0 for tet {a, b, c, d}. tetrahedralize numbers the nodes along a Morton curve and
// lists the tets by their lowest node (a tet's corners close together in memory: the solver's passes read them so).
struct TetMesh {
  std::vector<vec3> nodes;
  std::vector<std::array<int32_t, 4>> tets;
};

// Fills the closed, outward-oriented `surface` with tetrahedra of edges about `edgeLength` (m): TetGen with a
// radius-edge ratio bound of 1.414 and a volume bound of a regular tetrahedron of that edge (see tet_mesh.cpp for
// the switches). Throws SceneError naming `what` (e.g. the body) when TetGen fails (self-intersecting or degenerate
// input, ...) or gives no tetrahedra.
TetMesh tetrahedralize(const TriangleSurface& surface, float edgeLength, const std::string& what);

// shapeTriangles (geometry/shape_triangles.h) then tetrahedralize: the shape's tet mesh in its local frame.
TetMesh tetrahedralizeShape(const ShapeDesc& desc, const std::string& baseDir, float edgeLength,
                            const std::string& what);

// Signed volume of tet t (positive for the orientation above), in double.
double tetVolume(const TetMesh& mesh, int t);
// Sum of the tets' volumes.
double meshVolume(const TetMesh& mesh);

}  // namespace frac
