#include "window/window_capture.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>

#include "frame_export.h"
#include "mesh_export.h"
#include "recorder/frame_recorder.h"
#include "recorder/png_file.h"
#include "color_map.h"
#include "session/replay_file.h"

namespace frac {

namespace fs = std::filesystem;

void toOpaqueRgba(std::vector<uint8_t>& pixels, bool bgra) {
  for (size_t p = 0; p < pixels.size(); p += 4) {
    if (bgra) std::swap(pixels[p], pixels[p + 2]);
    pixels[p + 3] = 255;
  }
}

bool writeScreenshot(const std::string& path, int width, int height, const std::vector<uint8_t>& pixels) {
  std::error_code ec;
  if (fs::path(path).has_parent_path()) fs::create_directories(fs::path(path).parent_path(), ec);
  std::string error;
  if (writePngFile(path, width, height, pixels.data(), error)) return true;
  std::cerr << "error: screenshot " << path << ": " << error << "\n";
  return false;
}

WindowRecording::WindowRecording(const WindowOptions& options) : options_(options) {}

WindowRecording::~WindowRecording() = default;

void WindowRecording::start(ui::UiState& ui, SimThread& sim) {
  ui.record.startRequested = false;
  RecorderOptions options;
  options.directory = ui.record.folder;
  options.fps = int(std::lround(ui.document.value("fps", 60.0)));
  try {
    if (ui.record.exportMeshes) meshes_ = std::make_unique<MeshExport>(ui.record.meshFolder);
    if (ui.record.exportData) data_ = std::make_unique<FrameExport>(ui.record.dataFolder, ExportFormat::Vtu, ui.record.exportBonds);
    recorder_ = std::make_unique<FrameRecorder>(options);
  } catch (const std::exception& e) {
    meshes_.reset();
    data_.reset();
    ui.record.status = std::string("error: ") + e.what();
    return;
  }
  if (meshes_) sim.setSurfaces(true, ui.render.surfaceCellSize);  // before lockstep: every held frame has them
  if (data_) sim.setExportData(true, data_->withBonds());
  ui.record.active = true;
  ui.record.framesWritten = 0;
  recordFrom_ = -1;
  lastRecordedFrame_ = -1;
  sim.setLockstep(true);  // every simulated frame from now on waits until it is written
  ui.record.status = "recording into " + recorder_->framesDirectory().string();
}

ReplayLog runLog(const SessionOptions& session, SimThread& sim) {
  ReplayLog log;
  log.session = session;
  log.session.overrides = sim.resetOverrides();
  log.commands = sim.commandLog();
  return log;
}

std::vector<std::string> renderArguments(const render::Camera& c, const render::RenderSettings& s) {
  char camera[256];
  std::snprintf(camera, sizeof camera, "%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g", c.eye.x, c.eye.y, c.eye.z, c.target.x,
                c.target.y, c.target.z, c.fovYDegrees);
  std::vector<std::string> args = {"--camera", camera, "--color", render::colorModeName(s.colorMode), "--render",
                                   render::drawModeName(s.draw)};
  if (!s.shadows) args.push_back("--no-shadows");
  if (s.bonds) args.push_back("--bonds");
  if (s.drawSurfaces()) args.insert(args.end(), {"--surface-cell", std::to_string(s.surfaceCellSize)});
  if (s.clip) {
    char plane[160];
    std::snprintf(plane, sizeof plane, "%.9g,%.9g,%.9g,%.9g", s.clipPlane.x, s.clipPlane.y, s.clipPlane.z,
                  s.clipPlane.w);
    args.insert(args.end(), {"--clip", plane});
  }
  return args;
}

void WindowRecording::stop(ui::UiState& ui, SimThread& sim) {
  ui.record.stopRequested = false;
  sim.setLockstep(options_.exitAfterFrames >= 0);  // --exit-after keeps stopping at every frame
  if (!recorder_) return;
  try {
    recorder_->finish();
  } catch (const std::exception& e) {
    ui.record.status = std::string("error: ") + e.what();
  }
  ReplayLog log = runLog(options_.session, sim);
  log.frames = lastRecordedFrame_ >= 0 ? lastRecordedFrame_ : 0;
  log.recordFrom = std::max(recordFrom_, 0);
  const std::string replayPath = (fs::path(ui.record.folder) / "replay.jsonl").string();
  try {
    writeReplay(replayPath, log);
    ui.record.status = std::to_string(recorder_->framesWritten()) + " frames in " +
                       recorder_->framesDirectory().string() + ", " + replayPath;
  } catch (const std::exception& e) {
    ui.record.status = std::string("error: ") + e.what();
  }
  if (meshes_) ui.record.status += ", " + std::to_string(meshes_->written()) + " meshes in " + meshes_->directory().string();
  if (data_) {
    ui.record.status += ", " + std::to_string(data_->written()) + " frames of data in " + data_->directory().string();
    sim.setExportData(false, false);
  }
  recorder_.reset();
  meshes_.reset();
  data_.reset();
  ui.record.active = false;
}

void WindowRecording::write(ui::UiState& ui, SimThread& sim, const SimSnapshot& shown, int width, int height,
                            std::vector<uint8_t> pixels) {
  const int frameIndex = shown.frameIndex;
  if (recordFrom_ < 0) recordFrom_ = frameIndex - 1;
  try {
    recorder_->submit(frameIndex - 1 - recordFrom_, width, height, std::move(pixels));
    if (meshes_) meshes_->write(frameIndex - 1 - recordFrom_, *shown.frame.surfaces);
    if (data_) data_->write(frameIndex - 1 - recordFrom_, *shown.data, shown.frame.time);
    ui.record.framesWritten = recorder_->framesWritten() + 1;
  } catch (const std::exception& e) {
    ui.record.status = std::string("error: ") + e.what();
    stop(ui, sim);
  }
  lastRecordedFrame_ = frameIndex;
  sim.releaseFrame();
}

}  // namespace frac
