#include "solvers/simulation.h"

#include <cmath>

namespace frac {

Simulation::Simulation(SceneDesc scene, int threads) : scene_(std::move(scene)) {
  solver_ = makeSolver(scene_.solver.method);
  SolverOptions options;
  options.threads = threads >= 0 ? threads : scene_.solver.threads;
  solver_->load(scene_, options);
  applyBackend();
  updateTimeStep();
  for (const ProbeDesc& probe : scene_.probes) {
    if (probe.type != ProbeType::ThreePointBending) continue;
    bending_ = std::make_unique<ThreePointBendingProbe>(probe);
    // delta of eq. 29 is the deflection of the beam's centre: the mean of the elements in a vertical cylinder of
    // diameter h under the indenter (the whole mid-span cross-section), free of the local indentation.
    const KinematicLoad load = solver_->kinematicLoad(probe.indenter);
    const ReferenceElements& body = solver_->referenceElements();
    bendingCentre_ = body.nearLine(load.initialCentre, load.direction, 0.5f * probe.height);
    // Width axis: perpendicular to the load and to the beam (the beam spans the larger horizontal extent).
    const vec3 u = load.direction;
    const vec3 a = glm::normalize(glm::cross(u, std::abs(u.x) < 0.9f ? vec3(1, 0, 0) : vec3(0, 0, 1)));
    const vec3 c = glm::cross(u, a);
    const vec3 widthAxis = body.extent(a) < body.extent(c) ? a : c;
    bending_->setSection(body.extent(widthAxis), body.extent(u));
  }
}

const std::string& Simulation::applyBackend() {
  backendLine_ = solver_->setBackend(scene_.solver.backend);
  return backendLine_;
}

void Simulation::updateTimeStep() {
  const double frameTime = 1.0 / scene_.fps;
  const double wanted = scene_.solver.dt ? *scene_.solver.dt : scene_.solver.safety * solver_->stableDt();
  if (scene_.solver.substeps > 0) {
    stepsPerFrame_ = scene_.solver.substeps;
    dt_ = wanted;
  } else {  // whole steps per frame, dt shortened so that frames fall on 1/fps
    stepsPerFrame_ = std::max(1, int(std::ceil(frameTime / wanted - 1e-9)));
    dt_ = frameTime / stepsPerFrame_;
  }
}

void Simulation::step() {
  solver_->step(dt_);
  time_ += dt_;
  ++steps_;
  if (bending_) {
    const KinematicLoad load = solver_->kinematicLoad(bending_->desc().indenter);
    double sum = 0.0;  // delta of eq. 29: the mean deflection of the elements under the indenter
    for (const vec3& d : solver_->displacementsOf(bendingCentre_)) sum += glm::dot(d, load.direction);
    bending_->sample(time_, bendingCentre_.empty() ? 0.0 : sum / double(bendingCentre_.size()), load.force);
  }
}

bool Simulation::stepCountingFrames() {
  step();
  if (++stepInFrame_ < stepsPerFrame_) return false;
  stepInFrame_ = 0;
  ++frames_;
  return true;
}

void Simulation::advanceFrame() {
  while (!stepCountingFrames()) {
  }
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
    m["beam_width"] = bending_->width();
    m["beam_height"] = bending_->height();
  }
  return m;
}

}  // namespace frac
