// FrameRecorder: saves rendered frames as a numbered PNG sequence on a writer thread and, when asked, pipes them to
// ffmpeg for an MP4. Frames are written atomically (temporary name, then rename), so a killed run leaves only
// complete frame_*.png files.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace frac {

struct RecorderOptions {
  std::filesystem::path directory;  // frames go to directory/frames/frame_000000.png, frame_000001.png, ...
  std::filesystem::path video;      // empty: no video; else raw RGBA frames are piped to ffmpeg writing this MP4
  int fps = 60;                     // video frame rate
  int queueLimit = 8;               // frames waiting for the writer thread before submit() blocks (bounded memory)
};

class RecorderError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct VideoPipe;  // the ffmpeg child process; defined in frame_recorder.cpp

// Use from one producer thread: submit() frames in order, then finish() (or let the destructor do it).
class FrameRecorder {
 public:
  // Creates directory/frames and removes leftover partial files there; throws RecorderError naming the folder and
  // the reason when it cannot.
  explicit FrameRecorder(RecorderOptions options);
  // Calls finish(); never throws (an error not yet reported is printed to stderr).
  ~FrameRecorder();
  FrameRecorder(const FrameRecorder&) = delete;
  FrameRecorder& operator=(const FrameRecorder&) = delete;

  // Queues one RGBA8 frame (rows top to bottom, width*height*4 bytes); blocks only while queueLimit frames wait.
  // Throws RecorderError on a wrong size or index, after finish(), or once an earlier frame failed to write.
  void submit(int frameIndex, int width, int height, std::vector<uint8_t> rgba);
  // Waits for all queued frames and for ffmpeg to exit. Idempotent; throws RecorderError for a write error that
  // submit() has not reported yet.
  void finish();

  int framesWritten() const { return framesWritten_; }
  // One line for the user about the video; final after finish(). Empty when no video was requested.
  const std::string& videoStatus() const { return videoStatus_; }
  const std::filesystem::path& framesDirectory() const { return framesDir_; }

  static std::filesystem::path framePath(const std::filesystem::path& directory, int frameIndex);

 private:
  struct Frame {
    int index = 0;
    int width = 0;
    int height = 0;
    std::vector<uint8_t> rgba;
  };

  std::filesystem::path partialPath(int frameIndex) const;
  void writerLoop();
  bool writePng(const Frame& frame, std::string& error) const;
  void feedVideo(const Frame& frame);
  std::string closeVideo();

  RecorderOptions options_;
  std::filesystem::path framesDir_;
  std::filesystem::path ffmpeg_;  // empty: no video
  std::string videoStatus_;       // written by the caller's thread only

  // Shared between the caller and the writer thread, guarded by mutex_.
  std::mutex mutex_;
  std::condition_variable hasWork_;
  std::condition_variable hasRoom_;
  std::deque<Frame> queue_;
  bool stopping_ = false;
  std::string error_;  // first write error; later frames are dropped
  std::atomic<int> framesWritten_{0};

  // Caller's thread only.
  bool finished_ = false;
  bool errorReported_ = false;

  // Writer thread only.
  std::unique_ptr<VideoPipe> video_;
  std::string videoNote_;  // why the video stopped early, if it did

  std::thread writer_;  // last: starts once everything above exists
};

}  // namespace frac
