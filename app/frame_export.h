#pragma once
// --export DIR: each recorded or simulated frame's data (sim/io/frame_data.h) as files ParaView and Blender open:
// VTU (default) writes DIR/elements_NNNNNN.vtu, and for a method with tetrahedra DIR/tets_NNNNNN.vtu, with --export-bonds
// DIR/bonds_NNNNNN.vtu, each sequence with a .pvd collection (elements.pvd, ...) carrying every frame's simulated
// time; PLY writes DIR/elements_NNNNNN.ply point clouds. All kill-safe; frames numbered like the PNG frames.
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/render_frame.h"
#include "io/frame_data.h"
#include "solvers/solver.h"

namespace frac {

enum class ExportFormat { Vtu, Ply };

class FrameExport {
 public:
  // Prepares `directory` (export_folder.h); throws std::invalid_argument naming the folder when it cannot be used.
  FrameExport(std::filesystem::path directory, ExportFormat format, bool withBonds);
  // Writes frame `frameIndex` of `solver`, whose writeFrame gave `frame`; throws std::runtime_error naming the file
  // when it cannot.
  void write(int frameIndex, const Solver& solver, const RenderFrame& frame);
  // The same from data taken earlier (the window's simulation thread makes it), at simulated `time`.
  void write(int frameIndex, const FrameData& data, double time);
  bool withBonds() const { return withBonds_; }
  int written() const { return written_; }
  const std::filesystem::path& directory() const { return directory_; }

 private:
  std::filesystem::path directory_;
  ExportFormat format_;
  bool withBonds_;
  int written_ = 0;
  std::map<std::string, std::vector<std::pair<double, std::string>>> collections_;  // per sequence: time, file
};

// "vtu" or "ply"; std::invalid_argument otherwise.
ExportFormat exportFormatNamed(const std::string& name);

}  // namespace frac
