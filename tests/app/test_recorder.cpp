// The frame recorder: exact PNG frames, atomic files, clear errors, and the ffmpeg pipe (a stand-in script when the
// real ffmpeg is missing, the real one when installed).
#include <doctest/doctest.h>

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "recorder/frame_recorder.h"
#include "recorder/png_file.h"

namespace fs = std::filesystem;
using frac::FrameRecorder;
using frac::RecorderError;
using frac::RecorderOptions;

namespace {

// A fresh folder under the system temp folder, removed afterwards.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name)
      : path(fs::temp_directory_path() / ("frac_recorder_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// Puts dir first on PATH for the life of the guard.
struct PathPrefix {
  std::string saved;
  explicit PathPrefix(const fs::path& dir) {
    const char* old = std::getenv("PATH");
    saved = old ? old : "";
    ::setenv("PATH", (dir.string() + ":" + saved).c_str(), 1);
  }
  ~PathPrefix() { ::setenv("PATH", saved.c_str(), 1); }
};

// Every channel varies, alpha included, so a swapped or premultiplied channel shows.
std::vector<uint8_t> pattern(int width, int height, int seed) {
  std::vector<uint8_t> rgba(static_cast<size_t>(width) * height * 4);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      uint8_t* p = &rgba[(static_cast<size_t>(y) * width + x) * 4];
      p[0] = static_cast<uint8_t>(x * 7 + seed);
      p[1] = static_cast<uint8_t>(y * 13 + seed * 3);
      p[2] = static_cast<uint8_t>((x ^ y) + seed * 5);
      p[3] = static_cast<uint8_t>(x + y * width + seed);
    }
  return rgba;
}

std::set<std::string> fileNames(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.insert(entry.path().filename().string());
  return names;
}

std::string readAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeScript(const fs::path& path, const std::string& text) {
  std::ofstream(path) << text;
  fs::permissions(path, fs::perms::owner_all, fs::perm_options::add);
}

template <typename F>
std::string errorOf(F&& f) {
  try {
    f();
  } catch (const RecorderError& e) {
    return e.what();
  }
  return "(no RecorderError)";
}

}  // namespace

TEST_CASE("recorder: frame names") {
  CHECK(FrameRecorder::framePath("out", 0) == fs::path("out/frames/frame_000000.png"));
  CHECK(FrameRecorder::framePath("out", 12) == fs::path("out/frames/frame_000012.png"));
  CHECK(FrameRecorder::framePath("/a/b", 123456) == fs::path("/a/b/frames/frame_123456.png"));
}

TEST_CASE("recorder: frames read back with exact pixels, and no partial files remain") {
  TempDir tmp("exact");
  const std::vector<std::pair<int, int>> sizes = {{16, 8}, {16, 8}, {5, 3}, {1, 1}};
  {
    FrameRecorder recorder({tmp.path, {}, 60, 2});
    for (int i = 0; i < static_cast<int>(sizes.size()); ++i)
      recorder.submit(i, sizes[i].first, sizes[i].second, pattern(sizes[i].first, sizes[i].second, i));
    recorder.finish();
    recorder.finish();  // idempotent
    CHECK(recorder.framesWritten() == 4);
    CHECK(recorder.videoStatus().empty());
    CHECK(recorder.framesDirectory() == tmp.path / "frames");
  }
  CHECK(fileNames(tmp.path / "frames") ==
        std::set<std::string>{"frame_000000.png", "frame_000001.png", "frame_000002.png", "frame_000003.png"});
  for (int i = 0; i < static_cast<int>(sizes.size()); ++i) {
    int width = 0, height = 0;
    std::vector<uint8_t> rgba;
    std::string error;
    REQUIRE_MESSAGE(frac::readPngFile(FrameRecorder::framePath(tmp.path, i), width, height, rgba, error), error);
    CHECK(width == sizes[i].first);
    CHECK(height == sizes[i].second);
    CHECK(rgba == pattern(width, height, i));
  }
}

TEST_CASE("recorder: a bounded queue still takes every frame") {
  TempDir tmp("queue");
  FrameRecorder recorder({tmp.path, {}, 60, 1});
  for (int i = 0; i < 30; ++i) recorder.submit(i, 64, 64, pattern(64, 64, i));
  recorder.finish();
  CHECK(recorder.framesWritten() == 30);
  CHECK(fileNames(tmp.path / "frames").size() == 30);
}

TEST_CASE("recorder: leftover partial files are removed on construction, other files kept") {
  TempDir tmp("leftover");
  const fs::path frames = tmp.path / "frames";
  fs::create_directories(frames);
  std::ofstream(frames / ".frame_000007.png.partial") << "half a frame";
  std::ofstream(frames / ".frame_000008.png.partial") << "";
  std::ofstream(frames / "notes.txt") << "mine";
  FrameRecorder recorder({tmp.path, {}, 60, 8});
  CHECK(fileNames(frames) == std::set<std::string>{"notes.txt"});
}

TEST_CASE("recorder: an unusable folder is a clear error") {
  TempDir tmp("unusable");
  std::ofstream(tmp.path / "plain_file") << "not a folder";
  const fs::path bad = tmp.path / "plain_file" / "run";
  const std::string message = errorOf([&] { FrameRecorder recorder({bad, {}, 60, 8}); });
  INFO(message);
  CHECK(message.find((bad / "frames").string()) != std::string::npos);
  CHECK(message.find("Not a directory") != std::string::npos);
}

TEST_CASE("recorder: bad frames are clear errors") {
  TempDir tmp("badframe");
  FrameRecorder recorder({tmp.path, {}, 60, 8});
  const std::string wrongSize = errorOf([&] { recorder.submit(3, 4, 4, std::vector<uint8_t>(60)); });
  INFO(wrongSize);
  CHECK(wrongSize.find("frame 3") != std::string::npos);
  CHECK(wrongSize.find("60 bytes") != std::string::npos);
  CHECK(wrongSize.find("4x4") != std::string::npos);
  CHECK(wrongSize.find("64") != std::string::npos);
  CHECK_THROWS_AS(recorder.submit(0, 0, 4, {}), RecorderError);
  CHECK_THROWS_AS(recorder.submit(-1, 1, 1, std::vector<uint8_t>(4)), RecorderError);
  recorder.submit(0, 2, 2, pattern(2, 2, 0));
  recorder.finish();
  CHECK(recorder.framesWritten() == 1);
  CHECK(errorOf([&] { recorder.submit(1, 2, 2, pattern(2, 2, 1)); }).find("after finish") != std::string::npos);
}

TEST_CASE("recorder: a write error names the file and the system error, once") {
  TempDir tmp("writeerror");
  SUBCASE("reported by finish()") {
    FrameRecorder recorder({tmp.path, {}, 60, 8});
    fs::remove_all(tmp.path / "frames");  // every write now fails with ENOENT
    recorder.submit(4, 2, 2, pattern(2, 2, 0));
    const std::string message = errorOf([&] { recorder.finish(); });
    INFO(message);
    CHECK(message.find(FrameRecorder::framePath(tmp.path, 4).string()) != std::string::npos);
    CHECK(message.find("No such file or directory") != std::string::npos);
    CHECK_NOTHROW(recorder.finish());
    CHECK(recorder.framesWritten() == 0);
  }
  SUBCASE("reported by a later submit()") {
    FrameRecorder recorder({tmp.path, {}, 60, 8});
    fs::remove_all(tmp.path / "frames");
    std::string message;
    for (int i = 0; i < 500 && message.empty(); ++i) {
      try {
        recorder.submit(i, 2, 2, pattern(2, 2, i));
      } catch (const RecorderError& e) {
        message = e.what();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    INFO(message);
    CHECK(message.find("frame_000000.png") != std::string::npos);
    CHECK(message.find("No such file or directory") != std::string::npos);
    CHECK_NOTHROW(recorder.finish());  // already reported
  }
}

TEST_CASE("recorder: frames are piped to ffmpeg in order (stand-in ffmpeg)") {
  TempDir tmp("fakeffmpeg");
  const fs::path bin = tmp.path / "bin";
  fs::create_directories(bin);
  // Saves its arguments, and its input as the output file (the last argument).
  writeScript(bin / "ffmpeg", "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$(dirname \"$0\")/args.txt\"\n"
                              "for a; do out=$a; done\ncat > \"$out\"\n");
  PathPrefix path(bin);
  const fs::path out = tmp.path / "out.mp4";
  std::string expected;
  {
    FrameRecorder recorder({tmp.path / "run", out, 30, 2});
    for (int i = 0; i < 5; ++i) {
      const std::vector<uint8_t> frame = pattern(6, 4, i);
      expected.append(frame.begin(), frame.end());
      recorder.submit(i, 6, 4, frame);
    }
    recorder.submit(5, 4, 4, pattern(4, 4, 5));  // another size: the video ends, the PNGs go on
    recorder.finish();
    CHECK(recorder.framesWritten() == 6);
    INFO(recorder.videoStatus());
    CHECK(recorder.videoStatus().find("(5 frames, ffmpeg)") != std::string::npos);
    CHECK(recorder.videoStatus().find("stopped early: frame 5 is 4x4 but the video is 6x4") != std::string::npos);
  }
  CHECK(readAll(out) == expected);
  const std::string args = readAll(bin / "args.txt");
  CHECK(args.find("rawvideo\n-pix_fmt\nrgba\n-s\n6x4\n-r\n30\n-i\n-\n") != std::string::npos);
  CHECK(fileNames(tmp.path / "run") == std::set<std::string>{"frames"});  // ffmpeg.log removed after success
  CHECK(fileNames(tmp.path / "run" / "frames").size() == 6);
}

TEST_CASE("recorder: a failing ffmpeg is reported and the PNGs go on (stand-in ffmpeg)") {
  TempDir tmp("failingffmpeg");
  const fs::path bin = tmp.path / "bin";
  fs::create_directories(bin);
  writeScript(bin / "ffmpeg", "#!/bin/sh\necho 'stand-in failure' >&2\nexit 3\n");
  PathPrefix path(bin);
  FrameRecorder recorder({tmp.path, tmp.path / "out.mp4", 60, 8});
  // Frames far larger than a pipe buffer: writes fail with EPIPE (the process must not die of SIGPIPE).
  for (int i = 0; i < 4; ++i) recorder.submit(i, 256, 256, pattern(256, 256, i));
  recorder.finish();
  CHECK(recorder.framesWritten() == 4);
  const std::string& status = recorder.videoStatus();
  INFO(status);
  CHECK(status.find("ffmpeg failed (exit status 3: stand-in failure") != std::string::npos);
  CHECK(status.find((tmp.path / "frames").string()) != std::string::npos);
  CHECK(fs::exists(tmp.path / "ffmpeg.log"));
}

TEST_CASE("recorder: MP4 video with the real ffmpeg") {
  TempDir tmp("video");
  const fs::path out = tmp.path / "out.mp4";
  FrameRecorder recorder({tmp.path, out, 30, 8});
  for (int i = 0; i < 10; ++i) recorder.submit(i, 65, 47, pattern(65, 47, i));  // odd size: padded for yuv420p
  recorder.finish();
  CHECK(recorder.framesWritten() == 10);
  const std::string& status = recorder.videoStatus();
  INFO(status);
  if (frac::findOnPath("ffmpeg")) {
    CHECK(status == "video: " + out.string() + " (10 frames, ffmpeg)");
    REQUIRE(fs::exists(out));
    CHECK(fs::file_size(out) > 0);
  } else {
    CHECK(status.find("ffmpeg not found on PATH") != std::string::npos);
    CHECK(status.find((tmp.path / "frames").string()) != std::string::npos);
    CHECK(!fs::exists(out));
    MESSAGE("ffmpeg is not installed: skipped the MP4 check (" << status << ")");
  }
}

TEST_CASE("recorder: findOnPath and readPngFile errors") {
  CHECK(frac::findOnPath("sh").has_value());
  CHECK(!frac::findOnPath("no-such-program-frac-test").has_value());
  CHECK(!frac::findOnPath("").has_value());
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;
  std::string error;
  CHECK(!frac::readPngFile("/nonexistent/frame.png", width, height, rgba, error));
  CHECK(!error.empty());
}
