#pragma once
// The interface every fracture method implements; methods register by name ("bdem", ...).
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "core/render_frame.h"
#include "core/sphere_instance.h"
#include "geometry/packing.h"
#include "io/scene_desc.h"
#include "solvers/array_info.h"
#include "solvers/ray_pick.h"
#include "surface/surface_mesh.h"

namespace frac {

class CheckpointWriter;
class CheckpointReader;

constexpr float kNoBonds = -1.0f;  // Solver::damage of an element without bonds

struct SimStats {
  double time = 0.0;
  long long steps = 0;
  int elements = 0;
  long long bonds = 0;
  long long bondsIntact = 0;
  long long bondsBroken = 0;
  int fragments = 0;          // connected pieces of body elements (single free elements count)
  double kineticEnergy = 0.0;  // J, translational + rotational, free elements
  double elasticEnergy = 0.0;  // J, bonds (see bondEnergy) + contacts
  double fractureDissipated = 0.0;  // J: what bdem's softening bonds dissipated (their law's area), 0 for the rest
  double iterationsPerStep = 0.0;  // implicit methods: linear-solver (CG) iterations per step, mean since load
  int debrisParticles = 0;  // fem-debris: nodes converted into debris particles (Zhang sec. 3.2); 0 for the others
};

// Load on a kinematic body: its displacement along its direction of motion and the force the other elements exert
// against that motion (what a load cell on an indenter reads).
struct KinematicLoad {
  double displacement = 0.0;
  double force = 0.0;
  // A turning kinematic (angular_velocity): the angle it turned (rad) and the moment about its centre and spin axis
  // with which the material resists the turn (N m); 0 for one that does not turn.
  double angle = 0.0;
  double torque = 0.0;
  vec3 initialCentre{0.0f};
  vec3 direction{0.0f, -1.0f, 0.0f};  // unit direction of motion
};

struct SolverOptions {
  int threads = 0;  // 0 = all cores
};

// The body elements as they were built (t = 0): what probes measure against, known on the host whatever the backend.
// Elements of breakable bodies only (not kinematic, not projectiles), by index.
struct ReferenceElements {
  std::vector<int> index;
  std::vector<vec3> position;
  std::vector<float> radius;
  // Mesh nodes (fem-debris) lie on the body's surface: its extent is theirs, without their display radii. Elements
  // and particles stand for volume around their centres: their extent includes their radii.
  bool meshNodes = false;
  // The lattice the body elements were packed on (geometry/packing.h LatticeCell, its axes turned with the body
  // onto the world's): what the probes measure a specimen's section by, instead of the spheres' extent. An HCP
  // lattice's outer layers stand 1.63 r apart but the spheres reach r beyond their centres, so their extent counts
  // as section a rim the lattice does not fill, which bending weighs as h^3 and tension as h (docs/materials.md).
  // Zero volume (random packing, bodies on different lattices, mesh nodes): the spheres' extent.
  LatticeCell cell;
  // A mesh body's tetrahedra at rest, as four positions in this set each (empty for elements and particles): its
  // sections are cut from them exactly, whatever their shape (a round bar, a dog-bone's gauge).
  std::vector<std::array<int, 4>> tets;

  void add(int element, const vec3& p, float r) {
    index.push_back(element);
    position.push_back(p);
    radius.push_back(r);
  }
  // The elements whose position lies within `distance` of the line through `point` along a unit `direction`.
  std::vector<int> nearLine(const vec3& point, const vec3& direction, float distance) const;
  // The body's extent along a unit direction: max - min + 2 r of the spheres, max - min of mesh nodes (0 without
  // elements).
  double extent(const vec3& direction) const;
  // The depth of the lattice's cells along a unit direction: max - min of the centres plus the cell's reach along it
  // (an HCP beam of N layers along y: N layer pitches); extent() without a lattice.
  double depth(const vec3& direction) const;
  // The cells' cross-section across the unit direction `along`: the cells of the elements in a slab across the middle
  // of the body (a third of its length, or `slab` m where that is shorter, rounded to whole periods of the lattice
  // along `along`, so that every line of sites contributes the same count) over the slab's length; without a lattice,
  // the area the elements in that slab cover (a dog-bone's gauge, not its wider ends): the convex hull of their
  // centres grown by their radius for spheres (a round bar's circle), the product of the extents across for mesh
  // nodes; with tetrahedra, the area of their cut by the plane across the middle.
  double sectionArea(const vec3& along, const vec3& across1, const vec3& across2, double slab = 0.0) const;
};

class Solver {
 public:
  virtual ~Solver() = default;
  virtual void load(const SceneDesc& scene, const SolverOptions& options) = 0;
  virtual void step(double dt) = 0;
  virtual double stableDt() const = 0;  // critical time step estimate, before the safety factor
  virtual double freeMass() const = 0;  // kg: every element, particle or node that moves freely (not kinematic)
  virtual SimStats stats() const = 0;
  // The load on the kinematic body (or grip) called `name`; throws std::invalid_argument for an unknown name.
  virtual KinematicLoad kinematicLoad(const std::string& name) const = 0;
  virtual const ReferenceElements& referenceElements() const = 0;
  // Each given element's displacement from where it was built (indices as in referenceElements).
  virtual std::vector<vec3> displacementsOf(const std::vector<int>& elements) const = 0;
  // Each given element's velocity now, and a change of it (a host edit between steps: the grab tool).
  virtual std::vector<vec3> elementVelocities(const std::vector<int>& elements) const = 0;
  virtual void addElementVelocities(const std::vector<int>& elements, const std::vector<vec3>& change) = 0;
  // Live edits: the scene's live-editable settings (core/params.h liveEditable) as they now are: the materials'
  // properties (density stays: masses were fixed when the bodies were built), gravity and the method's own live
  // solver settings.
  virtual void applyLiveSettings(const SceneDesc& scene) = 0;
  // Adds a rigid projectile (one large element) now, moving at `velocity`; returns its element index. density > 0
  // replaces the material's density for its mass.
  virtual int launchProjectile(const vec3& position, const vec3& velocity, float radius, int material,
                               float density = 0.0f) = 0;
  // Adds a breakable ball now: a sphere of `radius` packed with bonded elements of `elementRadius` (HCP), all
  // moving at `velocity`; returns the number of elements added.
  virtual int launchBreakableProjectile(const vec3& centre, const vec3& velocity, float radius, float elementRadius,
                                        int material, float density = 0.0f) = 0;
  // The element a ray (unit direction) enters first, computed where the state lives (solvers/ray_pick.h): a click
  // picks exactly also while the elements stay on the device. Null when the ray meets none.
  virtual std::optional<ElementHit> castRay(const vec3& origin, const vec3& direction) = 0;
  // The current state for the renderer; bond lines only when asked (debug view).
  virtual void writeFrame(RenderFrame& frame, bool withBonds) = 0;
  // The elements as sphere instances written straight into `out` (issue 6 interop): device memory while the solver
  // runs on CUDA (a buffer the renderer shares, so element data never crosses the bus), host memory otherwise. Same
  // order and values as writeFrame (the colour scalar chosen by `scalar`). When more than `capacity` elements exist
  // nothing is written and the summary's count is -1.
  virtual InstanceSummary writeInstances(SphereInstance* out, int capacity, ElementScalar scalar) = 0;
  // The fracture surfaces of the bodies now (sim/surface: one closed mesh per fragment, crack faces flagged).
  virtual void writeSurfaces(SurfaceMesh& out, const SurfaceSettings& settings) = 0;
  // writeFrame without the per-element arrays and bond lines (they went through writeInstances): time, materials,
  // ground planes sized from the summary's box, and the summary as frame.elementsOnDevice.
  virtual void writeFrameWithoutElements(RenderFrame& frame, const InstanceSummary& summary) = 0;
  virtual void setThreads(int threads) = 0;
  // FNV-1a over the bits of the state arrays the method marks for it (solvers/state_arrays.h): equal digests mean
  // bit-identical states (replays, thread counts, refactorings).
  virtual uint64_t stateDigest() const = 0;
  // Every array of the method's lists (solvers/array_info.h), current on the host, in list order: what export and
  // checkpoints write, and where two runs that should agree first part (fracture-bench --compare-backends).
  using ArrayVisitor = std::function<void(const ArrayInfo&)>;
  virtual void visitArrays(const ArrayVisitor& visit) const = 0;
  // Checkpoints (io/checkpoint_file.h): the whole state, so that restoring it into a solver freshly loaded from the
  // same scene (with the same live edits applied) continues bit-identically. std::invalid_argument for a method that
  // cannot write checkpoints yet, and for a checkpoint that does not fit (another method, version or scene).
  virtual void saveState(CheckpointWriter& out) const = 0;
  virtual void restoreState(const CheckpointReader& in) = 0;
  virtual std::string method() const = 0;
  // Per element: the broken fraction of its initial bonds; kNoBonds for elements that never had any (projectiles,
  // supports, loose grains).
  virtual std::vector<float> damage() const = 0;
  // Runs the following steps on `requested` (Auto: CUDA when a device is usable, else the CPU); the state carries
  // over. Returns one line saying where the solver now runs and, when it is not where asked, why. Never throws.
  virtual std::string setBackend(Backend requested) = 0;
  virtual Backend activeBackend() const = 0;
  // Waits until work queued on a device has finished (for timing); nothing to wait for on the CPU.
  virtual void finishQueuedWork() = 0;
};

std::unique_ptr<Solver> makeSolver(const std::string& method);  // throws std::invalid_argument for unknown names
std::vector<std::string> solverMethods();

}  // namespace frac
