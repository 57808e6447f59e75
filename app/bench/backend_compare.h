#pragma once
// fracture-bench --compare-backends: the scene on the CPU and on CUDA side by side, every step's state arrays
// compared bit for bit; at the first step where they part, which arrays, how many entries and the first entries'
// values on both sides. For finding why two backends that run the same step source stop agreeing.
#include <string>
#include <vector>

namespace frac {

// Returns 0 when the runs agree for `steps` steps, 1 when they part (reported on stdout), 2 on a setup error.
int compareBackends(const std::string& scenePath, const std::vector<std::string>& overrides, int steps);

}  // namespace frac
