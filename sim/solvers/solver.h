#pragma once
// The interface every fracture method implements; methods register by name ("bdem", ...).
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "core/render_frame.h"
#include "core/sphere_instance.h"
#include "io/scene_desc.h"
#include "solvers/ray_pick.h"

namespace frac {

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
};

// Load on a kinematic body: its displacement along its direction of motion and the force the other elements exert
// against that motion (what a load cell on an indenter reads).
struct KinematicLoad {
  double displacement = 0.0;
  double force = 0.0;
  vec3 initialCentre{0.0f};
  vec3 direction{0.0f, -1.0f, 0.0f};  // unit direction of motion
};

struct SolverOptions {
  int threads = 0;  // 0 = all cores
};

class Solver {
 public:
  virtual ~Solver() = default;
  virtual void load(const SceneDesc& scene, const SolverOptions& options) = 0;
  virtual void step(double dt) = 0;
  virtual double stableDt() const = 0;  // critical time step estimate, before the safety factor
  virtual SimStats stats() const = 0;
  virtual KinematicLoad kinematicLoad(const std::string& name) const = 0;
  // Body elements whose initial position lies within `radius` of the line through `point` along `direction`.
  virtual std::vector<int> bodyElementsNearLine(const vec3& point, const vec3& direction, float radius) const = 0;
  // Extent of the body elements' spheres (initial positions) along a unit direction: max - min + 2 r.
  virtual double bodyExtent(const vec3& direction) const = 0;
  // Mean displacement from the initial positions of the given elements, projected on `direction`.
  virtual double meanDisplacement(const std::vector<int>& elements, const vec3& direction) const = 0;
  // Live edits. Material m gets new properties (density stays: masses were fixed when the bodies were built).
  virtual void setMaterial(int material, const MaterialDesc& desc) = 0;
  virtual void setGravity(const vec3& gravity) = 0;
  // Live edits of the method's other solver settings (contact stiffness, damping, ...); none by default.
  virtual void setSolverSettings(const SolverDesc&) {}
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
  // writeFrame without the per-element arrays and bond lines (they went through writeInstances): time, materials,
  // ground planes sized from the summary's box, and the summary as frame.elementsOnDevice.
  virtual void writeFrameWithoutElements(RenderFrame& frame, const InstanceSummary& summary) = 0;
  virtual void setThreads(int threads) = 0;
  // FNV-1a over the bits of every element's position, velocity, orientation and spin and every bond's broken
  // flag: equal digests mean bit-identical states (replays, thread counts).
  virtual uint64_t stateDigest() const = 0;
  virtual std::string method() const = 0;
  // Per element: the broken fraction of its initial bonds; kNoBonds for elements that never had any (projectiles,
  // supports, loose grains).
  virtual std::vector<float> damage() const = 0;
  // Runs the following steps on `requested` (Auto: CUDA when a device is usable, else the CPU); the state carries
  // over. Returns one line saying where the solver now runs and, when it is not where asked, why. Never throws.
  virtual std::string setBackend(Backend requested);
  virtual Backend activeBackend() const { return Backend::Cpu; }
  // Waits until work queued on a device has finished (for timing); nothing to wait for on the CPU.
  virtual void finishQueuedWork() {}

 protected:
  // The line setBackend returns for a solver that stays on the CPU, with the reason when CUDA was asked for.
  std::string cpuBackendLine(Backend requested, const std::string& whyNotCuda) const;

  // setBackend for a solver with a device mirror `device`: leaving the device calls leave() first (bring the host
  // copy up to date); entering it creates the mirror and calls upload() at once, so that a device that cannot hold
  // the scene sends the solver back to the CPU with the reason.
  template <class Device, class Leave, class Upload>
  std::string switchBackend(std::unique_ptr<Device>& device, Backend requested, Leave leave, Upload upload) {
    std::string why;
    if (requested == Backend::Cpu || !cudaBackendAvailable(&why)) {
      leave();
      device.reset();
      return cpuBackendLine(requested, why);
    }
    if (!device) {
      try {
        device = std::make_unique<Device>();
        upload();
      } catch (const std::exception& e) {
        device.reset();
        return cpuBackendLine(requested, std::string("CUDA failed: ") + e.what());
      }
    }
    return "CUDA (" + cudaDeviceName() + ")";
  }
};

std::unique_ptr<Solver> makeSolver(const std::string& method);  // throws std::invalid_argument for unknown names
std::vector<std::string> solverMethods();

}  // namespace frac
