#include "session/range_render.h"

#include <filesystem>
#include <stdexcept>

namespace fs = std::filesystem;

namespace frac {

void RangeRender::start(ReplayLog log, const RangeRenderRequest& request, const std::string& executable) {
  if (!(request.first >= 1 && request.last >= request.first))
    throw std::invalid_argument("render range: frames " + std::to_string(request.first) + " to " +
                                std::to_string(request.last) + ": expected 1 <= first <= last");
  if (!(request.width >= 16 && request.height >= 16 && request.width <= 16384 && request.height <= 16384))
    throw std::invalid_argument("render range: size " + std::to_string(request.width) + " x " +
                                std::to_string(request.height) + ": expected 16 to 16384 pixels each way");
  child_.stop();
  request_ = request;
  std::error_code ec;
  fs::remove_all(fs::path(request.folder) / "frames", ec);  // the frames of an earlier range do not mix in
  fs::create_directories(request.folder, ec);
  if (ec) throw std::runtime_error("render range: cannot create " + request.folder + ": " + ec.message());
  log.frames = request.last;
  log.recordFrom = request.first - 1;  // the headless run records frame f when f - 1 >= record_from
  const std::string replay = (fs::path(request.folder) / "replay.jsonl").string();
  writeReplay(replay, log);
  std::vector<std::string> args = {"--replay", replay,  "--headless", "--record", "--out", request.folder,
                                   "--width",  std::to_string(request.width), "--height",
                                   std::to_string(request.height)};
  args.insert(args.end(), request.renderArguments.begin(), request.renderArguments.end());
  child_.start(args, logPath(), executable);
}

int RangeRender::framesWritten() const {
  int count = 0;
  std::error_code ec;
  for (fs::directory_iterator it(fs::path(request_.folder) / "frames", ec), end; !ec && it != end; it.increment(ec))
    count += it->path().extension() == ".png";
  return count;
}

}  // namespace frac
