#include "solvers/simulation.h"

#include <cmath>

namespace frac {

Simulation::Simulation(SceneDesc scene, int threads) : scene_(std::move(scene)) {
  solver_ = makeSolver(scene_.solver.method);
  SolverOptions options;
  options.threads = threads >= 0 ? threads : scene_.solver.threads;
  solver_->load(scene_, options);
  const double frameTime = 1.0 / scene_.fps;
  const double wanted = scene_.solver.dt ? *scene_.solver.dt : scene_.solver.safety * solver_->stableDt();
  if (scene_.solver.substeps > 0) {
    stepsPerFrame_ = scene_.solver.substeps;
    dt_ = wanted;
  } else {  // whole steps per frame, dt shortened so that frames fall on 1/fps
    stepsPerFrame_ = std::max(1, int(std::ceil(frameTime / wanted - 1e-9)));
    dt_ = frameTime / stepsPerFrame_;
  }
  for (const ProbeDesc& probe : scene_.probes)
    if (probe.type == ProbeType::ThreePointBending) bending_ = std::make_unique<ThreePointBendingProbe>(probe);
}

void Simulation::step() {
  solver_->step(dt_);
  time_ += dt_;
  if (bending_) {
    const KinematicLoad load = solver_->kinematicLoad(bending_->desc().indenter);
    bending_->sample(time_, load.displacement, load.force);
  }
}

void Simulation::advanceFrame() {
  for (int s = 0; s < stepsPerFrame_; ++s) step();
  ++frames_;
}

nlohmann::json Simulation::measurements() const {
  nlohmann::json m = nlohmann::json::object();
  if (bending_) {
    const BendingResult r = bending_->result();
    m["E_macro"] = r.youngMacro;
    m["sigma_macro"] = r.strengthMacro;
    m["peak_force"] = r.peakForce;
    m["load_slope"] = r.slope;
    m["fit_samples"] = r.fitSamples;
  }
  return m;
}

}  // namespace frac
