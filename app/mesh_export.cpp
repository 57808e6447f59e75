#include "mesh_export.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "io/surface_ply.h"

namespace frac {

namespace fs = std::filesystem;

MeshExport::MeshExport(fs::path directory) : directory_(std::move(directory)) {
  const std::string folder = "cannot export meshes into '" + directory_.string() + "': ";
  std::error_code ec;
  fs::create_directories(directory_, ec);
  if (ec) throw std::invalid_argument(folder + ec.message());
  if (!fs::is_directory(directory_, ec)) throw std::invalid_argument(folder + "not a folder");
  const fs::path probe = directory_ / (".write_test_" + std::to_string(getpid()));
  {
    std::ofstream out(probe, std::ios::binary | std::ios::trunc);
    if (!out) throw std::invalid_argument(folder + std::strerror(errno));
  }
  fs::remove(probe, ec);
  for (const auto& entry : fs::directory_iterator(directory_, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("mesh_") && name.ends_with(".ply.partial")) fs::remove(entry.path(), ec);
  }
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
