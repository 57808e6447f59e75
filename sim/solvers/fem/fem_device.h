#pragma once
// The fem-debris state on a CUDA device: the arrays of fem_arrays.h in device memory (copied by their list) and
// fem_step.h's stepStages with the CUDA exec policy (fem_device.cu). Only in builds with CUDA (elsewhere
// fem_device_absent.cpp, never constructed); FemSolver holds one in its MirroredArrays while the backend is CUDA.
#include <memory>

#include "solvers/fem/fem_arrays.h"

namespace frac {
struct FemStepParams;
}

namespace frac::fem {

class FemDevice {
 public:
  FemDevice();
  ~FemDevice();
  FemDevice(const FemDevice&) = delete;
  FemDevice& operator=(const FemDevice&) = delete;

  // Every listed array of `host` to the device, replacing what was there.
  void upload(FemArrays& host);
  // The projectiles' poses for the coming step (the Input arrays).
  void uploadInputs(FemArrays& host);
  void step(const FemStepParams& params);
  // The state's anyDebris word (4 bytes read back).
  bool anyDebris();
  // The State arrays back into `host`.
  void download(FemArrays& host);
  void synchronize();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace frac::fem
