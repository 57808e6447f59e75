#pragma once
// A loaded scene being simulated: the solver, the time step and steps per frame, and the probes. Used by the
// headless CLI, the tests and (later) the simulation thread of the window.
#include <memory>

#include <nlohmann/json.hpp>

#include "analysis/cone_probe.h"
#include "analysis/history_probes.h"
#include "analysis/three_point_bending.h"
#include "analysis/uniaxial_test.h"
#include "solvers/mouse_grab.h"
#include "solvers/solver.h"

namespace frac {

class Simulation {
 public:
  // threads < 0 keeps the scene's solver.threads.
  explicit Simulation(SceneDesc scene, int threads = -1);

  void advanceFrame();
  void step();  // one solver step, probes sampled
  // One step; true when it completed a frame (every stepsPerFrame steps since the last frame).
  bool stepCountingFrames();

  // Live edits (between steps). The time step follows the scene's solver settings (dt or "auto" x safety) and the
  // frame rate; call after changing them or anything that changes the stable step.
  void updateTimeStep();
  // The steps per frame `scene` asks for with a stable step of `stableDt`: its substeps, or whole steps of at most
  // dt (or "auto" x safety) per 1/fps. A SceneError naming solver.dt (the scene's file, the numbers, what to change)
  // when that is more than solver.max_steps_per_frame: a dt of 1e-12 s is refused, never replaced by another.
  static int stepsPerFrameFor(const SceneDesc& scene, double stableDt);
  SceneDesc& editableScene() { return scene_; }
  long long steps() const { return steps_; }

  double dt() const { return dt_; }
  int stepsPerFrame() const { return stepsPerFrame_; }
  int framesDone() const { return frames_; }
  double time() const { return time_; }
  const SceneDesc& scene() const { return scene_; }
  Solver& solver() { return *solver_; }
  const Solver& solver() const { return *solver_; }
  SimStats stats() const { return solver_->stats(); }
  // Moves the solver to the scene's solver.backend (after an edit of it); the line of Solver::setBackend.
  const std::string& applyBackend();
  const std::string& backendLine() const { return backendLine_; }
  // Filled by the probes: E_macro, sigma_macro, ... (empty object without probes).
  nlohmann::json measurements() const;
  const ThreePointBendingProbe* bendingProbe() const { return bending_.get(); }
  const UniaxialProbe* uniaxialProbe() const { return uniaxial_.get(); }
  // Checkpoints: the simulation's clock and frame count and the solver's whole state (Solver::saveState). restoreState
  // into a Simulation built from the same scene with the same edits continues bit-identically; std::invalid_argument
  // naming the file for a checkpoint of another method or scene.
  void saveState(CheckpointWriter& out) const;
  void restoreState(const CheckpointReader& in);
  template <class Io>
  void clockFields(Io& io);  // the clock and counters, one list for both directions (io/checkpoint_file.h)
  // The grab tool (solvers/mouse_grab.h): applied before every step while active.
  MouseGrab& grab() { return grab_; }
  const MouseGrab& grab() const { return grab_; }
  // The point_history and reaction probes (null without them): history.csv's rows.
  HistoryProbes* history() { return history_.get(); }

 private:
  SceneDesc scene_;
  std::unique_ptr<Solver> solver_;
  std::unique_ptr<ThreePointBendingProbe> bending_;
  std::unique_ptr<HistoryProbes> history_;
  std::unique_ptr<UniaxialProbe> uniaxial_;
  std::unique_ptr<ConeProbe> cone_;
  MouseGrab grab_;
  std::vector<int> bendingCentre_;  // beam elements under the indenter: their mean deflection is delta of eq. 29
  std::vector<int> bendingSupports_;  // beam elements over the probe's supports: delta is net of their mean deflection
  std::vector<int> bendingQuarters_;  // beam elements half-way between the load and each support (E_shear_free)
  std::string backendLine_;
  double dt_ = 0.0;
  double time_ = 0.0;
  int stepsPerFrame_ = 1;
  int frames_ = 0;
  long long steps_ = 0;
  int stepInFrame_ = 0;
};

}  // namespace frac
