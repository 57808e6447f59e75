#pragma once
// Headless batch run: simulate a scene for N frames and write stats.csv, summary.json and probe curves.
#include <string>
#include <vector>

namespace frac {

struct HeadlessOptions {
  std::string scenePath;
  std::vector<std::string> overrides;  // --set key=value
  int frames = -1;                     // < 0: the scene's frames
  std::string outDir = "out";
  int threads = -1;                    // < 0: the scene's solver.threads
  long long seed = -1;                 // < 0: the scene's seed
  bool benchJson = false;              // print one JSON line for scripts/bench
  std::string benchCase;
};

// Returns the process exit code: 0 on success, 2 for bad input (message already printed).
int runHeadless(const HeadlessOptions& options);

}  // namespace frac
