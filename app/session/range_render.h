#pragma once
// "Render range" (issue "Live demos", item 1: recording takes a range of the timeline at another size or from another
// camera): frames first..last of the run are re-simulated headless from its replay log by a child process (the
// replay is bit-identical, so these are the timeline's frames) and rendered at the asked size with the asked render
// options into FOLDER/frames/frame_NNNNNN.png, while the window goes on. FOLDER/replay.jsonl says how.
#include <string>
#include <vector>

#include "session/child_process.h"
#include "session/replay_file.h"

namespace frac {

struct RangeRenderRequest {
  std::string folder = "out/range";
  int first = 1, last = 1;          // frame indices (1 = after the first simulated frame), inclusive
  int width = 1920, height = 1080;
  std::vector<std::string> renderArguments;  // e.g. --camera ex,ey,ez,tx,ty,tz,fov --color damage --no-shadows
};

class RangeRender {
 public:
  // Writes FOLDER/replay.jsonl (the log's session and commands, frames `last`, recorded from `first`) and starts the
  // child. Throws std::invalid_argument for a bad range, std::runtime_error when the folder or the child fails.
  void start(ReplayLog log, const RangeRenderRequest& request, const std::string& executable = "");
  bool running() { return child_.running(); }
  int wait() { return child_.wait(); }
  int exitCode() const { return child_.exitCode(); }
  int framesWritten() const;  // PNGs in FOLDER/frames so far
  const RangeRenderRequest& request() const { return request_; }
  std::string logPath() const { return request_.folder + "/range.log"; }

 private:
  RangeRenderRequest request_;
  ChildProcess child_;
};

}  // namespace frac
