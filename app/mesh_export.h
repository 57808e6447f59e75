#pragma once
// --export-mesh: each recorded or simulated frame's fracture surfaces as DIR/mesh_NNNNNN.ply (sim/io/surface_ply.h,
// kill-safe), numbered like the PNG frames.
#include <filesystem>
#include <string>

#include "surface/surface_mesh.h"

namespace frac {

class MeshExport {
 public:
  // Creates `directory`, checks that a file can be written there and removes partial files an earlier run left;
  // throws std::invalid_argument naming the folder and the reason when it cannot (before anything is simulated).
  explicit MeshExport(std::filesystem::path directory);
  // Writes frame `frameIndex`'s surfaces; throws std::runtime_error naming the file when it cannot.
  void write(int frameIndex, const SurfaceMesh& surfaces);
  int written() const { return written_; }
  const std::filesystem::path& directory() const { return directory_; }

  static std::filesystem::path meshPath(const std::filesystem::path& directory, int frameIndex);

 private:
  std::filesystem::path directory_;
  int written_ = 0;
};

}  // namespace frac
