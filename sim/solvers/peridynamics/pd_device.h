#pragma once
// The peridynamics state on a CUDA device: the arrays of pd_arrays.h in device memory (copied by their list) and
// pd_step.h's stepStages with the CUDA exec policy and a contact list built on the device (pd_device.cu). Only in
// builds with CUDA (elsewhere pd_device_absent.cpp, never constructed); PeridynamicsSolver holds one in its
// MirroredArrays while the backend is CUDA.
#include <cstddef>
#include <memory>

#include "core/sphere_instance.h"
#include "solvers/peridynamics/pd_arrays.h"
#include "solvers/ray_pick.h"
#include "solvers/solver_stats.h"
#include "surface/surface_mesh.h"

namespace frac {
struct PdStepParams;
}

namespace frac::pd {

// The device's contact list: its grid window (cells of contact reach + skin), the reach and the skin.
struct DeviceContactGrid {
  GridView window;
  float reach = 0.0f;
  float skin = 0.0f;
};

class PdDevice {
 public:
  PdDevice();
  ~PdDevice();
  PdDevice(const PdDevice&) = delete;
  PdDevice& operator=(const PdDevice&) = delete;

  // Every listed array of `host`, arranged for `forces`, to the device, replacing what was there.
  void upload(PdArrays& host, PdForcePass forces, const DeviceContactGrid& contact);
  // Grips' velocities and projectiles' poses for the coming step (the Input arrays).
  void uploadInputs(PdArrays& host);
  void step(const PdStepParams& params);
  // The State arrays back into `host` (with the family pass, the per-bond state derived first).
  void download(PdArrays& host);
  // Projectile k's reaction as pd_step.h projectileReactionStage's kReactionChunks partial sums (host memory).
  void projectileReaction(int k, glm::dvec3* partial);
  // The particles as sphere instances into `out` (device memory): pd_instances.h on the device, then `extraCount`
  // instances from host memory after them (projectiles, which move on the host); the summary covers both.
  InstanceSummary writeInstances(SphereInstance* out, ElementScalar scalar, const SphereInstance* extra, int extraCount);
  // The sums of SimStats over the device's state (pd_stats.h), bonded pieces included: partial sums come back, not
  // the state.
  StatsTerms stats(PdModel model);
  // The particle the ray enters first (ray_pick.h over the device's state).
  SphereHit castRay(const vec3& origin, const vec3& direction);
  // The fracture surfaces of the device's state (surface/fracture_surfaces.h run on the device), collected into out.
  void writeSurfaces(SurfaceMesh& out, const SurfaceSettings& settings);
  void synchronize();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace frac::pd
