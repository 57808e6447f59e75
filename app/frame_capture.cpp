#include "frame_capture.h"

#include <iostream>
#include <sstream>
#include <stdexcept>

#include "legend.h"
#include "offscreen_renderer.h"
#include "recorder/frame_recorder.h"
#include "solvers/solver.h"

namespace frac {

namespace {

// The comma-separated numbers of an option's value; throws std::invalid_argument naming the option and the item.
std::vector<float> parseNumbers(const std::string& option, const std::string& spec) {
  std::vector<float> values;
  std::stringstream in(spec);
  std::string item;
  while (std::getline(in, item, ',')) {
    try {
      size_t used = 0;
      values.push_back(std::stof(item, &used));
      if (used != item.size()) throw std::invalid_argument(item);
    } catch (const std::exception&) {
      throw std::invalid_argument(option + " '" + spec + "': '" + item + "' is not a number");
    }
  }
  return values;
}

}  // namespace

render::Camera parseCamera(const std::string& spec) {
  const std::vector<float> values = parseNumbers("--camera", spec);
  if (values.size() != 6 && values.size() != 7)
    throw std::invalid_argument("--camera '" + spec + "': expected 6 or 7 numbers ex,ey,ez,tx,ty,tz[,fov], got " +
                                std::to_string(values.size()));
  render::Camera c;
  c.eye = {values[0], values[1], values[2]};
  c.target = {values[3], values[4], values[5]};
  if (values.size() == 7) c.fovYDegrees = values[6];
  if (glm::length(c.eye - c.target) <= 0.0f) throw std::invalid_argument("--camera '" + spec + "': eye == target");
  if (!(c.fovYDegrees > 1.0f && c.fovYDegrees < 170.0f))
    throw std::invalid_argument("--camera '" + spec + "': fov must be between 1 and 170 degrees");
  return c;
}

void parseClipPlane(const std::string& spec, render::RenderSettings& settings) {
  glm::vec4 plane(0.0f, 0.0f, 1.0f, 0.0f);
  if (!spec.empty()) {
    const std::vector<float> values = parseNumbers("--clip", spec);
    if (values.size() != 4)
      throw std::invalid_argument("--clip '" + spec + "': expected 4 numbers nx,ny,nz,d, got " +
                                  std::to_string(values.size()));
    const glm::vec3 n(values[0], values[1], values[2]);
    if (!(glm::length(n) > 0.0f)) throw std::invalid_argument("--clip '" + spec + "': the normal is zero");
    plane = glm::vec4(glm::normalize(n), values[3] / glm::length(n));
  }
  settings.clip = true;
  settings.clipPlane = plane;
}

render::Camera sceneCamera(const CameraDesc& desc) {
  render::Camera c;
  c.eye = desc.eye;
  c.target = desc.target;
  c.fovYDegrees = desc.fovDeg;
  return c;
}

FrameCapture::FrameCapture(const CaptureOptions& options, const SceneDesc& scene)
    : options_(options), title_(scene.name) {
  camera_ = options.camera.empty() ? sceneCamera(scene.camera) : parseCamera(options.camera);
  render::ContextOptions context;
  context.validation = options.validation;
  renderer_ = std::make_unique<render::OffscreenRenderer>(uint32_t(options.width), uint32_t(options.height), context);
  deviceName_ = renderer_->context().deviceName();
  RecorderOptions rec;
  rec.directory = options.directory;
  rec.video = options.video;
  rec.fps = options.fps;
  recorder_ = std::make_unique<FrameRecorder>(rec);
}

FrameCapture::~FrameCapture() = default;

void FrameCapture::capture(Solver& solver, int frameIndex, int fragments,
                           std::shared_ptr<const SurfaceMesh> surfaces) {
  solver.writeFrame(frame_, options_.settings.bonds);
  frame_.surfaces = std::move(surfaces);
  auto legend = [&](const render::ColorRange& range) {
    render::LegendInfo info;
    info.title = title_;
    info.mode = options_.settings.colorMode;
    info.range = range;
    info.materialNames = frame_.materialNames;
    info.materialColors = frame_.materialColors;
    info.fragments = fragments;
    info.time = frame_.time;
    render::drawLegendWindow(info);
  };
  if (options_.settings.legend)
    renderer_->render(frame_, camera_, options_.settings, pixels_, legend);
  else
    renderer_->render(frame_, camera_, options_.settings, pixels_);
  frame_.surfaces.reset();  // uploaded: the caller may rewrite its mesh for the next frame
  recorder_->submit(frameIndex, options_.width, options_.height, std::move(pixels_));
  pixels_ = {};
}

void FrameCapture::finish() {
  recorder_->finish();
  std::cerr << "recorded " << recorder_->framesWritten() << " frames into " << recorder_->framesDirectory().string()
            << " (" << deviceName_ << ")\n";
  if (!recorder_->videoStatus().empty()) std::cerr << recorder_->videoStatus() << "\n";
}

int FrameCapture::framesWritten() const { return recorder_->framesWritten(); }

}  // namespace frac
