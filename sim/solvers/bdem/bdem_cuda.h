#pragma once
// The explicit BDEM step on a CUDA device: a mirror of the solver's arrays in device memory and the step of
// bdem_step.h instantiated with the CUDA exec policy (bdem_step_cuda.cu). Only in builds with CUDA
// (FRACTURE_HAVE_CUDA); BdemSolver owns one while its backend is CUDA and keeps the host copy for everything else.
#include <cstddef>
#include <memory>

#include "core/sphere_instance.h"
#include "solvers/bdem/bdem_views.h"
#include "solvers/ray_pick.h"
#include "solvers/solver_stats.h"

namespace frac::bdem {

class BdemCuda {
 public:
  BdemCuda();
  ~BdemCuda();
  BdemCuda(const BdemCuda&) = delete;
  BdemCuda& operator=(const BdemCuda&) = delete;

  // Copies every array of `host` (host pointers; `bodies` kinematic bodies, `materials` materials) to the device,
  // replacing what was there. The contact springs in host.contacts.previous are the ones the next step reads.
  // fragmentMember (n flags): the elements the fragment colour key joins into pieces (writeInstances).
  void upload(const BdemViews& host, int bodies, int materials, const uint8_t* fragmentMember);
  // Prescribed poses of the kinematic bodies for the coming step.
  void uploadBodies(const KinematicView& host, int bodies);
  // One step of bdem_step.h on the device (candidates from a CUB-built grid, no Verlet list).
  void step(const BdemStepParams& params);
  // Copies everything a step changes into `host` (host pointers, the sizes uploaded): element state and forces,
  // broken flags and bond loads, contact springs (latest in host.contacts.previous) and contact energies.
  void download(const BdemViews& host);
  // The elements as sphere instances into `out` (device memory, n of them): bdem_instances.h on the device.
  InstanceSummary writeInstances(SphereInstance* out, ElementScalar scalar);
  // The sums of SimStats over the device's state (bdem_stats.h): partial sums come back, not the state.
  StatsTerms stats();
  // The element the ray enters first (ray_pick.h over the device's state).
  SphereHit castRay(const vec3& origin, const vec3& direction);
  void synchronize();
  size_t deviceBytes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace frac::bdem
