#pragma once
// Explicit Bonded DEM (Lu et al. 2021): builds elements and bonds from a scene and runs the step of bdem_step.h
// with the OpenMP exec policy, or with the CUDA one (bdem_cuda.h) when the backend is CUDA. The host arrays stay the
// reference copy for everything but stepping: they are refreshed from the device when read and re-uploaded after
// a host-side edit (material, projectile, reset by hand).
#include <memory>
#include <string>
#include <vector>

#include "backend/exec.h"
#include "core/element_state.h"
#include "core/grid.h"
#include "solvers/bdem/bdem_cuda.h"
#include "solvers/bdem/bdem_views.h"
#include "solvers/solver.h"

namespace frac {

// Bonds stored once per pair, with per-element CSR adjacency (see BondView).
struct BondSet {
  std::vector<int32_t> first, second;
  std::vector<BondRest> rest;
  std::vector<float> stiffnessScale, tensileScale, shearScale;
  std::vector<uint16_t> material;
  std::vector<uint8_t> broken;
  std::vector<BondCoefficients> coefficients;
  std::vector<vec3> forceOnJ, torqueShared, torqueRelative;
  std::vector<float> stressRatio;
  std::vector<uint8_t> exactPending;
  std::vector<int32_t> elementStart, elementEntry, elementNeighbor;
  long long size() const { return (long long)first.size(); }
};

// A rigid body moved on a prescribed path (indenter, support, blade, grip).
struct KinematicBody {
  std::string name;
  vec3 centre{0.0f}, initialCentre{0.0f};
  quat orientation{1, 0, 0, 0};
  vec3 velocity{0.0f}, angularVelocity{0.0f};  // prescribed, while active
  double start = 0.0, stop = 1e30;
  std::vector<int32_t> elements;
};

class BdemSolver : public Solver {
 public:
  void load(const SceneDesc& scene, const SolverOptions& options) override;
  void step(double dt) override;
  double stableDt() const override { return stableDt_; }
  SimStats stats() const override;
  KinematicLoad kinematicLoad(const std::string& name) const override;
  std::vector<int> bodyElementsNearLine(const vec3& point, const vec3& direction, float radius) const override;
  double meanDisplacement(const std::vector<int>& elements, const vec3& direction) const override;
  double bodyExtent(const vec3& direction) const override;
  std::optional<ElementHit> castRay(const vec3& origin, const vec3& direction) override;  // bdem_frame.cpp
  void writeFrame(RenderFrame& frame, bool withBonds) override;  // bdem_frame.cpp
  InstanceSummary writeInstances(SphereInstance* out, int capacity, ElementScalar scalar) override;  // bdem_frame.cpp
  void writeFrameWithoutElements(RenderFrame& frame, const InstanceSummary& summary) override;     // bdem_frame.cpp
  void setThreads(int threads) override { exec_.threads = threads; }
  uint64_t stateDigest() const override;
  std::string method() const override { return "bdem"; }
  std::vector<float> damage() const override;  // bdem_frame.cpp
  std::string setBackend(Backend requested) override;
  Backend activeBackend() const override { return device_ ? Backend::Cuda : Backend::Cpu; }
  void finishQueuedWork() override;

  // Direct access for tests, probes and the renderer.
  // (The non-const access assumes the caller edits the elements: the device copy is re-uploaded before the next step.)
  ElementState& elements();
  const ElementState& elements() const;
  const BondSet& bonds() const;
  // Each element's share of this step's contact energy (J).
  const std::vector<float>& contactEnergies() const;
  // max(sigma / sigma_c, tau / tau_c) of every bond now (0 for broken ones): the stress colour of the renderer.
  const std::vector<float>& stressRatios();
  // Replaces material m (live edit) and recomputes the constants of every bond.
  void setMaterial(int m, const MaterialDesc& desc) override;
  int launchProjectile(const vec3& position, const vec3& velocity, float radius, int material,
                       float density = 0.0f) override;
  int launchBreakableProjectile(const vec3& centre, const vec3& velocity, float radius, float elementRadius,
                                int material, float density = 0.0f) override;
  void setGravity(const vec3& gravity) override { params_.gravity = gravity; }
  double time() const { return time_; }
  // Adds a bond between two existing elements (rest state from their current positions, eq. 2).
  void addBond(int i, int j, int material);
  // Rebuilds the CSR adjacency and per-bond buffers after bonds were added by hand.
  void finalizeBonds();
  // Builds an empty solver with given materials and contact settings, for hand-made test setups.
  void initEmpty(const std::vector<MaterialDesc>& materials, const vec3& gravity, bool contact);
  void addPlane(const vec3& point, const vec3& normal, int material);
  int addElement(const vec3& position, float radius, int material, uint8_t flags = 0);
  int addKinematicBody(const std::string& name, const std::vector<int32_t>& elements, const vec3& velocity,
                       const vec3& angularVelocity, const vec3& centre);
  void prepare();  // grid window, contact buffers, large-element list; call after building by hand

 private:
  BdemViews views();
  // Per element: 1 for the elements whose pieces the fragment colour key tells apart (bodies, not kinematic).
  std::vector<uint8_t> fragmentMembers() const;
  void buildBondsWithinBodies(float tolerance);
  void updateKinematicBodies(double dt);
  void computeStableDt();
  void refreshContactCandidates();  // grid + Verlet list, rebuilt when an element moved more than skin / 2
  void launchDueProjectiles();
  void stepOnDevice(double dt);
  // The device holds newer state than the host arrays: copy it back (reads of the host arrays call this first).
  void ensureHostCurrent() const;
  // The host arrays were edited: the device copy is re-uploaded before the next device step.
  void hostChanged() { deviceStale_ = true; }
  void uploadToDevice();

  CpuExec exec_;
  ElementState elements_;
  BondSet bonds_;
  std::vector<BdemMaterial> materials_;
  std::vector<MaterialDesc> materialDescs_;
  std::vector<vec3> planePoint_, planeNormal_;
  std::vector<uint16_t> planeMaterial_;
  std::vector<KinematicBody> kinematicBodies_;
  std::vector<int32_t> kinematicElement_, kinematicBodyOf_;
  std::vector<vec3> kinematicOffset_;
  std::vector<vec3> bodyCentre_, bodyVelocity_, bodyAngularVelocity_;
  std::vector<quat> bodyOrientation_;
  std::vector<int32_t> large_, gridElements_;
  std::vector<vec3> initialPosition_;
  std::vector<uint8_t> bondedBody_;  // per scene body: bond its touching elements
  std::vector<double> launchTime_;  // per large element
  std::vector<vec3> launchVelocity_;
  std::vector<int32_t> contactPartner_[2];
  std::vector<vec3> contactSpring_[2];
  std::vector<float> contactEnergy_;
  int contactBuffer_ = 0;
  int contactSlots_ = 0;
  UniformGrid grid_;
  float skin_ = 0.0f;
  std::vector<int32_t> neighborStart_, neighborList_;
  std::vector<vec3> listPosition_;  // positions when the Verlet list was built
  bool listValid_ = false;
  long long listBrokenCount_ = 0;  // broken bonds when the list was built
  BdemStepParams params_;
  double time_ = 0.0;
  long long steps_ = 0;
  double stableDt_ = 1e-5;
  unsigned long long seed_ = 1;
  std::unique_ptr<bdem::BdemCuda> device_;  // set while the CUDA backend runs the steps
  mutable bool hostStale_ = false;          // the device has stepped since the host arrays were refreshed
  bool deviceStale_ = true;                 // the host arrays changed since the last upload
};

}  // namespace frac
