#include "mesh_export.h"

#include <cstdio>

#include "export_folder.h"
#include "io/surface_ply.h"

namespace frac {

namespace fs = std::filesystem;

MeshExport::MeshExport(fs::path directory) : directory_(std::move(directory)) {
  prepareExportFolder(directory_, "meshes");
}

fs::path MeshExport::meshPath(const fs::path& directory, int frameIndex) {
  char name[32];
  std::snprintf(name, sizeof name, "mesh_%06d.ply", frameIndex);
  return directory / name;
}

void MeshExport::write(int frameIndex, const SurfaceMesh& surfaces) {
  writeSurfacePly(surfaces, meshPath(directory_, frameIndex).string());
  ++written_;
}

}  // namespace frac
