#include "frame_export.h"

#include <cstdio>
#include <stdexcept>

#include "export_folder.h"
#include "io/vtu_file.h"

namespace frac {

namespace fs = std::filesystem;

ExportFormat exportFormatNamed(const std::string& name) {
  if (name == "vtu") return ExportFormat::Vtu;
  if (name == "ply") return ExportFormat::Ply;
  throw std::invalid_argument("--export-format: expected vtu or ply, got '" + name + "'");
}

FrameExport::FrameExport(fs::path directory, ExportFormat format, bool withBonds)
    : directory_(std::move(directory)), format_(format), withBonds_(withBonds) {
  prepareExportFolder(directory_, "data");
}

void FrameExport::write(int frameIndex, const Solver& solver, const RenderFrame& frame) {
  write(frameIndex, frameData(solver, frame, withBonds_), frame.time);
}

void FrameExport::write(int frameIndex, const FrameData& data, double time) {
  auto fileName = [&](const std::string& sequence, const char* extension) {
    char name[96];
    std::snprintf(name, sizeof name, "%s_%06d.%s", sequence.c_str(), frameIndex, extension);
    return std::string(name);
  };
  if (format_ == ExportFormat::Ply) {
    writeElementPly(data.elements, (directory_ / fileName("elements", "ply")).string());
    ++written_;
    return;
  }
  auto add = [&](const std::string& sequence, const VtuGrid& grid) {
    const std::string file = fileName(sequence, "vtu");
    writeVtu(grid, (directory_ / file).string());
    auto& frames = collections_[sequence];
    frames.emplace_back(time, file);
    writePvd(frames, (directory_ / (sequence + ".pvd")).string());
  };
  add("elements", data.elements);
  for (const auto& [group, grid] : data.cellGroups) add(group, grid);
  ++written_;
}

}  // namespace frac
