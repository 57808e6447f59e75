// RbdemSolver: the scene built by BdemSolver, the rods' rest state, and the implicit or explicit step of rbdem_step.h
// on the CPU.
#include "solvers/rbdem/rbdem_solver.h"

#include <algorithm>

#include "solvers/rbdem/rbdem_aggregates.h"
#include "solvers/solver_common.h"

namespace frac {

// The steps' CPU side: the host arrays, BDEM's grid and Verlet list, and the CG's sums.
class RbdemSolver::CpuStep {
 public:
  CpuStep(RbdemSolver& solver, BdemArrays& arrays) : solver_(solver), arrays_(arrays) {}
  BdemViews views() const {
    BdemViews v = hostViews(arrays_);
    v.grid = solver_.grid_.view();
    return v;
  }
  BdemViews refreshContactList(const BdemViews&) {
    solver_.refreshContactCandidates(arrays_);
    return views();
  }
  // The CG's scalars (rbdem::conjugateGradient), looked at after every iteration.
  CgState cgState() const { return arrays_.solve.cg[0]; }
  static constexpr int cgBatch() { return 1; }
  void mark(int) const {}

 private:
  RbdemSolver& solver_;
  BdemArrays& arrays_;
};

void RbdemSolver::readSettings(const SceneDesc& scene) {
  const SolverDesc& s = scene.solver;
  integration_ = s.integration;
  implicitStep_ = s.implicitStep;
  rod_.kappa = s.timoshenkoKappa;
  rod_.tolerance = s.pcgTolerance;
  rod_.maxIterations = s.pcgMaxIterations;
  rod_.preconditioner = s.pcgPreconditioner;
  rod_.fracture = s.rodFracture;
  rod_.hydrostaticStrength = s.hydrostaticStrength;
  arrays_.edit().rods.kappa = rod_.kappa;
  contactStiffness_ = s.contactStiffness;
  double stiffest = 0.0;
  for (const MaterialDesc& m : materialDescs_) stiffest = std::max(stiffest, double(m.young));
  rod_.contactStiffness = float(contactStiffness_ ? *contactStiffness_ : 0.1 * stiffest);
}

void RbdemSolver::load(const SceneDesc& scene, const SolverOptions& options) {
  BdemSolver::load(scene, options);
  readSettings(scene);
  prepareRods(rod_, integration_);
}

void RbdemSolver::prepareRods(const RbdemStepParams& params, RodIntegration integration) {
  rod_ = params;
  rod_.base = params_;
  arrays_.edit().rods.kappa = rod_.kappa;
  integration_ = integration;
  lastIterations_ = 0;
  totalIterations_ = implicitSteps_ = 0;
  // A bond's Hessian product is ~150 flops and a CG iteration is a handful of short loops: worth a thread from a
  // few hundred items on (a parallel region costs a few microseconds).
  exec_.minParallel = 256;
  arrays_.edit().rods.rest.clear();
  sizeArrays();
  computeRodForces();
}

void RbdemSolver::applyLiveSettings(const SceneDesc& scene) {
  BdemSolver::applyLiveSettings(scene);
  readSettings(scene);
}

void RbdemSolver::sizeArrays() {
  BdemArrays& a = arrays_.edit();
  const BdemElementArrays& e = a.elements;
  const int n = e.size();
  const long long bonds = a.bonds.size();
  RbdemRodArrays& r = a.rods;
  for (long long b = (long long)r.rest.size(); b < bonds; ++b) {  // eq. 20 at the state the bond was made in
    const int i = a.bonds.first[b], j = a.bonds.second[b];
    r.rest.push_back(rodRest(e.position[i], e.position[j], e.orientation[i], e.orientation[j], e.radius[i],
                             e.radius[j]));
  }
  r.jacobian.resize(size_t(rodWordBlocks(int(bonds))));
  r.out.resize(bonds);
  r.diagonal.resize(bonds);
  RbdemSolveArrays& s = a.solve;
  for (auto* v : {&s.startPosition, &s.startPositionLow, &s.residualX, &s.preconditionedX, &s.directionX,
                  &s.productX, &s.stepX, &s.barrierDiagonal, &s.inverseDiagonalX})
    v->resize(n, vec3(0.0f));
  for (auto* v : {&s.torqueParameter, &s.residualQ, &s.preconditionedQ, &s.directionQ, &s.productQ, &s.stepQ,
                  &s.inverseDiagonalQ})
    v->resize(n, glm::vec4(0.0f));
  s.startOrientation.resize(n, quat(1, 0, 0, 0));
  s.preconditioner.resize(n, Block7{});
  s.hydrostatic.resize(n, 0.0f);
  s.terms.resize(n, 0.0f);
  s.contactPartner.assign(size_t(n) * a.contacts.slots, kNoPartner);
  s.contactBlock.resize(size_t(n) * a.contacts.slots);
  s.projectilePartials.resize(a.projectiles.size() * kProjectileChunks);
  s.partials.resize(size_t(treeSumPartials(n)));
  s.cg.resize(1);
  if (rod_.preconditioner == RodPreconditioner::TwoLevel) rbdem::buildAggregates(a);
  else rbdem::clearAggregates(s);
}

// Forces and torques of the state as it is (no breakage): the explicit step's first half kick, the loads on kinematic
// bodies before the first step.
void RbdemSolver::computeRodForces() {
  BdemArrays& a = arrays_.edit();
  CpuStep cpu(*this, a);
  const BdemViews v = cpu.refreshContactList(cpu.views());
  rbdem::forceStage(exec_, v, rod_, false, false);
}

void RbdemSolver::step(double dt) {
  rod_.base = params_;
  rod_.base.dt = float(dt);
  launchDueProjectiles();
  const BdemArrays& layout = arrays_.layout();
  const bool twoLevel = rod_.preconditioner == RodPreconditioner::TwoLevel;
  if (layout.rods.rest.size() != size_t(layout.bonds.size()) || layout.solve.stepX.size() != size_t(layout.elements.size()) ||
      twoLevel == layout.solve.aggregateOf.empty())
    sizeArrays();  // bonds or elements were added (a thrown ball), or the preconditioner changed
  if (arrays_.onDevice()) {  // the same stages on the device mirror (bdem_device.cu)
    updateKinematicBodies(arrays_.inputs(), dt);
    if (arrays_.deviceNeedsUpload()) uploadToDevice();
    arrays_.device().uploadInputs(arrays_.inputs());
    lastIterations_ = arrays_.device().stepRods(rod_, integration_);
    arrays_.deviceStepped();
  } else {
    BdemArrays& a = arrays_.edit();
    updateKinematicBodies(a, dt);
    CpuStep cpu(*this, a);
    lastIterations_ = integration_ == RodIntegration::Implicit ? rbdem::implicitStages(exec_, cpu, rod_)
                                                               : (rbdem::explicitStages(exec_, cpu, rod_), 0);
  }
  if (integration_ == RodIntegration::Implicit) {
    totalIterations_ += lastIterations_;
    ++implicitSteps_;
  }
  advanceClock(dt);
}

SimStats RbdemSolver::stats() const {
  SimStats s = BdemSolver::stats();
  s.iterationsPerStep = implicitSteps_ > 0 ? double(totalIterations_) / double(implicitSteps_) : 0.0;
  return s;
}

int RbdemSolver::launchProjectile(const vec3& position, const vec3& velocity, float radius, int material,
                                  float density) {
  const int e = BdemSolver::launchProjectile(position, velocity, radius, material, density);
  sizeArrays();
  return e;
}

int RbdemSolver::launchBreakableProjectile(const vec3& centre, const vec3& velocity, float radius,
                                           float elementRadius, int material, float density) {
  const int count = BdemSolver::launchBreakableProjectile(centre, velocity, radius, elementRadius, material, density);
  sizeArrays();
  computeRodForces();
  return count;
}

}  // namespace frac
