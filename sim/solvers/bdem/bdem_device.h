#pragma once
// The explicit BDEM state on a CUDA device: the arrays of bdem_arrays.h in device memory (copied by their list) and
// bdem_step.h's stepStages with the CUDA exec policy and a Verlet list built on the device (bdem_device.cu). Only in
// builds with CUDA (FRACTURE_HAVE_CUDA; elsewhere bdem_device_absent.cpp, never constructed); BdemSolver holds one
// in its MirroredArrays while the backend is CUDA.
#include <cstddef>
#include <memory>

#include "core/sphere_instance.h"
#include "solvers/bdem/bdem_arrays.h"
#include "solvers/ray_pick.h"
#include "surface/surface_mesh.h"
#include "solvers/solver_stats.h"

namespace frac {
struct BdemStepParams;
struct RbdemStepParams;
enum class RodIntegration : uint8_t;
}

namespace frac::bdem {

class BdemDevice {
 public:
  BdemDevice();
  ~BdemDevice();
  BdemDevice(const BdemDevice&) = delete;
  BdemDevice& operator=(const BdemDevice&) = delete;

  // Every listed array of `host` to the device, replacing what was there (host.grid: the window of the device's
  // grid is the host grid's).
  void upload(BdemArrays& host, const GridView& gridWindow);
  // The kinematic bodies' poses for the coming step (the Input arrays).
  void uploadInputs(BdemArrays& host);
  void step(const BdemStepParams& params);
  // One Rod-Bonded DEM step (rbdem_step.h's implicit or explicit stages, the arrays' rods and solve groups); returns
  // the CG iterations (0 for explicit).
  int stepRods(const RbdemStepParams& params, RodIntegration integration);
  // The State arrays back into `host`.
  void download(BdemArrays& host);
  // The elements as sphere instances into `out` (device memory, n of them): bdem_instances.h on the device.
  InstanceSummary writeInstances(SphereInstance* out, ElementScalar scalar);
  // The sums of SimStats over the device's state (bdem_stats.h): partial sums come back, not the state.
  StatsTerms stats();
  // The element the ray enters first (ray_pick.h over the device's state).
  SphereHit castRay(const vec3& origin, const vec3& direction);
  // The fracture surfaces of the device's state (surface/fracture_surfaces.h run on the device), collected into out.
  void writeSurfaces(SurfaceMesh& out, const SurfaceSettings& settings);
  void synchronize();
  size_t deviceBytes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace frac::bdem
