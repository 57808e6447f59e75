#include "recorder/frame_recorder.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <system_error>

#include "recorder/png_file.h"

namespace frac {
namespace fs = std::filesystem;

namespace {

std::string sizeText(int width, int height) { return std::to_string(width) + "x" + std::to_string(height); }

sigset_t sigpipeSet() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGPIPE);
  return set;
}

bool isPartialName(const std::string& name) {
  const std::string prefix = ".frame_", suffix = ".png.partial";
  return name.size() > prefix.size() + suffix.size() && name.starts_with(prefix) && name.ends_with(suffix);
}

std::string firstLineOf(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) return line;
  return {};
}

}  // namespace

// ffmpeg reading raw RGBA frames on its stdin, its messages going to a log file. Used by the writer thread, and by
// finish() once that thread has ended.
struct VideoPipe {
  pid_t pid = -1;
  int input = -1;  // write end of ffmpeg's stdin
  int width = 0;
  int height = 0;
  int frames = 0;
  fs::path log;

  ~VideoPipe() { close(); }

  bool start(const fs::path& ffmpeg, const RecorderOptions& options, int w, int h, std::string& error) {
    width = w;
    height = h;
    log = options.directory / "ffmpeg.log";
    // Odd sizes are padded by one pixel: yuv420p needs even ones.
    const std::vector<std::string> args = {
        ffmpeg.string(), "-f",      "rawvideo", "-pix_fmt", "rgba",    "-s",       sizeText(w, h),
        "-r",            std::to_string(options.fps), "-i", "-", "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2",
        "-c:v",          "libx264", "-pix_fmt", "yuv420p",  "-y",      "-loglevel", "error",
        options.video.string()};
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);

    int ends[2];
    if (::pipe2(ends, O_CLOEXEC) != 0) {
      error = "pipe: " + systemError(errno);
      return false;
    }
    const int logFd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (logFd < 0) {
      error = "cannot create " + log.string() + ": " + systemError(errno);
      ::close(ends[0]);
      ::close(ends[1]);
      return false;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, ends[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, logFd, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, logFd, STDERR_FILENO);
    // The writer thread blocks SIGPIPE; ffmpeg starts with no blocked signals and default SIGPIPE handling.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none;
    sigemptyset(&none);
    const sigset_t pipeSignal = sigpipeSet();
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &pipeSignal);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    const int rc = ::posix_spawn(&pid, argv[0], &actions, &attr, argv.data(), environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    ::close(ends[0]);
    ::close(logFd);
    if (rc != 0) {
      pid = -1;
      ::close(ends[1]);
      error = systemError(rc);
      return false;
    }
    input = ends[1];
    return true;
  }

  bool write(const uint8_t* data, size_t size, std::string& error) {
    while (size > 0) {
      const ssize_t n = ::write(input, data, size);
      if (n > 0) {
        data += n;
        size -= static_cast<size_t>(n);
      } else if (n < 0 && errno != EINTR) {
        const int err = errno;
        if (err == EPIPE) {  // ffmpeg has exited; drop the SIGPIPE this thread has pending
          const sigset_t pipeSignal = sigpipeSet();
          const timespec now{};
          ::sigtimedwait(&pipeSignal, nullptr, &now);
        }
        error = systemError(err);
        return false;
      }
    }
    ++frames;
    return true;
  }

  // Closes ffmpeg's input (it then finishes the file) and waits for it. Returns "" when it exited cleanly, else
  // what went wrong.
  std::string close() {
    if (input >= 0) ::close(input);
    input = -1;
    if (pid < 0) return {};
    int status = 0;
    pid_t r;
    do r = ::waitpid(pid, &status, 0);
    while (r < 0 && errno == EINTR);
    pid = -1;
    if (r < 0) return {};  // the application reaps children itself (SIGCHLD ignored): the exit status is lost
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
    std::string what = WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                         : "killed by signal " + std::to_string(WTERMSIG(status));
    const std::string line = firstLineOf(log);
    if (!line.empty()) what += ": " + line;
    return what + "; log in " + log.string();
  }
};

fs::path FrameRecorder::framePath(const fs::path& directory, int frameIndex) {
  char name[32];
  std::snprintf(name, sizeof name, "frame_%06d.png", frameIndex);
  return directory / "frames" / name;
}

fs::path FrameRecorder::partialPath(int frameIndex) const {
  char name[40];
  std::snprintf(name, sizeof name, ".frame_%06d.png.partial", frameIndex);
  return framesDir_ / name;
}

FrameRecorder::FrameRecorder(RecorderOptions options)
    : options_(std::move(options)), framesDir_(options_.directory / "frames") {
  if (options_.directory.empty()) throw RecorderError("frame recorder: no output folder given");
  std::error_code ec;
  fs::create_directories(framesDir_, ec);
  if (!ec && !fs::is_directory(framesDir_, ec)) ec = std::make_error_code(std::errc::not_a_directory);
  if (!ec && ::access(framesDir_.c_str(), W_OK | X_OK) != 0) ec.assign(errno, std::generic_category());
  if (ec) throw RecorderError("cannot use frame folder " + framesDir_.string() + ": " + ec.message());

  // Partial files are what a killed run left behind; complete frames always have their final name.
  for (const fs::directory_entry& entry : fs::directory_iterator(framesDir_, ec)) {
    if (!isPartialName(entry.path().filename().string())) continue;
    if (!fs::remove(entry.path(), ec) && ec) break;
  }
  if (ec) throw RecorderError("cannot clean frame folder " + framesDir_.string() + ": " + ec.message());

  if (options_.queueLimit < 1) options_.queueLimit = 1;
  if (!options_.video.empty()) {
    if (options_.fps <= 0) throw RecorderError("video frame rate must be positive, got " + std::to_string(options_.fps));
    const std::string out = options_.video.string();
    if (const auto ffmpeg = findOnPath("ffmpeg")) {
      ffmpeg_ = *ffmpeg;
      videoStatus_ = "video: " + out + " (recording, ffmpeg)";
    } else {
      videoStatus_ = "video: ffmpeg not found on PATH, no " + out + " written (install Debian's ffmpeg; the PNG frames are in " +
                     framesDir_.string() + ")";
    }
  }
  writer_ = std::thread(&FrameRecorder::writerLoop, this);
}

FrameRecorder::~FrameRecorder() {
  try {
    finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "frame recorder: %s\n", e.what());
  } catch (...) {
  }
}

void FrameRecorder::submit(int frameIndex, int width, int height, std::vector<uint8_t> rgba) {
  const std::string frame = "frame " + std::to_string(frameIndex);
  if (finished_) throw RecorderError(frame + " submitted after finish()");
  if (frameIndex < 0) throw RecorderError(frame + ": the frame index must not be negative");
  if (width <= 0 || height <= 0) throw RecorderError(frame + ": invalid size " + sizeText(width, height));
  const size_t expected = static_cast<size_t>(width) * static_cast<size_t>(height) * 4;
  if (rgba.size() != expected)
    throw RecorderError(frame + ": " + std::to_string(rgba.size()) + " bytes given, a " + sizeText(width, height) +
                        " RGBA8 frame needs " + std::to_string(expected));

  std::unique_lock lock(mutex_);
  hasRoom_.wait(lock, [this] { return queue_.size() < static_cast<size_t>(options_.queueLimit) || !error_.empty(); });
  if (!error_.empty()) {
    errorReported_ = true;
    throw RecorderError(error_);
  }
  queue_.push_back(Frame{frameIndex, width, height, std::move(rgba)});
  lock.unlock();
  hasWork_.notify_one();
}

void FrameRecorder::finish() {
  if (!finished_) {
    finished_ = true;
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    hasWork_.notify_one();
    writer_.join();
    if (!ffmpeg_.empty()) videoStatus_ = closeVideo();
  }
  std::lock_guard lock(mutex_);
  if (!error_.empty() && !errorReported_) {
    errorReported_ = true;
    throw RecorderError(error_);
  }
}

void FrameRecorder::writerLoop() {
  // Writing to a pipe whose reader has exited raises SIGPIPE, which kills the process by default. Blocked on this
  // thread, the write fails with EPIPE instead.
  const sigset_t pipeSignal = sigpipeSet();
  pthread_sigmask(SIG_BLOCK, &pipeSignal, nullptr);

  for (;;) {
    Frame frame;
    {
      std::unique_lock lock(mutex_);
      hasWork_.wait(lock, [this] { return !queue_.empty() || stopping_; });
      if (queue_.empty()) return;  // stopping, all written
      frame = std::move(queue_.front());
      queue_.pop_front();
    }
    hasRoom_.notify_one();

    std::string error;
    try {
      if (writePng(frame, error)) {
        ++framesWritten_;
        feedVideo(frame);
        continue;
      }
    } catch (const std::exception& e) {
      error = "frame " + std::to_string(frame.index) + ": " + e.what();
    }
    // The first error stops the recording: queued frames are dropped and submit() reports it.
    std::lock_guard lock(mutex_);
    error_ = error;
    queue_.clear();
    hasRoom_.notify_one();
  }
}

// Writes the frame under a temporary name, then renames it: a complete frame appears at once or not at all.
bool FrameRecorder::writePng(const Frame& frame, std::string& error) const {
  const fs::path target = framePath(options_.directory, frame.index);
  const fs::path partial = partialPath(frame.index);
  std::string reason;
  if (writePngFile(partial, frame.width, frame.height, frame.rgba.data(), reason)) {
    std::error_code ec;
    fs::rename(partial, target, ec);
    if (!ec) return true;
    reason = ec.message();
    fs::remove(partial, ec);
  }
  error = "cannot write frame " + target.string() + ": " + reason;
  return false;
}

// Sends the frame to ffmpeg, starting it on the first frame. Video problems never stop the PNG sequence.
void FrameRecorder::feedVideo(const Frame& frame) {
  if (ffmpeg_.empty() || !videoNote_.empty()) return;  // no video, or it has stopped
  if (!video_) {
    auto video = std::make_unique<VideoPipe>();
    std::string error;
    if (!video->start(ffmpeg_, options_, frame.width, frame.height, error)) {
      videoNote_ = "could not start " + ffmpeg_.string() + " (" + error + ")";
      return;
    }
    video_ = std::move(video);
  }
  if (frame.width != video_->width || frame.height != video_->height) {
    videoNote_ = "frame " + std::to_string(frame.index) + " is " + sizeText(frame.width, frame.height) +
                 " but the video is " + sizeText(video_->width, video_->height) + ", so the video ends before it";
    return;
  }
  std::string error;
  if (!video_->write(frame.rgba.data(), frame.rgba.size(), error))
    videoNote_ = "ffmpeg stopped reading frames (" + error + ")";
}

// Lets ffmpeg finish and describes the outcome in one line.
std::string FrameRecorder::closeVideo() {
  const std::string out = options_.video.string();
  const std::string pngs = "; the PNG frames are in " + framesDir_.string();
  if (!video_) {
    if (!videoNote_.empty()) return "video: " + videoNote_ + ", no " + out + " written" + pngs;
    return "video: no frames recorded, no " + out + " written";
  }
  const std::string failure = video_->close();
  const std::string frames = std::to_string(video_->frames) + " frames";
  if (!failure.empty()) return "video: ffmpeg failed (" + failure + "), " + out + " is missing or incomplete" + pngs;
  std::error_code ec;
  fs::remove(video_->log, ec);  // ffmpeg succeeded: nothing worth keeping in its log
  if (!videoNote_.empty()) return "video: " + out + " (" + frames + ", ffmpeg), stopped early: " + videoNote_ + pngs;
  return "video: " + out + " (" + frames + ", ffmpeg)";
}

}  // namespace frac
