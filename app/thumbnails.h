#pragma once
// Scene thumbnails for the scene browser (issue "Live demos", item 3): each shipped scene at t = 0, rendered offscreen
// by the program itself (`fracture-sandbox SCENE --headless --thumbnail FILE`) and cached per scene file content, so a
// browser opened again shows them at once and an edited scene gets a fresh one.
#include <atomic>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "session/child_process.h"
#include "session/scene_session.h"

namespace frac {

inline constexpr int kThumbnailWidth = 192, kThumbnailHeight = 108;

// $FRACTURE_CACHE_DIR, else $XDG_CACHE_HOME/fracture-sandbox/thumbnails, else ~/.cache/fracture-sandbox/thumbnails.
std::filesystem::path thumbnailCacheDirectory();
// The cached thumbnail of a scene file: its stem and a hash of its content (and of the thumbnail renderer's version).
std::filesystem::path thumbnailPath(const std::filesystem::path& scene);

// --thumbnail: the scene (with its --set overrides) at t = 0 from its camera, without legend, written to `file`
// (through a temporary file: never half written). Returns the exit code (2 for a bad scene, with the message printed).
int writeThumbnail(const SessionOptions& session, const std::filesystem::path& file, int width, int height);

// Renders the missing thumbnails of `scenes` one by one in child processes (this executable with --thumbnail) on a
// thread of its own, so the window stays responsive; finished() lists those written since the last call. The
// destructor stops the child at work and waits.
class ThumbnailMaker {
 public:
  // `executable`: the program that renders them (this one; a test passes the sandbox's path).
  explicit ThumbnailMaker(std::vector<std::string> scenes, std::string executable = "");
  ~ThumbnailMaker();
  ThumbnailMaker(const ThumbnailMaker&) = delete;
  ThumbnailMaker& operator=(const ThumbnailMaker&) = delete;
  std::vector<std::string> finished();  // scene paths whose thumbnail file now exists
  bool done() const { return done_; }

 private:
  void run();

  std::vector<std::string> scenes_;
  std::string executable_;
  std::mutex mutex_;
  std::vector<std::string> finished_;  // guarded by mutex_
  ChildProcess child_;                 // started under mutex_; waited for by the maker's thread
  std::atomic<bool> stop_{false}, done_{false};
  std::thread thread_;
};

}  // namespace frac
