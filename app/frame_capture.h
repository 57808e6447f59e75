#pragma once
// Headless recording: after each simulated frame, the solver's RenderFrame (with the frame's fracture surfaces when
// the settings draw them) is rendered offscreen (with the legend) and handed to the FrameRecorder, which writes
// DIR/frames/frame_NNNNNN.png on its own thread.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "camera.h"
#include "core/render_frame.h"
#include "io/scene_desc.h"
#include "render_settings.h"

namespace frac {

class FrameRecorder;
class Solver;
namespace render {
class OffscreenRenderer;
}

struct CaptureOptions {
  std::filesystem::path directory;  // frames go to directory/frames
  std::filesystem::path video;      // optional MP4 through ffmpeg
  int width = 1280, height = 720;
  int fps = 60;                     // video frame rate (one output frame per simulated frame)
  std::string camera;               // "ex,ey,ez,tx,ty,tz[,fov]"; empty: the scene's camera
  render::RenderSettings settings;
  bool validation = false;          // Vulkan validation layer (debugging)
};

// Parses "ex,ey,ez,tx,ty,tz[,fov]" into a camera; throws std::invalid_argument saying what was expected.
render::Camera parseCamera(const std::string& spec);
// Parses --clip's "nx,ny,nz,d" (the half where dot(n, p) > d is cut away; n is normalised) into the settings' clipping
// plane, "" into the plane z = 0 cutting away z > 0, and turns clipping on; throws std::invalid_argument otherwise.
void parseClipPlane(const std::string& spec, render::RenderSettings& settings);
render::Camera sceneCamera(const CameraDesc& desc);

class FrameCapture {
 public:
  FrameCapture(const CaptureOptions& options, const SceneDesc& scene);  // throws on a Vulkan or folder problem
  ~FrameCapture();
  // `surfaces`: this frame's (Solver::writeSurfaces), drawn when the settings draw surfaces.
  void capture(Solver& solver, int frameIndex, int fragments, std::shared_ptr<const SurfaceMesh> surfaces = nullptr);
  void finish();  // waits for the writer; prints the video status
  int framesWritten() const;
  const std::string& deviceName() const { return deviceName_; }

 private:
  CaptureOptions options_;
  std::string title_;
  render::Camera camera_;
  std::unique_ptr<render::OffscreenRenderer> renderer_;
  std::unique_ptr<FrameRecorder> recorder_;
  RenderFrame frame_;
  std::vector<uint8_t> pixels_;
  std::string deviceName_;
};

}  // namespace frac
