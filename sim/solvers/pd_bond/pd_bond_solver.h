#pragma once
// Bond-based peridynamics (Levine et al. 2014; the PMB model of Silling & Askari 2005 and LAMMPS peri/pmb): bodies
// filled with particles on a lattice, each bonded to every particle of its body within the horizon, and the step of
// pd_bond_step.h with the OpenMP exec policy, or with the CUDA one (pd_bond_cuda.h) when the backend is CUDA; the
// host arrays are refreshed from the device when read and re-uploaded after a host-side edit (as BdemSolver does).
#include <memory>
#include <string>
#include <vector>

#include "backend/exec.h"
#include "core/grid.h"
#include "solvers/pd_bond/pd_bond_cuda.h"
#include "solvers/pd_bond/pd_bond_views.h"
#include "solvers/solver.h"

namespace frac {

struct PdBondSet {
  std::vector<int32_t> first, second;
  std::vector<float> xiLength, beta, thresholdScale, stretch;
  std::vector<int32_t> slotOfFirst, slotOfSecond;  // each bond's places in its two particles' families
  std::vector<int32_t> groupStart;                 // sliced slot layout (pd_bond_views.h kSlotGroup)
  std::vector<FamilySlot> slot;                    // per family entry: what the bond pass left for that end
  std::vector<FamilyBond> familyBond;              // with the family pass on the CPU (setFamilyPass), per entry
  std::vector<uint8_t> endBroken;                  // with the family pass on the CPU, per entry
  std::vector<float> omega, plasticExtension;  // pd-state, per bond end (2 b, 2 b + 1)
  std::vector<float> extension;                // pd-state, per bond
  std::vector<uint8_t> broken;
  std::vector<int32_t> particleStart, particleEntry, particleNeighbor;
  long long size() const { return (long long)first.size(); }
};

// Both peridynamic methods: "pd-bond" (PMB, Levine 2014) and "pd-state" (elastoplastic LPS, Chen 2018) share the
// particles, families, contact, projectiles, integration and CUDA mirror; only the bond force passes differ.
class PeridynamicsSolver : public Solver {
 public:
  explicit PeridynamicsSolver(PdModel model = PdModel::Bond) : model_(model) {}
  void load(const SceneDesc& scene, const SolverOptions& options) override;
  void step(double dt) override;
  double stableDt() const override { return stableDt_; }
  SimStats stats() const override;
  KinematicLoad kinematicLoad(const std::string& name) const override;
  std::vector<int> bodyElementsNearLine(const vec3& point, const vec3& direction, float radius) const override;
  double bodyExtent(const vec3& direction) const override;
  double meanDisplacement(const std::vector<int>& elements, const vec3& direction) const override;
  void setMaterial(int material, const MaterialDesc& desc) override;
  void setGravity(const vec3& gravity) override { params_.gravity = gravity; }
  int launchProjectile(const vec3& position, const vec3& velocity, float radius, int material,
                       float density = 0.0f) override;
  int launchBreakableProjectile(const vec3& centre, const vec3& velocity, float radius, float elementRadius,
                                int material, float density = 0.0f) override;
  std::optional<ElementHit> castRay(const vec3& origin, const vec3& direction) override;  // pd_bond_frame.cpp
  void writeFrame(RenderFrame& frame, bool withBonds) override;  // pd_bond_frame.cpp
  InstanceSummary writeInstances(SphereInstance* out, int capacity, ElementScalar scalar) override;  // pd_bond_frame.cpp
  void writeFrameWithoutElements(RenderFrame& frame, const InstanceSummary& summary) override;     // pd_bond_frame.cpp
  void setThreads(int threads) override { exec_.threads = threads; }
  uint64_t stateDigest() const override;
  std::string method() const override { return model_ == PdModel::State ? "pd-state" : "pd-bond"; }
  std::vector<float> damage() const override;
  std::string setBackend(Backend requested) override;
  Backend activeBackend() const override { return device_ ? Backend::Cuda : Backend::Cpu; }
  void setSolverSettings(const SolverDesc& solver) override;
  void finishQueuedWork() override;

  // Direct access for tests and probes.
  int particleCount() const { return int(reference_.size()); }
  const std::vector<vec3>& referencePositions() const { return reference_; }
  std::vector<vec3>& displacements();  // for editing: the device copy is re-uploaded before the next step
  const std::vector<vec3>& displacements() const;
  const std::vector<vec3>& forceDensities() const;
  const std::vector<vec3>& velocities() const;
  void setDamping(float perSecond) { params_.damping = perSecond; }
  const std::vector<float>& volumes() const { return volume_; }
  vec3 projectileVelocity(int k) const { return projectileVelocity_.at(k); }
  float projectileMass(int k) const { return projectileMass_.at(k); }  // 0: moves at constant velocity
  const PdBondSet& bonds() const;
  float horizon() const { return params_.horizon; }
  float spacing() const { return params_.spacing; }
  // pd-bond: the CPU runs the family pass that CUDA runs (each bond at both ends) instead of its bond pass and
  // gather; the results have the same bits (a test compares them; no GPU needed).
  void setFamilyPass(bool onCpu);
  // Forces for the current displacements without moving anything (bond pass + gather), as at the start of a step.
  void computeForces();
  // Elastic energy: pd-bond, the sum over intact bonds of 1/2 c s^2 |xi| beta V_i V_j (the PMB micropotential);
  // pd-state, the sum over particles of W_i V_i with the LPS energy density (kernels/pd_state.h).
  double bondEnergy() const;
  // Applied force density on particle i (a load; tests and scenes), until changed.
  void setExternalForceDensity(int particle, const vec3& forceDensity);
  const std::vector<float>& plasticExtensions() const;  // pd-state, per bond end

 private:
  PdViews views();
  // The projectiles as sphere instances (they come after the particles in frames and instances).
  std::vector<SphereInstance> projectileInstances(ElementScalar scalar) const;
  int addParticles(const std::vector<vec3>& positions, float spacing, int material, float density, int32_t body,
                   const vec3& velocity);
  void buildFamilies(int firstParticle);  // bonds among particles [firstParticle, n) of the same body
  void finalizeBonds();
  void refreshMaterials();
  void computeStableDt();
  void computeStateSetup();  // pd-state: omega per bond end and the weighted volume m of every particle
  void refreshContactList();
  float contactReach() const;
  GridView deviceGridWindow() const;  // the device's contact grid: cells of reach + skin over a wide window
  // The host arrays as the simulation stands: copied back from the device when it stepped since, and pd-bond's per-bond
  // state (broken, stretch) taken from the family ends (pd_bond_step.h bondStateStage) when a step changed them.
  void ensureHostCurrent() const;
  // The per-slot arrays of the CPU's force stage: slots for the bond passes, or the family pass's constants and end
  // flags (buildFamilyBonds) while familyPassOnCpu_.
  void prepareSlotStorage();
  // pd-bond's family pass (CUDA's): each slot's bond constants and both ends' broken flags from the per-bond state.
  void buildFamilyBonds(std::vector<FamilyBond>& constants, std::vector<uint8_t>& endBroken) const;
  void runForceStage(PdStepParams params);  // the CPU's force stage (after a family pass, the shifts swapped in)
  StatsTerms hostStats(bool withFragments) const;  // pd_stats.h over the host arrays (current)
  void hostChanged() { deviceStale_ = true; }
  void uploadToDevice();

  PdModel model_ = PdModel::Bond;
  CpuExec exec_;
  std::vector<MaterialDesc> materialDescs_;
  std::vector<PdMaterial> materials_;
  std::vector<vec3> reference_, displacement_, velocity_, forceDensity_;
  std::vector<float> volume_, density_, thresholdShift_, particleRadius_;
  std::vector<float> nextThresholdShift_;  // what a family pass writes, swapped with thresholdShift_
  bool familyPassOnCpu_ = false;           // setFamilyPass
  std::vector<float> weightedVolume_, dilatation_, particleDamage_;  // pd-state
  std::vector<vec3> externalForce_;                                 // empty until a load is set
  // Grips: scene kinematics with grip: true drive the particles inside their shape at their velocity
  struct Grip {
    std::string name;
    vec3 velocity{0.0f}, initialCentre{0.0f}, centre{0.0f};
    double start = 0.0, stop = 1e30;
  };
  std::vector<Grip> grips_;
  std::vector<int16_t> drivenBy_;     // per particle; empty without grips
  std::vector<vec3> driveVelocity_;   // per grip, this step's (0 outside [start, stop))
  void updateGrips(double dt);
  std::vector<uint16_t> material_;
  std::vector<int32_t> body_;
  PdBondSet bonds_;
  // Projectiles (constant velocity)
  std::vector<vec3> projectileCentre_, projectileVelocity_;
  std::vector<float> projectileRadius_, projectileConstant_;
  std::vector<PdProjectileModel> projectileModel_;
  std::vector<uint8_t> projectileActive_;
  std::vector<double> projectileLaunch_;
  std::vector<uint16_t> projectileMaterial_;
  std::vector<float> projectileMass_;  // 0: moves at constant velocity; else reacts to the particles it pushes
  std::vector<glm::dvec3> reactionPartials_;  // pushBackProjectiles' scratch (pd_bond_step.h projectileReactionStage)
  void pushBackProjectiles(double dt);
  float throwConstant_ = 1e15f;
  PdProjectileModel throwModel_ = PdProjectileModel::Levine;
  std::vector<vec3> planePoint_, planeNormal_;
  std::vector<uint16_t> planeMaterial_;
  // Contact Verlet list
  UniformGrid grid_;
  std::vector<int32_t> neighborStart_, neighborList_;
  std::vector<vec3> listPosition_;
  bool listValid_ = false;
  float skin_ = 0.0f;
  PdStepParams params_;
  float horizonFactor_ = 3.0f;
  bool partialVolume_ = true;
  double time_ = 0.0;
  long long steps_ = 0;
  double stableDt_ = 1e-7;
  unsigned long long seed_ = 1;
  std::unique_ptr<pd::PdCuda> device_;  // set while the CUDA backend runs the steps
  mutable bool hostStale_ = false;
  mutable bool bondStateStale_ = false;  // a family pass on the CPU changed the ends since bondStateStage ran
  bool deviceStale_ = true;
};

}  // namespace frac
