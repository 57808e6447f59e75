#include "thumbnails.h"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "core/state_digest.h"
#include "exit_code.h"
#include "frame_capture.h"
#include "offscreen_renderer.h"
#include "recorder/png_file.h"

namespace frac {

namespace {

constexpr const char* kThumbnailVersion = "1";  // bump when thumbnails should be drawn anew (renderer changes)

// FNV-1a of the text (the project's, core/state_digest.h).
uint64_t fnv1a(const std::string& text) {
  StateDigest digest;
  digest.addBytes(text.data(), text.size());
  return digest.value();
}

}  // namespace

std::filesystem::path thumbnailCacheDirectory() {
  if (const char* dir = std::getenv("FRACTURE_CACHE_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::filesystem::path(xdg) / "fracture-sandbox" / "thumbnails";
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home && *home ? home : "/tmp") / ".cache" / "fracture-sandbox" / "thumbnails";
}

std::filesystem::path thumbnailPath(const std::filesystem::path& scene) {
  std::ifstream in(scene, std::ios::binary);
  std::stringstream content;
  content << in.rdbuf();
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx",
                static_cast<unsigned long long>(fnv1a(content.str() + "\n" + kThumbnailVersion)));
  return thumbnailCacheDirectory() / (scene.stem().string() + "-" + hash + ".png");
}

int writeThumbnail(const SessionOptions& options, const std::filesystem::path& file, int width, int height) {
  return exitCodeOf([&] {
    SceneSession session(options);
    Simulation& sim = session.simulation();
    RenderFrame frame;
    sim.solver().writeFrame(frame, false);
    render::OffscreenRenderer renderer{uint32_t(width), uint32_t(height)};
    render::RenderSettings settings;
    settings.legend = false;
    renderer.submit(frame, sceneCamera(sim.scene().camera), settings);
    std::vector<uint8_t> rgba;
    renderer.collect(rgba);
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path().empty() ? "." : file.parent_path(), ec);
    const std::filesystem::path partial = file.string() + ".partial";
    std::string error;
    if (writePngFile(partial, width, height, rgba.data(), error)) std::filesystem::rename(partial, file, ec);
    if (!error.empty() || ec) {
      std::filesystem::remove(partial, ec);
      std::cerr << "error: --thumbnail " << file.string() << ": " << (error.empty() ? "cannot write it there" : error)
                << "\n";
      return 1;
    }
    return 0;
  });
}

ThumbnailMaker::ThumbnailMaker(std::vector<std::string> scenes, std::string executable)
    : scenes_(std::move(scenes)), executable_(std::move(executable)) {
  thread_ = std::thread([this] { run(); });
}

ThumbnailMaker::~ThumbnailMaker() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
    child_.terminate();
  }
  thread_.join();
}

std::vector<std::string> ThumbnailMaker::finished() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::exchange(finished_, {});
}

void ThumbnailMaker::run() {
  for (const std::string& scene : scenes_) {
    const std::string file = thumbnailPath(scene).string();
    if (std::filesystem::exists(file)) continue;
    try {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stop_) break;
      child_.start({scene, "--headless", "--thumbnail", file, "--width", std::to_string(kThumbnailWidth), "--height",
                    std::to_string(kThumbnailHeight), "--threads", "1"},
                   "", executable_);
    } catch (const std::runtime_error&) {
      break;
    }
    const int code = child_.wait();
    std::lock_guard<std::mutex> lock(mutex_);
    if (code == 0 && std::filesystem::exists(file)) finished_.push_back(scene);
  }
  done_ = true;
}

}  // namespace frac
