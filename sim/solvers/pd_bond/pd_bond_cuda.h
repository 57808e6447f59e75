#pragma once
// Bond-based peridynamics on a CUDA device: a mirror of the solver's arrays in device memory and the step of
// pd_bond_step.h with the CUDA exec policy (pd_bond_step_cuda.cu). Only in builds with CUDA; PeridynamicsSolver owns one
// while its backend is CUDA and keeps the host copy for everything else (as BdemCuda does for BDEM).
#include <cstddef>
#include <memory>

#include "core/sphere_instance.h"
#include "solvers/pd_bond/pd_bond_views.h"
#include "solvers/ray_pick.h"
#include "solvers/solver_stats.h"

namespace frac::pd {

class PdCuda {
 public:
  PdCuda();
  ~PdCuda();
  PdCuda(const PdCuda&) = delete;
  PdCuda& operator=(const PdCuda&) = delete;

  // Copies every array of `host` (host pointers; `materials` materials) to the device. host.grid is the window of
  // the device's contact grid (cell = contact reach + skin); host.listSkin the list's skin. particleRadius: the
  // drawn radius of each particle (writeInstances).
  void upload(const PdViews& host, int materials, int grips, float contactReach, const float* particleRadius);
  // Projectile centres, velocities and activity for the coming step (they move on the host).
  void uploadProjectiles(const PdProjectileView& host);
  // The grips' velocities for the coming step.
  void uploadGrips(const vec3* driveVelocity, int grips);
  void step(const PdStepParams& params);
  // Copies what a step changes into `host`: displacements, velocities, force densities, threshold shifts, bond state,
  // and for pd-state dilatations, damage, plastic extensions and extensions.
  void download(const PdViews& host);
  // Projectile k's reaction as pd_bond_step.h projectileReactionStage's kReactionChunks partial sums (host memory).
  void projectileReaction(int k, glm::dvec3* partial);
  // The particles as sphere instances into `out` (device memory): pd_instances.h on the device, then `extraCount`
  // instances from host memory after them (projectiles, which move on the host); the summary covers both.
  InstanceSummary writeInstances(SphereInstance* out, ElementScalar scalar, const SphereInstance* extra, int extraCount);
  // The sums of SimStats over the device's state (pd_stats.h), bonded pieces included: partial sums come back, not
  // the state.
  StatsTerms stats(PdModel model);
  // The particle the ray enters first (ray_pick.h over the device's state).
  SphereHit castRay(const vec3& origin, const vec3& direction);
  void synchronize();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace frac::pd
