#pragma once
// `--bench-render N`: frames per second of the offscreen renderer for N sphere instances (one JSON line).
#include <string>

namespace frac {

// Returns the process exit code.
int runRenderBench(int instances, int width, int height, int frames, bool shadows, const std::string& caseName);

}  // namespace frac
