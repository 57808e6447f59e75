#pragma once
// Explicit Bonded DEM (Lu et al. 2021): builds elements and bonds from a scene (bdem_build.cpp) and runs the stages of
// bdem_step.h on the CPU (bdem_solver.cpp) or, while the backend is CUDA, on the device mirror (bdem_device.h); the
// arrays are named once in bdem_arrays.h and kept by ArraySolver.
#include <memory>
#include <string>
#include <vector>

#include "core/grid.h"
#include "solvers/array_solver.h"
#include "solvers/bdem/bdem_arrays.h"
#include "solvers/bdem/bdem_device.h"
#include "solvers/bdem/bdem_step.h"
#include "surface/boundary_samples.h"
#include "surface/cell_field_builder.h"
#include "surface/fracture_surfaces.h"

namespace frac {

// A rigid body moved on a prescribed path (indenter, support, blade, grip).
struct KinematicBody {
  std::string name;
  vec3 centre{0.0f}, initialCentre{0.0f};
  // Distance moved since the start, summed in double: a slow grip's step (a lab test of a stiff material moves
  // ~1e-10 m a step) is below a float position's resolution and would be lost if added to `centre` each step.
  double travel[3] = {0.0, 0.0, 0.0};
  quat orientation{1, 0, 0, 0};
  vec3 velocity{0.0f}, angularVelocity{0.0f};  // prescribed, while active
  double start = 0.0, stop = 1e30;
  std::vector<int32_t> elements;
};

class BdemSolver : public ArraySolver<BdemArrays, BdemViews, bdem::BdemDevice> {
 public:
  void load(const SceneDesc& scene, const SolverOptions& options) override;  // bdem_build.cpp
  void step(double dt) override;
  SimStats stats() const override;
  double freeMass() const override;  // bdem_frame.cpp
  KinematicLoad kinematicLoad(const std::string& name) const override;
  std::vector<vec3> displacementsOf(const std::vector<int>& elements) const override;
  void applyLiveSettings(const SceneDesc& scene) override;
  int launchProjectile(const vec3& position, const vec3& velocity, float radius, int material,
                       float density = 0.0f) override;  // bdem_build.cpp
  int launchBreakableProjectile(const vec3& centre, const vec3& velocity, float radius, float elementRadius,
                                int material, float density = 0.0f) override;  // bdem_build.cpp
  std::optional<ElementHit> castRay(const vec3& origin, const vec3& direction) override;  // bdem_frame.cpp
  void writeFrame(RenderFrame& frame, bool withBonds) override;                           // bdem_frame.cpp
  InstanceSummary writeInstances(SphereInstance* out, int capacity, ElementScalar scalar) override;  // bdem_frame.cpp
  void writeFrameWithoutElements(RenderFrame& frame, const InstanceSummary& summary) override;     // bdem_frame.cpp
  void writeSurfaces(SurfaceMesh& out, const SurfaceSettings& settings) override;                  // bdem_frame.cpp
  std::string method() const override { return "bdem"; }
  std::vector<float> damage() const override;  // bdem_frame.cpp

  // Direct access for tests and probes. The non-const elements() is for edits: a device copy is re-uploaded before
  // the next step.
  BdemElementArrays& elements() { return arrays_.edit().elements; }
  const BdemElementArrays& elements() const { return arrays_.read().elements; }
  const BdemBondArrays& bonds() const { return arrays_.read().bonds; }
  // Each element's share of this step's contact energy (J).
  const std::vector<float>& contactEnergies() const { return arrays_.read().contacts.energy; }
  // max(sigma / sigma_c, tau / tau_c) of every bond now (0 for broken ones): the stress colour of the renderer.
  const std::vector<float>& stressRatios();
  // Replaces material m (live edit) and recomputes the constants of every bond.
  void setMaterial(int m, const MaterialDesc& desc) override;  // bdem_build.cpp

  // Hand-made setups (tests): an empty solver with materials and contact settings, then elements, bonds, planes and
  // kinematic bodies, then prepare(). bdem_build.cpp.
  void initEmpty(const std::vector<MaterialDesc>& materials, const vec3& gravity, bool contact);
  int addElement(const vec3& position, float radius, int material, uint8_t flags = 0);
  // Adds a bond between two existing elements (rest state from their current positions, eq. 2); its Weibull draws
  // are numbered drawIndex (default: its place in the bond list).
  void addBond(int i, int j, int material, int64_t drawIndex = -1);
  // Rebuilds the CSR adjacency and per-bond buffers after bonds were added by hand.
  void finalizeBonds();
  void addPlane(const vec3& point, const vec3& normal, int material);
  // `hold` other than Pose: the elements keep their rotational inertia and turn under their bonds' torques (a pin);
  // a roller's keep their mass too and move freely along its axis.
  int addKinematicBody(const std::string& name, const std::vector<int32_t>& elements, const vec3& velocity,
                       const vec3& angularVelocity, const vec3& centre, KinematicHold hold = KinematicHold::Pose);
  void prepare();  // grid window, contact buffers, projectile list, forces at t = 0; after building by hand

 protected:
  class CpuStep;  // stepStages' CPU side
  void buildBondsWithinBodies(const std::vector<float>& bodyGap, const std::vector<int32_t>& packedRank);
  void rebuildReference();
  void updateKinematicBodies(BdemArrays& a, double dt);
  void computeStableDt();
  void refreshContactCandidates(BdemArrays& a);  // the CPU's Verlet list, rebuilt after moves of skin / 2 or breaks
  void launchDueProjectiles();
  void uploadToDevice() override;
  void saveExtra(CheckpointWriter& out) const override;  // bdem_checkpoint.cpp
  void restoreExtra(const CheckpointReader& in) override;
  template <class Io>
  void checkpointFields(Io& io);  // one list for both directions (io/checkpoint_file.h)
  void leftDevice() override { listValid_ = false; }  // the Verlet list was not kept up to date on the device

  std::vector<KinematicBody> kinematicBodies_;
  BoundarySamples samples_;  // outer-surface samples per element, copied into the arrays by prepare()
  CellFieldStorage<CpuExec> cellField_;  // writeSurfaces' scratch
  FractureSurfaceExtractor<CpuExec> surfaces_;
  std::vector<vec3> initialPosition_;  // every element at prepare() (probes measure displacements from it)
  std::vector<uint8_t> bondedBody_;  // per scene body: bond its touching elements
  LatticeCell referenceCell_;         // ReferenceElements::cell of the scene's bodies
  std::vector<double> launchTime_;   // per projectile
  std::vector<vec3> launchVelocity_;
  // The CPU's contact candidates: grid and Verlet list (BdemArrays::neighborStart/List)
  UniformGrid grid_;
  std::vector<vec3> listPosition_;  // positions when the Verlet list was built
  std::vector<std::vector<int32_t>> listBlocks_;  // the list's rows of each thread's block of elements, while built
  bool listValid_ = false;
  BdemStepParams params_;
};

}  // namespace frac
