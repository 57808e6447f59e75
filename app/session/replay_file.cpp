#include "session/replay_file.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "io/atomic_file.h"

namespace frac {

using json = nlohmann::json;

std::string replayText(const ReplayLog& log) {
  json header = {{"replay", 1},
                 {"scene", std::filesystem::absolute(log.session.scenePath).string()},
                 {"overrides", log.session.overrides},
                 {"seed", log.session.seed},
                 {"threads", log.session.threads},
                 {"fps", log.session.fps},
                 {"frames", log.frames},
                 {"record_from", log.recordFrom}};
  std::string text = header.dump() + "\n";
  for (const Command& c : log.commands) text += c.toJson().dump() + "\n";
  return text;
}

void writeReplay(const std::string& path, const ReplayLog& log) { writeFileAtomically(path, replayText(log)); }

ReplayLog readReplay(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot open the replay file");
  std::stringstream text;
  text << in.rdbuf();
  return parseReplay(text.str(), path);
}

ReplayLog parseReplay(const std::string& text, const std::string& path) {
  std::istringstream in(text);
  ReplayLog log;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    const std::string where = path + " line " + std::to_string(number);
    const json j = json::parse(line, nullptr, false);
    if (j.is_discarded()) throw std::invalid_argument(where + ": not valid JSON");
    if (number == 1) {
      if (!j.is_object() || !j.contains("replay") || !j.contains("scene") || !j["scene"].is_string())
        throw std::invalid_argument(where + ": expected the header {\"replay\": 1, \"scene\": \"...\", ...}");
      log.session.scenePath = j["scene"].get<std::string>();
      try {
        log.session.overrides = j.value("overrides", std::vector<std::string>{});
        log.session.seed = j.value("seed", -1LL);
        log.session.threads = j.value("threads", -1);
        log.session.fps = j.value("fps", -1.0);
        log.frames = j.value("frames", 0);
        log.recordFrom = j.value("record_from", 0);
      } catch (const json::exception& e) {
        throw std::invalid_argument(where + ": header field of the wrong type (" + e.what() + ")");
      }
      continue;
    }
    Command c = Command::fromJson(j, where);
    if (c.step < 0) throw std::invalid_argument(where + ": a replayed command needs its 'step'");
    if (!log.commands.empty() && c.step < log.commands.back().step && c.type != Command::Type::Reset &&
        log.commands.back().type != Command::Type::Reset)
      throw std::invalid_argument(where + ": steps must not decrease");
    log.commands.push_back(std::move(c));
  }
  if (number == 0) throw std::invalid_argument(path + ": empty replay file");
  return log;
}

}  // namespace frac
