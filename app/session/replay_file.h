#pragma once
// replay.jsonl: the first line says how to rebuild the scene (file, --set list, seed, threads, fps) and which frames
// were recorded; every further line is one command stamped with its step. `--replay FILE` re-simulates the run
// bit-identically on the CPU backend (results do not depend on the thread count).
#include <string>
#include <vector>

#include "session/command.h"
#include "session/scene_session.h"

namespace frac {

struct ReplayLog {
  SessionOptions session;      // scenePath, overrides (the document at the last reset), seed, threads, fps
  std::vector<Command> commands;
  int frames = 0;              // frames simulated when the log was written
  int recordFrom = 0;          // first recorded frame (the recording covered [recordFrom, frames))
};

// Writes atomically (temporary file + rename). Throws std::runtime_error naming the file.
void writeReplay(const std::string& path, const ReplayLog& log);
// Throws std::invalid_argument naming the file, the line and what was expected.
ReplayLog readReplay(const std::string& path);
// The file's text, and its reading from text (`path` names it in messages): checkpoints carry their session so.
std::string replayText(const ReplayLog& log);
ReplayLog parseReplay(const std::string& text, const std::string& path);

}  // namespace frac
