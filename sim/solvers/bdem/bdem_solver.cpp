// BdemSolver: stepping (bdem_step.h's stepStages on the CPU or the device), the CPU's contact list, and the answers
// of the Solver interface that are not frames (bdem_frame.cpp) or building (bdem_build.cpp).
#include "solvers/bdem/bdem_solver.h"

#include <algorithm>
#include <stdexcept>

#include "solvers/bdem/bdem_stats.h"
#include "solvers/query_scratch.h"
#include "solvers/solver_common.h"

namespace frac {

// stepStages' CPU side: the host arrays, the CPU's grid and Verlet list.
class BdemSolver::CpuStep {
 public:
  CpuStep(BdemSolver& solver, BdemArrays& arrays) : solver_(solver), arrays_(arrays) {}
  BdemViews views() const {
    BdemViews v = hostViews(arrays_);
    v.grid = solver_.grid_.view();
    return v;
  }
  BdemViews refreshContactList(const BdemViews&) {
    solver_.refreshContactCandidates(arrays_);
    return views();
  }
  void swapContactBuffers() {
    std::swap(arrays_.contacts.previousPartner, arrays_.contacts.nextPartner);
    std::swap(arrays_.contacts.previousSpring, arrays_.contacts.nextSpring);
  }
  void mark(int) const {}

 private:
  BdemSolver& solver_;
  BdemArrays& arrays_;
};

void BdemSolver::uploadToDevice() {
  arrays_.device().upload(arrays_.query(), grid_.view());
  arrays_.uploaded();
}

const std::vector<float>& BdemSolver::stressRatios() {
  BdemArrays& a = arrays_.query();
  bdem::stressStage(exec_, hostViews(a));
  return a.bonds.stressRatio;
}

void BdemSolver::applyLiveSettings(const SceneDesc& scene) {
  applyEditedMaterials(scene);
  params_.gravity = scene.solver.gravity;
}

// Contact candidates (CPU): the grid and the Verlet list, rebuilt when an element moved more than skin / 2 since the
// last build (the pairs of broken bonds come from the bond list: bdem::forEachListCandidate).
void BdemSolver::refreshContactCandidates(BdemArrays& a) {
  const BdemElementArrays& e = a.elements;
  const int n = e.size();
  if (listValid_) {
    float moved2 = 0.0f;  // max is exact and order-free: the same answer for any split of the loop
    for (int i : a.gridElements) moved2 = std::max(moved2, length2(e.position[i] - listPosition_[i]));
    if (4.0f * moved2 <= a.listSkin * a.listSkin) return;
  }
  grid_.build(e.position.data(), e.radius.data(), e.flags.data(), kFlagProjectile | kFlagInactive, n);
  BdemViews v = hostViews(a);
  v.grid = grid_.view();
  std::vector<int32_t>& start = a.neighborStart;
  std::vector<int32_t>& list = a.neighborList;
  start.assign(n + 1, 0);
  // Each thread lists a block of elements into its own buffer, then the buffers are joined in block order: the list
  // any number of threads builds.
  const int blocks = parallelBlocks(exec_, n);
  listBlocks_.resize(blocks);
  parallel_blocks(n, blocks, [&](int b, int begin, int end) {
    std::vector<int32_t>& part = listBlocks_[b];
    part.clear();
    for (int i = begin; i < end; ++i) {
      start[i] = int32_t(part.size());
      if (e.flags[i] & (kFlagProjectile | kFlagInactive)) continue;
      bdem::forEachListCandidate(v, i, [&](int j) { part.push_back(j); });
      // Contacts are summed in partner order on every backend (bdem::TouchingPartners): bit-identical CPU and CUDA.
      std::sort(part.begin() + start[i], part.end());
    }
  });
  std::vector<int32_t> offset(size_t(blocks) + 1, 0);
  for (int b = 0; b < blocks; ++b) offset[b + 1] = offset[b] + int32_t(listBlocks_[b].size());
  list.resize(offset[blocks]);
  parallel_blocks(n, blocks, [&](int b, int begin, int end) {
    for (int i = begin; i < end; ++i) start[i] += offset[b];
    std::copy(listBlocks_[b].begin(), listBlocks_[b].end(), list.begin() + offset[b]);
  });
  start[n] = offset[blocks];
  listPosition_ = e.position;
  listValid_ = true;
}

// The kinematic bodies' poses for the step from time_ to time_ + dt (active at mid-step), into the Input arrays.
void BdemSolver::updateKinematicBodies(BdemArrays& a, double dt) {
  BdemKinematicArrays& k = a.kinematics;
  for (size_t b = 0; b < kinematicBodies_.size(); ++b) {
    KinematicBody& body = kinematicBodies_[b];
    const bool active = time_ + 0.5 * dt >= body.start && time_ + 0.5 * dt < body.stop;
    const vec3 v = active ? body.velocity : vec3(0.0f), w = active ? body.angularVelocity : vec3(0.0f);
    for (int c = 0; c < 3; ++c) body.travel[c] += dt * double(v[c]);
    // in double, then split into the float nearest it and the rest (kinematicStage adds both to the element's arm)
    const glm::dvec3 centre =
        glm::dvec3(body.initialCentre) + glm::dvec3(body.travel[0], body.travel[1], body.travel[2]);
    body.centre = vec3(centre);
    body.orientation = normalized(mul(fromRotationVector(w * float(dt)), body.orientation));
    k.bodyCentre[b] = body.centre;
    k.bodyCentreLow[b] = vec3(centre - glm::dvec3(body.centre));
    k.bodyOrientation[b] = body.orientation;
    k.bodyVelocity[b] = v;
    k.bodyAngularVelocity[b] = w;
  }
}

// Projectiles whose launch time has come. Only the host changes flags, so they are current even while the device
// steps; the launch itself is a host edit.
void BdemSolver::launchDueProjectiles() {
  const std::vector<int32_t>& projectiles = arrays_.layout().projectiles;
  for (size_t k = 0; k < projectiles.size(); ++k) {
    const int e = projectiles[k];
    if ((arrays_.layout().elements.flags[e] & kFlagInactive) && time_ >= launchTime_[k]) {
      BdemElementArrays& elements = arrays_.edit().elements;
      elements.flags[e] &= uint8_t(~kFlagInactive);
      elements.velocity[e] = launchVelocity_[k];
    }
  }
}

void BdemSolver::step(double dt) {
  params_.dt = float(dt);
  launchDueProjectiles();
  if (arrays_.onDevice()) {
    updateKinematicBodies(arrays_.inputs(), dt);
    if (arrays_.deviceNeedsUpload()) uploadToDevice();
    arrays_.device().uploadInputs(arrays_.inputs());
    arrays_.device().step(params_);
    arrays_.deviceStepped();
  } else {
    BdemArrays& a = arrays_.edit();
    updateKinematicBodies(a, dt);
    CpuStep cpu(*this, a);
    bdem::stepStages(exec_, cpu, params_);
  }
  advanceClock(dt);
}

SimStats BdemSolver::stats() const {
  StatsTerms sums;
  if (arrays_.deviceCurrent()) {
    sums = arrays_.device().stats();  // summed on the device: the state stays there
  } else {
    BdemArrays& a = arrays_.query();
    HostQueryScratch scratch(a.elements.size());
    sums = bdem::elementStats(exec_, hostViews(a), scratch.view());
  }
  const BdemArrays& layout = arrays_.layout();
  return simStats(time_, steps_, layout.elements.size(), layout.bonds.size(), sums);
}

KinematicLoad BdemSolver::kinematicLoad(const std::string& name) const {
  for (const KinematicBody& body : kinematicBodies_) {
    if (body.name != name) continue;
    const BdemElementArrays& elements = arrays_.read().elements;
    vec3 total(0.0f), moment(0.0f);
    for (int e : body.elements) {
      total += elements.force[e];
      moment += glm::cross(elements.position[e] - body.centre, elements.force[e]) + elements.torque[e];
    }
    KinematicLoad load = loadAgainstMotion(body.velocity, body.centre, body.initialCentre, total);
    addTurning(load, body.angularVelocity, body.start, body.stop, time_, moment);
    return load;
  }
  throw std::invalid_argument("no kinematic body named '" + name + "'");
}

std::vector<vec3> BdemSolver::displacementsOf(const std::vector<int>& ids) const {
  const BdemElementArrays& e = arrays_.read().elements;
  std::vector<vec3> out;
  out.reserve(ids.size());
  // with the low part (integrate.h addCompensated): a gauge's motion is far below the coordinates' float spacing
  for (int i : ids) out.push_back((e.position[i] - initialPosition_[i]) + e.positionLow[i]);
  return out;
}

}  // namespace frac
