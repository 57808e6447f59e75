// Solver::setBackend for methods that run on the CPU only, and the wording every solver uses for its backend line.
#include "solvers/solver.h"

namespace frac {

std::string Solver::cpuBackendLine(Backend requested, const std::string& whyNotCuda) const {
  if (requested == Backend::Cpu || whyNotCuda.empty()) return "CPU (OpenMP)";
  return std::string("CPU (OpenMP); ") + (requested == Backend::Auto ? "auto" : "cuda") +
         " fell back to the CPU: " + whyNotCuda;
}

std::string Solver::setBackend(Backend requested) {
  return cpuBackendLine(requested, "the " + method() + " solver has no CUDA path yet");
}

}  // namespace frac
