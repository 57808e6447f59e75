#pragma once
// Vertex normals with sharp creases: each corner of a triangle takes the area-weighted mean normal of the triangles
// around its vertex that face within `creaseDegrees` of its own, and a vertex is split where its corners' normals
// differ. A body's edges and a shard's facets stay sharp, a curved surface stays smooth.
#include "surface/surface_mesh.h"

namespace frac {

void creaseNormals(SurfaceMesh& mesh, float creaseDegrees);

}  // namespace frac
