#include "solvers/simulation.h"

#include <cmath>
#include <cstdio>

#include "backend/backend.h"
#include "core/name_list.h"
#include "io/checkpoint_file.h"
#include "io/json_validate.h"
#include "solvers/resource_estimate.h"

namespace frac {

Simulation::Simulation(SceneDesc scene, int threads) : scene_(std::move(scene)) {
  solver_ = makeSolver(scene_.solver.method);
  checkSceneFits(scene_);  // before anything is packed or meshed (solvers/resource_estimate.h)
  SolverOptions options;
  options.threads = threads >= 0 ? threads : scene_.solver.threads;
  solver_->load(scene_, options);
  applyBackend();
  updateTimeStep();
  for (size_t i = 0; i < scene_.probes.size(); ++i) {
    const ProbeDesc& probe = scene_.probes[i];
    if (probe.type == ProbeType::Uniaxial) {
      std::vector<std::string> grips;
      for (const KinematicDesc& k : scene_.kinematics) grips.push_back(k.name);
      uniaxial_ = std::make_unique<UniaxialProbe>(probe, *solver_, scene_.path, int(i), std::move(grips));
    }
    if (probe.type == ProbeType::Cone) cone_ = std::make_unique<ConeProbe>(probe, *solver_, scene_.path, int(i));
    if (probe.type != ProbeType::ThreePointBending) continue;
    bending_ = std::make_unique<ThreePointBendingProbe>(probe);
    // delta of eq. 29 is the deflection of the beam's centre: the mean of the elements in a vertical cylinder of
    // diameter h under the indenter (the whole mid-span cross-section), free of the local indentation; with
    // `supports`, net of the mean of the same cylinders over the supports (a yoke, ASTM C1609: the beam's seating
    // on them, the local give of the elements about a held row, is not the beam's bending).
    const KinematicLoad load = solver_->kinematicLoad(probe.indenter);
    const ReferenceElements& body = solver_->referenceElements();
    bendingCentre_ = body.nearLine(load.initialCentre, load.direction, 0.5f * probe.height);
    for (const std::string& support : commaSeparated(probe.supports)) {  // none for ""
      const vec3 centre = solver_->kinematicLoad(support).initialCentre;
      const std::vector<int> section = body.nearLine(centre, load.direction, 0.5f * probe.height);
      bendingSupports_.insert(bendingSupports_.end(), section.begin(), section.end());
      // and half-way to the load: the quarter span's section (E_shear_free, three_point_bending.h)
      const std::vector<int> quarter =
          body.nearLine(0.5f * (centre + load.initialCentre), load.direction, 0.5f * probe.height);
      bendingQuarters_.insert(bendingQuarters_.end(), quarter.begin(), quarter.end());
    }
    // Width axis: perpendicular to the load and to the beam (the beam spans the larger horizontal extent).
    const vec3 u = load.direction;
    const vec3 a = glm::normalize(glm::cross(u, std::abs(u.x) < 0.9f ? vec3(1, 0, 0) : vec3(0, 0, 1)));
    const vec3 c = glm::cross(u, a);
    const vec3 widthAxis = body.extent(a) < body.extent(c) ? a : c;
    // The section the lattice's cells fill (its depth along the load, its width the cross-section over that), or
    // the spheres' extent (the probe's `section`).
    if (probe.section == ProbeSection::Cells) {
      const double height = body.depth(u);
      bending_->setSection(body.sectionArea(glm::cross(u, widthAxis), u, widthAxis) / height, height);
    } else {
      bending_->setSection(body.extent(widthAxis), body.extent(u));
    }
    // and its length, which cuts the sections over the supports where the beam ends within h / 2 of them
    const vec3 beamAxis = glm::cross(u, widthAxis);
    bending_->setLength(probe.section == ProbeSection::Cells ? body.depth(beamAxis) : body.extent(beamAxis));
  }
  history_ = std::make_unique<HistoryProbes>(scene_, *solver_);
  if (history_->empty()) history_.reset();
  else history_->sample(0, 0.0, *solver_);
}

const std::string& Simulation::applyBackend() {
  // The GPU's memory before its arrays are made: cuda refuses a scene that would not fit, auto takes the CPU.
  const std::string tooLarge = checkSceneFitsDevice(scene_, cudaFreeMemoryBytes());
  if (tooLarge.empty()) {
    backendLine_ = solver_->setBackend(scene_.solver.backend);
  } else {
    backendLine_ = solver_->setBackend(Backend::Cpu);
    backendLine_ += "; auto chose the CPU: " + tooLarge;
  }
  return backendLine_;
}

int Simulation::stepsPerFrameFor(const SceneDesc& scene, double stableDt) {
  if (scene.solver.substeps > 0) return scene.solver.substeps;
  const double frameTime = 1.0 / scene.fps;
  const double wanted = scene.solver.dt ? *scene.solver.dt : scene.solver.safety * stableDt;
  const double steps = std::max(1.0, std::ceil(frameTime / wanted - 1e-9));  // (a double: 1e-12 s would overflow an int)
  if (!(steps <= double(scene.solver.maxStepsPerFrame))) {
    char text[512];
    std::snprintf(text, sizeof text,
                  "%s %.3g s needs %.3g steps per frame at %g frames/s, more than solver.max_steps_per_frame (%d): "
                  "use a larger dt (the stable step is %.3g s), fewer frames per second, or raise the limit",
                  scene.solver.dt ? "dt" : "the auto step (safety x stable step)", wanted, steps, scene.fps,
                  scene.solver.maxStepsPerFrame, stableDt);
    throwSceneError(scene.path, "/solver/dt", text);
  }
  return int(steps);
}

void Simulation::updateTimeStep() {
  const double frameTime = 1.0 / scene_.fps;
  stepsPerFrame_ = stepsPerFrameFor(scene_, solver_->stableDt());
  if (scene_.solver.substeps > 0)
    dt_ = scene_.solver.dt ? *scene_.solver.dt : scene_.solver.safety * solver_->stableDt();
  else  // whole steps per frame, dt shortened so that frames fall on 1/fps
    dt_ = frameTime / stepsPerFrame_;
}

void Simulation::step() {
  grab_.apply(*solver_, dt_);
  solver_->step(dt_);
  time_ += dt_;
  ++steps_;
  if (bending_) {
    const KinematicLoad load = solver_->kinematicLoad(bending_->desc().indenter);
    // delta of eq. 29: the mean deflection of the elements under the indenter, net of the supports' sections
    const auto meanDeflection = [&](const std::vector<int>& elements) {
      double sum = 0.0;
      for (const vec3& d : solver_->displacementsOf(elements)) sum += glm::dot(d, load.direction);
      return elements.empty() ? 0.0 : sum / double(elements.size());
    };
    const double settlement = meanDeflection(bendingSupports_);
    bending_->sample(time_, meanDeflection(bendingCentre_) - settlement, load.force,
                     bendingQuarters_.empty() ? 0.0 : meanDeflection(bendingQuarters_) - settlement);
  }
  if (uniaxial_) uniaxial_->sample(time_, *solver_);
  if (history_) history_->sample(steps_, time_, *solver_);
}

template <class Io>
void Simulation::clockFields(Io& io) {
  io.field("sim/time", time_);
  io.field("sim/steps", steps_);
  io.field("sim/frames", frames_);
  io.field("sim/step_in_frame", stepInFrame_);
  io.field("sim/dt", dt_);
  io.field("sim/steps_per_frame", stepsPerFrame_);
}

void Simulation::saveState(CheckpointWriter& out) const {
  out.text("sim/method", solver_->method());
  solver_->saveState(out);
  CheckpointSave io{out};
  const_cast<Simulation*>(this)->clockFields(io);  // writes only
}

void Simulation::restoreState(const CheckpointReader& in) {
  const std::string method = in.text("sim/method");
  if (method != solver_->method())
    throw std::invalid_argument(in.path() + ": a checkpoint of method " + method + ", the scene runs " + solver_->method());
  solver_->restoreState(in);
  CheckpointLoad io{in};
  clockFields(io);
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
  // What softening bonds dissipated (bdem): the energy the crack took, over the section it crossed, free of what an
  // unstable break releases from the specimen's stored energy into waves and dashpots (which the work counts).
  const double dissipated = (bending_ || uniaxial_) ? solver_->stats().fractureDissipated : 0.0;
  if (dissipated > 0.0) m["fracture_dissipated"] = dissipated;
  if (bending_) {
    const BendingResult r = bending_->result();
    m["E_macro"] = r.youngMacro;
    m["sigma_macro"] = r.strengthMacro;
    m["peak_force"] = r.peakForce;
    m["load_slope"] = r.slope;
    m["fit_samples"] = r.fitSamples;
    m["beam_width"] = bending_->width();
    m["beam_height"] = bending_->height();
    if (bending_->desc().poisson > 0.0f) m["E_timoshenko"] = r.youngTimoshenko;
    if (!bending_->desc().supports.empty()) m["E_shear_free"] = r.youngShearFree;
    if (bending_->desc().ligament > 0.0f) {
      m["work_of_fracture"] = r.work;
      m["fracture_energy"] = r.fractureEnergy;
      if (dissipated > 0.0) m["dissipated_fracture_energy"] = dissipated / (bending_->width() * bending_->desc().ligament);
    }
  }
  if (uniaxial_) {
    const UniaxialResult r = uniaxial_->result();
    m["E_macro"] = r.young;
    m["nu_macro"] = r.poisson;
    m["strength_macro"] = r.strength;
    m["strain_at_peak"] = r.strainAtPeak;
    m["fit_samples"] = r.fitSamples;
    m["section_area"] = uniaxial_->area();
    m["gauge_length"] = uniaxial_->gaugeLength();
    m["work_of_fracture"] = r.work;
    m["separated"] = r.separated;
    // over the ligament of a notched bar, else over the section
    const double ligament = uniaxial_->desc().ligamentArea, over = ligament > 0.0 ? ligament : uniaxial_->area();
    if (ligament > 0.0) m["ligament_strength"] = r.strength * uniaxial_->area() / ligament;
    if (r.separated) m["fracture_energy"] = r.work / over;
    if (dissipated > 0.0) m["dissipated_fracture_energy"] = dissipated / over;
  }
  if (cone_) {
    const ConeResult r = cone_->result(*solver_);
    m["cone_angle_to_surface"] = r.angleToSurface;
    m["cone_fitted_bins"] = r.fittedBins;
    m["damaged_elements"] = r.damagedElements;
    m["damage_depth"] = r.damageDepth;
    m["body_depth"] = r.bodyDepth;
  }
  return m;
}

}  // namespace frac
