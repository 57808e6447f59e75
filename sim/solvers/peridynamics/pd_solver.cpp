// PeridynamicsSolver: stepping (pd_step.h's stepStages on the CPU or the device), the CPU's contact list, grips and
// projectiles between steps, and the answers of the Solver interface that are not frames (pd_frame.cpp) or building
// (pd_build.cpp).
#include "solvers/peridynamics/pd_solver.h"

#include <algorithm>
#include <stdexcept>

#include "analysis/damage.h"
#include "core/bounds.h"
#include "solvers/peridynamics/pd_stats.h"
#include "solvers/query_scratch.h"
#include "solvers/solver_common.h"

namespace frac {

// stepStages' CPU side: the host arrays and the CPU's contact list.
class PeridynamicsSolver::CpuStep {
 public:
  CpuStep(PeridynamicsSolver& solver, PdArrays& arrays) : solver_(solver), arrays_(arrays) {}
  PdViews views() const { return hostViews(arrays_); }
  PdViews refreshContactList(const PdViews&) {
    solver_.refreshContactList(arrays_);
    return views();
  }
  void swapThresholdShifts() { std::swap(arrays_.particles.thresholdShift, arrays_.particles.nextThresholdShift); }
  void mark(int) const {}

 private:
  PeridynamicsSolver& solver_;
  PdArrays& arrays_;
};

PdForcePass PeridynamicsSolver::cpuForcePass() const {
  if (model_ == PdModel::State) return PdForcePass::States;
  return familyPassOnCpu_ ? PdForcePass::Families : PdForcePass::Bonds;
}

// pd-bond on CUDA runs the family pass: each bond at both ends, no slots to store and gather.
PdForcePass PeridynamicsSolver::forcePass() const {
  if (model_ == PdModel::State) return PdForcePass::States;
  return arrays_.onDevice() ? PdForcePass::Families : cpuForcePass();
}

void PeridynamicsSolver::leftDevice() {
  arrangeForcePass(arrays_.edit(), cpuForcePass(), kCpuSlotGroupShift);  // from the per-bond state the device derived
  listValid_ = false;  // the CPU's contact list was not kept up to date while the device stepped
}

void PeridynamicsSolver::uploadToDevice() {
  PdArrays& a = arrays_.query();
  const PdForcePass pass = forcePass();
  arrangeForcePass(a, pass, kDeviceSlotGroupShift);
  arrays_.device().upload(a, pass, pd::DeviceContactGrid{deviceGridWindow(a), contactReach(), 0.5f * params_.spacing});
  arrays_.uploaded();
}

void PeridynamicsSolver::applyLiveSettings(const SceneDesc& scene) {
  applyEditedMaterials(scene);
  applySolverSettings(scene.solver);
  computeStableDt();  // the contact stiffness is part of the stable step
}

float PeridynamicsSolver::contactReach() const {
  switch (params_.contact) {
    case PdContact::Levine: return 0.5f * params_.spacing;
    case PdContact::Lammps: return 1.35f * params_.spacing;
    case PdContact::Off: break;
  }
  return 0.0f;
}

// Contact candidates (CPU): every pair within the contact distance + skin (bonded or not: contact acts between any
// two particles that come too close), sorted by index; rebuilt when a particle moved more than skin / 2.
void PeridynamicsSolver::refreshContactList(PdArrays& a) {
  if (params_.contact == PdContact::Off) {
    listValid_ = false;
    return;
  }
  const PdParticleArrays& p = a.particles;
  const int n = p.size();
  if (listValid_) {
    float moved2 = 0.0f;
    for (int i = 0; i < n; ++i) moved2 = std::max(moved2, length2(p.reference[i] + p.displacement[i] - listPosition_[i]));
    if (4.0f * moved2 <= skin_ * skin_) return;
  }
  skin_ = 0.5f * params_.spacing;
  const float reach = contactReach() + skin_;
  listPosition_.resize(n);
  for (int i = 0; i < n; ++i) listPosition_[i] = p.reference[i] + p.displacement[i];
  const Bounds box = boundsOf(0, n, [&](int i) { return listPosition_[i]; }, [](int) { return true; });
  std::vector<int32_t>& start = a.neighborStart;
  std::vector<int32_t>& list = a.neighborList;
  start.assign(n + 1, 0);
  list.clear();
  if (n == 0) return;
  const vec3 margin(2.0f * reach);
  grid_.setWindow(box.lo - margin, box.hi + margin, reach, std::max<int64_t>(int64_t(8) * n, 1 << 16));
  std::vector<float> zero(n, 0.0f);
  std::vector<uint8_t> none(n, 0);
  grid_.build(listPosition_.data(), zero.data(), none.data(), 1, n);
  const GridView g = grid_.view();
  for (int i = 0; i < n; ++i) {
    start[i] = int32_t(list.size());
    pd::forEachContactCandidate(g, i, listPosition_[i], reach, [&](int j) { list.push_back(j); });
    std::sort(list.begin() + start[i], list.end());
  }
  start[n] = int32_t(list.size());
  listValid_ = true;
}

GridView PeridynamicsSolver::deviceGridWindow(const PdArrays& a) const {
  const PdParticleArrays& p = a.particles;
  const int n = p.size();
  const Bounds box =
      boundsOf(0, n, [&](int i) { return p.reference[i] + p.displacement[i]; }, [](int) { return true; }).orOrigin();
  const float cell = contactReach() + 0.5f * params_.spacing;
  const vec3 margin = glm::max(box.hi - box.lo, vec3(20.0f * cell));  // room for debris; beyond it cells clamp
  UniformGrid window;
  window.setWindow(box.lo - margin, box.hi + margin, cell > 0.0f ? cell : params_.spacing,
                   std::max<int64_t>(int64_t(8) * n, 1 << 16));
  return window.view();
}

// Projectiles whose launch time has come start; active ones move on at their velocity (positions at t + dt).
void PeridynamicsSolver::advanceProjectiles(PdArrays& a, double dt) {
  PdProjectileArrays& pr = a.projectiles;
  for (int k = 0; k < pr.size(); ++k) {
    if (!pr.active[k] && time_ >= projectileLaunch_[k]) pr.active[k] = 1;
    if (pr.active[k]) pr.centre[k] += float(dt) * pr.velocity[k];
  }
}

void PeridynamicsSolver::computeForces() {
  PdArrays& a = arrays_.edit();
  refreshContactList(a);
  PdStepParams p = params_;
  p.dt = 0.0f;
  p.forces = forcePass();
  pd::forceStage(exec_, hostViews(a), p);
  std::swap(a.particles.thresholdShift, a.particles.nextThresholdShift);
  if (p.forces == PdForcePass::Families) pd::bondStateStage(exec_, hostViews(a));
}

void PeridynamicsSolver::step(double dt) {
  params_.dt = float(dt);
  params_.forces = forcePass();
  if (arrays_.onDevice()) {
    PdArrays& inputs = arrays_.inputs();
    advanceProjectiles(inputs, dt);
    grips_.advance(time_, dt, inputs.particles.driveVelocity);
    if (arrays_.deviceNeedsUpload()) uploadToDevice();
    arrays_.device().uploadInputs(inputs);
    arrays_.device().step(params_);
    arrays_.deviceStepped();
  } else {
    PdArrays& a = arrays_.edit();
    advanceProjectiles(a, dt);
    grips_.advance(time_, dt, a.particles.driveVelocity);
    CpuStep cpu(*this, a);
    pd::stepStages(exec_, cpu, params_);
    // The CPU's family pass (a test of CUDA's pass) keeps the per-bond state current, as the device's download does.
    if (params_.forces == PdForcePass::Families) pd::bondStateStage(exec_, hostViews(a));
  }
  pushBackProjectiles(dt);
  advanceClock(dt);
}

// Dynamic projectiles: the reaction of the force densities they put on the particles (times the particles'
// volumes), and gravity, change their velocity for the next step.
void PeridynamicsSolver::pushBackProjectiles(double dt) {
  PdProjectileArrays& pr = arrays_.inputs().projectiles;
  bool any = false;
  for (size_t k = 0; k < projectileMass_.size(); ++k) any |= projectileMass_[k] > 0.0f && pr.active[k];
  if (!any) return;
  std::vector<glm::dvec3>& partial = reactionPartials_;
  partial.resize(pd::kReactionChunks);
  for (size_t k = 0; k < projectileMass_.size(); ++k) {
    if (!(projectileMass_[k] > 0.0f) || !pr.active[k]) continue;
    // Summed where the particles are (on the device only the partial sums come back), in a fixed order.
    if (arrays_.onDevice()) arrays_.device().projectileReaction(int(k), partial.data());
    else pd::projectileReactionStage(exec_, hostViews(arrays_.edit()), int(k), partial.data());
    glm::dvec3 onParticles(0.0);
    for (const glm::dvec3& p : partial) onParticles += p;
    pr.velocity[k] += float(dt) * (params_.gravity - vec3(onParticles) / projectileMass_[k]);
  }
}

double PeridynamicsSolver::freeMass() const {
  const PdParticleArrays& p = arrays_.layout().particles;  // constant: the host copy holds it
  double mass = 0.0;
  for (int i = 0; i < p.size(); ++i) mass += double(p.density[i]) * p.volume[i];
  return mass;
}

std::vector<float> PeridynamicsSolver::damage() const {
  const PdBondArrays& bonds = arrays_.read().bonds;
  return brokenBondFraction(particleCount(), bonds.first.data(), bonds.second.data(), bonds.broken.data(),
                            bonds.size(), kNoBonds);
}

double PeridynamicsSolver::bondEnergy() const { return hostStats(false).elasticEnergy; }

StatsTerms PeridynamicsSolver::hostStats(bool withFragments) const {
  PdArrays& a = arrays_.query();
  HostQueryScratch scratch(a.particles.size());
  return pd::particleStats(exec_, hostViews(a), model_, withFragments, scratch.view());
}

SimStats PeridynamicsSolver::stats() const {
  // Summed on the device while the state is there; only partial sums come back.
  const StatsTerms sums = arrays_.deviceCurrent() ? arrays_.device().stats(model_) : hostStats(true);
  return simStats(time_, steps_, particleCount(), arrays_.layout().bonds.size(), sums);
}

// The load on a grip: the force its particles receive from the material, against its motion.
KinematicLoad PeridynamicsSolver::kinematicLoad(const std::string& name) const {
  const int k = grips_.find(name);
  if (k < 0) throw std::invalid_argument("no grip named '" + name + "'");
  const PdParticleArrays& p = arrays_.read().particles;
  vec3 total(0.0f);
  for (int i = 0; i < p.size(); ++i)
    if (p.drivenBy[i] == int16_t(k)) total += p.volume[i] * p.forceDensity[i];
  return grips_.loadOn(k, total, vec3(0.0f), time_);  // peridynamic grips do not turn
}

std::vector<vec3> PeridynamicsSolver::displacementsOf(const std::vector<int>& ids) const {
  const std::vector<vec3>& u = arrays_.read().particles.displacement;
  std::vector<vec3> out;
  out.reserve(ids.size());
  for (int i : ids) out.push_back(u[i]);
  return out;
}

}  // namespace frac
