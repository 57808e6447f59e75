#pragma once
// FRACTURE_PASS_TIMES=1: the wall time of each named pass of a multi-pass algorithm written for every exec policy
// (surface/fracture_surfaces.h), summed over repeated passes and printed to stderr. Each mark waits for the queued
// work (a device round trip per pass), so it is for finding what to speed up and off by default.
// start(exec) before the first pass, mark(exec, "name") after each, print("label") at the end.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "backend/exec_memory.h"

namespace frac {

class PassTimes {
 public:
  template <class Exec>
  void start(const Exec& exec) {
    if (!enabled_) return;
    finishQueued(exec);
    last_ = std::chrono::steady_clock::now();
  }
  template <class Exec>
  void mark(const Exec& exec, const char* name) {
    if (!enabled_) return;
    finishQueued(exec);
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - last_).count();
    last_ = now;
    for (auto& [passName, total] : totals_)
      if (std::strcmp(passName, name) == 0) {
        total += ms;
        return;
      }
    totals_.emplace_back(name, ms);
  }
  // Prints and forgets the sums; false where timing is off.
  bool print(const char* label) {
    if (!enabled_ || totals_.empty()) return false;
    std::fprintf(stderr, "%s pass times (ms):", label);
    for (const auto& [passName, total] : totals_) std::fprintf(stderr, " %s %.3f;", passName, total);
    std::fprintf(stderr, "\n");
    totals_.clear();
    return true;
  }

 private:
  bool enabled_ = std::getenv("FRACTURE_PASS_TIMES") != nullptr;
  std::chrono::steady_clock::time_point last_;
  std::vector<std::pair<const char*, double>> totals_;
};

}  // namespace frac
