#pragma once
// Peridynamics: "pd-bond" (PMB, Levine et al. 2014 / LAMMPS peri/pmb) and "pd-state" (elastoplastic LPS, Chen et al.
// 2018) on the same particles, families, contact, projectiles and integration; only the force passes differ
// (PdForcePass). Bodies are filled with particles on a lattice, each bonded to every particle of its body within the
// horizon (pd_build.cpp); the stages of pd_step.h run on the CPU (pd_solver.cpp) or, while the backend is CUDA, on
// the device mirror (pd_device.h); the arrays are named once in pd_arrays.h and kept by ArraySolver.
#include <memory>
#include <string>
#include <vector>

#include "core/grid.h"
#include "solvers/array_solver.h"
#include "solvers/grips.h"
#include "solvers/peridynamics/pd_arrays.h"
#include "solvers/peridynamics/pd_device.h"
#include "solvers/peridynamics/pd_step.h"
#include "solvers/peridynamics/pd_surface_correction.h"
#include "surface/boundary_samples.h"
#include "surface/cell_field_builder.h"
#include "surface/fracture_surfaces.h"
#include "solvers/solver.h"

namespace frac {

class PeridynamicsSolver : public ArraySolver<PdArrays, PdViews, pd::PdDevice> {
 public:
  explicit PeridynamicsSolver(PdModel model = PdModel::Bond) : model_(model) {}
  void load(const SceneDesc& scene, const SolverOptions& options) override;  // pd_build.cpp
  void step(double dt) override;
  SimStats stats() const override;
  double freeMass() const override;
  KinematicLoad kinematicLoad(const std::string& name) const override;
  std::vector<vec3> displacementsOf(const std::vector<int>& elements) const override;
  void applyLiveSettings(const SceneDesc& scene) override;
  int launchProjectile(const vec3& position, const vec3& velocity, float radius, int material,
                       float density = 0.0f) override;  // pd_build.cpp
  int launchBreakableProjectile(const vec3& centre, const vec3& velocity, float radius, float elementRadius,
                                int material, float density = 0.0f) override;  // pd_build.cpp
  std::optional<ElementHit> castRay(const vec3& origin, const vec3& direction) override;  // pd_frame.cpp
  void writeFrame(RenderFrame& frame, bool withBonds) override;                           // pd_frame.cpp
  InstanceSummary writeInstances(SphereInstance* out, int capacity, ElementScalar scalar) override;  // pd_frame.cpp
  void writeFrameWithoutElements(RenderFrame& frame, const InstanceSummary& summary) override;     // pd_frame.cpp
  void writeSurfaces(SurfaceMesh& out, const SurfaceSettings& settings) override;                  // pd_frame.cpp
  std::string method() const override { return model_ == PdModel::State ? "pd-state" : "pd-bond"; }
  std::vector<float> damage() const override;

  // Direct access for tests and probes. The non-const displacements() is for edits: a device copy is re-uploaded
  // before the next step.
  int particleCount() const { return arrays_.layout().particles.size(); }
  const std::vector<vec3>& referencePositions() const { return arrays_.layout().particles.reference; }
  std::vector<vec3>& displacements() { return arrays_.edit().particles.displacement; }
  const std::vector<vec3>& displacements() const { return arrays_.read().particles.displacement; }
  const std::vector<vec3>& forceDensities() const { return arrays_.read().particles.forceDensity; }
  const std::vector<vec3>& velocities() const { return arrays_.read().particles.velocity; }
  const std::vector<float>& volumes() const { return arrays_.layout().particles.volume; }
  const PdBondArrays& bonds() const { return arrays_.read().bonds; }
  const std::vector<float>& plasticExtensions() const { return arrays_.read().bonds.plasticExtension; }  // pd-state
  vec3 projectileVelocity(int k) const { return arrays_.layout().projectiles.velocity.at(k); }
  float projectileMass(int k) const { return projectileMass_.at(k); }  // 0: moves at constant velocity
  void setDamping(float perSecond) { params_.damping = perSecond; }
  float horizon() const { return params_.horizon; }
  float spacing() const { return params_.spacing; }
  // pd-bond: the CPU runs CUDA's force pass (PdForcePass::Families, each bond at both ends) instead of its bond pass
  // and gather; the results have the same bits (a test compares them; no GPU needed).
  void setFamilyPass(bool onCpu);
  // The CPU steps with its family slots in groups of 2^shift particles (kDeviceSlotGroupShift: the device's layout)
  // until something lays them out again; the results have the same bits (a test compares them).
  void setSlotLayout(int shift);
  // Forces for the current displacements without moving anything, as at the start of a step.
  void computeForces();
  // Elastic energy: pd-bond, the sum over intact bonds of 1/2 c s^2 |xi| beta V_i V_j (the PMB micropotential);
  // pd-state, the sum over particles of W_i V_i with the LPS energy density (kernels/pd_state.h).
  double bondEnergy() const;
  // Applied force density on particle i (a load; tests and scenes), until changed.
  void setExternalForceDensity(int particle, const vec3& forceDensity);
  // Replaces material m (live edit) and the kernel constants derived from it.
  void setMaterial(int m, const MaterialDesc& desc) override;  // pd_build.cpp

 private:
  class CpuStep;  // stepStages' CPU side
  // A grip: a scene kinematic with grip: true drives the particles inside its shape at its velocity.
  struct Grip {
    std::string name;
    vec3 velocity{0.0f}, initialCentre{0.0f}, centre{0.0f};
    double start = 0.0, stop = 1e30;
  };

  // pd_build.cpp
  void applySolverSettings(const SolverDesc& solver);  // params_ from the scene's solver settings
  int addParticles(PdArrays& a, const std::vector<vec3>& positions, float radius, int material, float density,
                   int32_t body, const vec3& velocity);
  void buildFamilies(int firstParticle);  // bonds among particles [firstParticle, n) of the same body
  void finalizeBonds();
  void computeStateSetup();  // pd-state: omega per bond end and the weighted volume m of every particle
  void refreshMaterials();
  void computeStableDt();
  void rebuildReference();
  void storeSamples(PdArrays& a);
  // The per-pass arrays (slots, or the family pass's constants and end flags) for `pass`, from the per-bond state.
  void arrangeForcePass(PdArrays& a, PdForcePass pass, int slotGroupShift) const;
  int slotGroupShift() const;  // the slots' layout where the passes run now

  // pd_solver.cpp
  PdForcePass cpuForcePass() const;
  PdForcePass forcePass() const;  // where the steps run now
  float contactReach() const;
  void refreshContactList(PdArrays& a);  // the CPU's contact list
  GridView deviceGridWindow(const PdArrays& a) const;  // the device's contact grid: cells of reach + skin, wide
  void advanceProjectiles(PdArrays& a, double dt);
  void pushBackProjectiles(double dt);
  StatsTerms hostStats(bool withFragments) const;  // pd_stats.h over the host arrays
  void uploadToDevice() override;
  void saveExtra(CheckpointWriter& out) const override;  // pd_checkpoint.cpp
  void restoreExtra(const CheckpointReader& in) override;
  template <class Io>
  void checkpointFields(Io& io);  // one list for both directions (io/checkpoint_file.h)
  void leftDevice() override;

  PdModel model_ = PdModel::Bond;
  bool familyPassOnCpu_ = false;  // setFamilyPass
  Grips grips_;  // scene kinematics with grip: true
  // Per projectile, host only
  std::vector<double> projectileLaunch_;
  std::vector<uint16_t> projectileMaterial_;
  std::vector<float> projectileMass_;  // 0: moves at constant velocity; else reacts to the particles it pushes
  std::vector<glm::dvec3> reactionPartials_;  // pushBackProjectiles' scratch (pd_step.h projectileReactionStage)
  float throwConstant_ = 1e15f;
  PdProjectileModel throwModel_ = PdProjectileModel::Levine;
  std::vector<uint16_t> planeMaterial_;
  BoundarySamples samples_;  // outer-surface samples per particle (PdArrays::sample*)
  CellFieldStorage<CpuExec> cellField_;  // writeSurfaces' scratch
  FractureSurfaceExtractor<CpuExec> surfaces_;
  // The CPU's contact candidates (PdArrays::neighborStart/List)
  UniformGrid grid_;
  std::vector<vec3> listPosition_;
  bool listValid_ = false;
  float skin_ = 0.0f;
  PdStepParams params_;
  float horizonFactor_ = 3.0f;
  // The surface correction (pd_surface_correction.h): on, and per body the stretch sums of a particle inside it
  bool surfaceCorrection_ = false;
  std::vector<FamilyStretchSums> bulkStretchSums_;
  LatticeCell referenceCell_;  // ReferenceElements::cell of the scene's bodies
};

}  // namespace frac
