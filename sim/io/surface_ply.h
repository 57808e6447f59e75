#pragma once
// Fracture surfaces as binary PLY files (readable by Blender's and ParaView's PLY importers): per vertex position,
// normal, fragment colour key and crack flag; per triangle its vertex indices, fragment and crack flag (the majority
// of its vertices). Written kill-safe: into FILE.partial, renamed to FILE when complete, so a killed run never
// leaves a half-written FILE.
#include <string>

#include "surface/surface_mesh.h"

namespace frac {

// Throws std::runtime_error naming the file and the reason when it cannot be written.
void writeSurfacePly(const SurfaceMesh& mesh, const std::string& path);

// Reads a file written by writeSurfacePly (positions, normals, fragments, crack flags, triangles; the element
// indices are not stored). Throws std::runtime_error naming the file for anything else.
SurfaceMesh readSurfacePly(const std::string& path);

}  // namespace frac
