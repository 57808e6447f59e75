#pragma once
// FRACTURE_CUDA_STAGE_TIMES=1: CUDA events between the stages of every step, summed and printed to stderr when the
// solver's device copy is released (for finding what to speed up; off by default, it costs a sync per step).
// mark(k) before stage k, mark(Stages) after the last, then endStep().
#include <cuda_runtime.h>

#include <array>
#include <cstdio>
#include <cstdlib>

namespace frac {

template <int Stages>
class StageTimer {
 public:
  StageTimer(const char* solver, const std::array<const char*, Stages>& names) : solver_(solver), names_(names) {
    if (enabled_)
      for (cudaEvent_t& e : events_) cudaEventCreate(&e);
  }
  ~StageTimer() {
    if (!enabled_) return;
    if (steps_ > 0) {
      std::fprintf(stderr, "CUDA %s stage times, mean of %lld steps (ms):", solver_, steps_);
      for (int k = 0; k < Stages; ++k) std::fprintf(stderr, " %s %.4f", names_[k], totalMs_[k] / double(steps_));
      std::fprintf(stderr, "\n");
    }
    for (cudaEvent_t& e : events_) cudaEventDestroy(e);
  }
  StageTimer(const StageTimer&) = delete;
  StageTimer& operator=(const StageTimer&) = delete;

  void mark(int k) {
    if (enabled_) cudaEventRecord(events_[k]);
  }
  void endStep() {
    if (!enabled_) return;
    cudaEventSynchronize(events_[Stages]);
    for (int k = 0; k < Stages; ++k) {
      float ms = 0.0f;
      cudaEventElapsedTime(&ms, events_[k], events_[k + 1]);
      totalMs_[k] += ms;
    }
    ++steps_;
  }

 private:
  bool enabled_ = std::getenv("FRACTURE_CUDA_STAGE_TIMES") != nullptr;
  const char* solver_;
  std::array<const char*, Stages> names_;
  cudaEvent_t events_[Stages + 1] = {};
  double totalMs_[Stages] = {};
  long long steps_ = 0;
};

}  // namespace frac
