#pragma once
// Closed triangle surfaces of every scene shape in its local frame, with edges of about a target length: the input
// of the tetrahedral mesher (geometry/tet_mesh.h).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "geometry/shape_desc.h"

namespace frac {

// A closed, 2-manifold surface: every undirected edge belongs to exactly two triangles, each directed edge to one,
// and every triangle is counter-clockwise seen from outside (its right-hand normal points out of the solid).
struct TriangleSurface {
  std::vector<vec3> vertices;
  std::vector<std::array<int32_t, 3>> triangles;
};

// The surface of `desc` in its local frame with edges of about `edgeLength` (m):
//   box: each face a grid of ~edgeLength cells; sphere, cylinder, capsule and revolve: the (r, y) profile polygon
//   (arcs sampled every ~edgeLength, vertices on the true curve, so curved parts are slightly inscribed) revolved
//   around local y as rings of ~2 pi r / edgeLength vertices joined band by band, with a single vertex where the
//   profile meets the axis; a revolve with wall > 0 adds the cavity's surface (reversed): the profile offset inward
//   by `wall`, the set RevolveShape keeps; mesh: the OBJ's triangles as they are (scaled by meshScale, relative
//   paths resolved against baseDir), whatever their size.
// Throws SceneError for invalid sizes or edgeLength <= 0, and (naming the file) for an OBJ that is missing, open,
// not consistently oriented or not 2-manifold.
TriangleSurface shapeTriangles(const ShapeDesc& desc, const std::string& baseDir, float edgeLength);

// Volume enclosed by the surface (divergence theorem, in double): positive for an outward-oriented closed surface.
double enclosedVolume(const TriangleSurface& surface);

}  // namespace frac
