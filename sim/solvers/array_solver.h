#pragma once
// What every solver built on named arrays (solvers/state_arrays.h) answers the same way: its arrays kept by
// MirroredArrays on the host or a CUDA device, the backend switch, the state digest, threads, the stable step, the
// probes' reference elements and live material edits. A method derives from it with its arrays, views and device
// mirror and supplies the rest of the Solver interface.
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "backend/exec.h"
#include "io/checkpoint_file.h"
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
  // Every listed array but the scratch ones, the clock and the reference elements, then the method's own state.
  void saveState(CheckpointWriter& out) const override {
    saveExtra(out);  // first: a method without checkpoints refuses before anything is written
    CheckpointSave io{out};
    const_cast<ArraySolver*>(this)->clockFields(io);  // writes only
    Views unused;
    forEachArray(arrays_.query(), unused, [&](auto& vector, auto*&, const auto& tag) {
      if constexpr (std::decay_t<decltype(tag)>::travel != Travel::Scratch)
        out.vector(std::string("array/") + tag.group + "/" + tag.name, vector);
    });
  }
  void restoreState(const CheckpointReader& in) override {
    CheckpointLoad io{in};
    clockFields(io);
    Views unused;
    forEachArray(arrays_.edit(), unused, [&](auto& vector, auto*&, const auto& tag) {
      using Value = typename std::decay_t<decltype(vector)>::value_type;
      if constexpr (std::decay_t<decltype(tag)>::travel != Travel::Scratch)
        vector = in.vector<Value>(std::string("array/") + tag.group + "/" + tag.name);
    });
    restoreExtra(in);
  }
  // The "velocity" array of the "elements" group (every method lists one).
  std::vector<vec3> elementVelocities(const std::vector<int>& elements) const override {
    std::vector<vec3> out;
    Views unused;
    forEachArray(arrays_.query(), unused, [&](auto& vector, auto*&, const auto& tag) {
      using Value = typename std::decay_t<decltype(vector)>::value_type;
      if constexpr (std::is_same_v<Value, vec3>)
        if (std::string(tag.group) == "elements" && std::string(tag.name) == "velocity")
          for (int e : elements) out.push_back(vector[size_t(e)]);
    });
    return out;
  }
  void addElementVelocities(const std::vector<int>& elements, const std::vector<vec3>& change) override {
    Views unused;
    forEachArray(arrays_.edit(), unused, [&](auto& vector, auto*&, const auto& tag) {
      using Value = typename std::decay_t<decltype(vector)>::value_type;
      if constexpr (std::is_same_v<Value, vec3>)
        if (std::string(tag.group) == "elements" && std::string(tag.name) == "velocity")
          for (size_t k = 0; k < elements.size(); ++k) vector[size_t(elements[k])] += change[k];
    });
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
  // What the method keeps besides its arrays (kinematic poses, launch times, its contact list's state); by default a
  // method has no checkpoints yet.
  virtual void saveExtra(CheckpointWriter&) const {
    throw std::invalid_argument(method() + ": checkpoints are not available for this method yet");
  }
  virtual void restoreExtra(const CheckpointReader&) {
    throw std::invalid_argument(method() + ": checkpoints are not available for this method yet");
  }
  template <class Io>
  void clockFields(Io& io) {
    io.field("solver/time", time_);
    io.field("solver/steps", steps_);
    io.field("solver/stable_dt", stableDt_);
    io.field("solver/seed", seed_);
    io.field("solver/reference/index", reference_.index);
    io.field("solver/reference/position", reference_.position);
    io.field("solver/reference/radius", reference_.radius);
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
