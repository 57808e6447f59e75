#pragma once
// What the window keeps of its frames: screenshots, and live recording of every simulated frame (the simulation waits
// for each in lockstep) with or without the panels, ending with the replay log that re-simulates the recording.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "camera.h"
#include "render_settings.h"
#include "session/replay_file.h"
#include "session/sim_thread.h"
#include "ui/ui_state.h"
#include "window/window_app.h"

namespace frac {

class FrameRecorder;
class MeshExport;
class FrameExport;

// Pixels in the swapchain's format (BGRA or RGBA) -> opaque RGBA for PNGs.
void toOpaqueRgba(std::vector<uint8_t>& pixels, bool bgra);
// Writes a PNG (creating its folder); false after printing why not.
bool writeScreenshot(const std::string& path, int width, int height, const std::vector<uint8_t>& pixels);

// The run's replay log so far: the session at its last reset and the commands since (frames and range not set).
ReplayLog runLog(const SessionOptions& session, SimThread& sim);
// The command-line options that render as the window does: camera, colour and draw modes, shadows, bonds, clipping.
std::vector<std::string> renderArguments(const render::Camera& camera, const render::RenderSettings& settings);

class WindowRecording {
 public:
  // Reads the session to log and whether --exit-after keeps the simulation in lockstep from `options` when stopping.
  explicit WindowRecording(const WindowOptions& options);
  ~WindowRecording();

  bool active() const { return bool(recorder_); }
  // The recording writes each frame's fracture surfaces too (the simulation thread must extract them).
  bool exportsMeshes() const { return bool(meshes_); }
  bool exportsData() const { return bool(data_); }
  // Starts into ui.record.folder at the document's fps; an error goes to ui.record.status.
  void start(ui::UiState& ui, SimThread& sim);
  // Finishes the frames and writes replay.jsonl into the folder.
  void stop(ui::UiState& ui, SimThread& sim);
  // This loop's frame is to be captured: a new simulated frame, or one not captured last loop, not yet written; with
  // meshes, one that has its surfaces, with data its data (frames held in lockstep have them: start() asks first).
  bool due(const SimSnapshot& shown, bool fresh) const {
    return recorder_ && (fresh || retry_) && shown.frameIndex != lastRecordedFrame_ && shown.frameIndex > 0 &&
           (!meshes_ || shown.frame.surfaces) && (!data_ || shown.data);
  }
  // A due frame was not drawn as asked: the next loop tries again (the simulation still waits).
  void retryNextLoop(bool retry) { retry_ = retry; }
  // Writes the due frame's pixels (opaque RGBA) and surfaces and lets the simulation go on.
  void write(ui::UiState& ui, SimThread& sim, const SimSnapshot& shown, int width, int height,
             std::vector<uint8_t> pixels);

 private:
  const WindowOptions& options_;
  std::unique_ptr<FrameRecorder> recorder_;
  std::unique_ptr<MeshExport> meshes_;
  std::unique_ptr<FrameExport> data_;
  int recordFrom_ = -1, lastRecordedFrame_ = -1;
  bool retry_ = false;
};

}  // namespace frac
