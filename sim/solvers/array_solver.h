#pragma once
// What every solver built on named arrays (solvers/state_arrays.h) answers the same way: its arrays kept by
// MirroredArrays on the host or a CUDA device, the backend switch, the state digest, threads, the stable step, the
// probes' reference elements and live material edits. A method derives from it with its arrays, views and device
// mirror and supplies the rest of the Solver interface.
#include <string>
#include <vector>

#include "backend/exec.h"
#include "solvers/mirrored_arrays.h"
#include "solvers/solver.h"
#include "solvers/solver_common.h"
#include "solvers/state_arrays.h"

namespace frac {

template <class Arrays, class Views, class Device>
class ArraySolver : public Solver {
 public:
  double stableDt() const override { return stableDt_; }
  const ReferenceElements& referenceElements() const override { return reference_; }
  void setThreads(int threads) override { exec_.threads = threads; }
  uint64_t stateDigest() const override { return digestArrays<Arrays, Views>(arrays_.query()); }
  void visitArrays(const ArrayVisitor& visit) const override {
    Views unused;
    forEachArray(arrays_.query(), unused, [&](auto& vector, auto*&, const auto& tag) { visit(arrayInfo(vector, tag)); });
  }
  Backend activeBackend() const override { return arrays_.onDevice() ? Backend::Cuda : Backend::Cpu; }
  void finishQueuedWork() override {
    if (arrays_.onDevice()) arrays_.device().synchronize();
  }
  std::string setBackend(Backend requested) override {
    return arrays_.moveTo(
        requested, [this] { leftDevice(); }, [this] { uploadToDevice(); });
  }
  // Replaces material m (a live edit; its density stays: masses were fixed when the bodies were built) and what the
  // method derives from it.
  virtual void setMaterial(int m, const MaterialDesc& desc) = 0;
  double time() const { return time_; }

 protected:
  // The host arrays to the device: on entering it, and before a device step or query after host edits.
  virtual void uploadToDevice() = 0;
  // Back on the CPU with the host arrays current: what the CPU keeps besides the arrays is rebuilt.
  virtual void leftDevice() {}
  // The materials a live edit changed, applied with setMaterial.
  void applyEditedMaterials(const SceneDesc& scene) {
    for (int m : editedMaterials(materialDescs_, scene)) {
      MaterialDesc edited = scene.materials[m];
      edited.density = materialDescs_[m].density;
      setMaterial(m, edited);
    }
  }
  void advanceClock(double dt) {
    time_ += dt;
    ++steps_;
  }

  CpuExec exec_;
  MirroredArrays<Arrays, Device> arrays_;
  std::vector<MaterialDesc> materialDescs_;
  ReferenceElements reference_;
  double time_ = 0.0;
  long long steps_ = 0;
  double stableDt_ = 1e-6;
  unsigned long long seed_ = 1;
};

}  // namespace frac
