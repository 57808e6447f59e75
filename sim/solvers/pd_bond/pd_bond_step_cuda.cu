// The peridynamics step of pd_bond_step.h instantiated with the CUDA exec policy: the CPU's integration, contacts and
// pd-state passes, pd-bond's forces by the family pass (each bond at both ends, the same bits as the CPU's bond pass
// and gather), and the contact list built by the CPU's rule (forEachContactCandidate over a CUB-sorted grid, rebuilt
// when a particle moved more than skin / 2, entries sorted by index).
#include <array>
#include <utility>

#include "backend/cuda/cuda_exec.cuh"
#include "backend/cuda/device_arena.cuh"
#include "backend/cuda/device_verlet_list.cuh"
#include "backend/cuda/grid_cuda.cuh"
#include "backend/cuda/stage_timer.cuh"
#include "solvers/pd_bond/pd_bond_cuda.h"
#include "solvers/pd_bond/pd_instances.h"
#include "solvers/pd_bond/pd_stats.h"
#include "solvers/pd_bond/pd_bond_step.h"

namespace frac::pd {
namespace {

struct Everyone {
  FRAC_HD bool operator()(int) const { return true; }
};

struct ContactCandidates {
  GridView grid;
  const vec3* position;
  float reach;
  template <class F>
  FRAC_HD void operator()(int i, F&& f) const { forEachContactCandidate(grid, i, position[i], reach, f); }
};

// The stages of a step that FRACTURE_CUDA_STAGE_TIMES=1 times (backend/cuda/stage_timer.cuh).
using PdStageTimer = StageTimer<4>;
constexpr std::array<const char*, 4> kStageNames = {"drift", "contact list", "forces", "kick"};

}  // namespace

struct PdCuda::Impl {
  PdStageTimer timer{"peridynamics", kStageNames};
  DeviceArena arena;
  PdViews device;  // every pointer in device memory
  DeviceGridStorage grid;
  DeviceVerletList list;
  vec3* current = nullptr;  // x = X + u, for the contact grid and list
  float* zeroRadius = nullptr;
  uint8_t* noFlags = nullptr;
  float contactReach = 0.0f;
  float* particleRadius = nullptr;
  glm::dvec3* reactionPartials = nullptr;  // projectileReaction's kReactionChunks partial sums
  pd::InstanceScratch instances;  // writeInstances: fragment keys, its flag and summary words
  StatsTerms* statsPartial = nullptr;  // stats: kStatsChunks partial sums
  SphereHit* pickPartial = nullptr;    // castRay: kPickChunks partial hits
};

PdCuda::PdCuda() : impl_(std::make_unique<Impl>()) {}
PdCuda::~PdCuda() = default;

void PdCuda::upload(const PdViews& h, int materials, int grips, float contactReach, const float* particleRadius) {
  Impl& m = *impl_;
  m.arena.release();
  DeviceArena& a = m.arena;
  PdViews d = h;  // counts, grid window and skin by value; every pointer replaced below
  const int n = h.particles.count;
  const PdParticleView& hp = h.particles;
  const PdBondView& hb = h.bonds;
  PdParticleView& dp = d.particles;
  dp.reference = a.copyOf(hp.reference, n);
  dp.displacement = a.copyOf(hp.displacement, n);
  dp.velocity = a.copyOf(hp.velocity, n);
  dp.forceDensity = a.copyOf(hp.forceDensity, n);
  dp.volume = a.copyOf(hp.volume, n);
  dp.density = a.copyOf(hp.density, n);
  dp.material = a.copyOf(hp.material, n);
  dp.thresholdShift = a.copyOf(hp.thresholdShift, n);
  dp.nextThresholdShift = hb.familyBond ? a.allocate<float>(n) : nullptr;  // pd-bond's family pass writes it
  dp.weightedVolume = a.copyOf(hp.weightedVolume, n);  // pd-state arrays: null for pd-bond
  dp.dilatation = a.copyOf(hp.dilatation, n);
  dp.damage = a.copyOf(hp.damage, n);
  dp.externalForce = a.copyOf(hp.externalForce, n);
  dp.drivenBy = a.copyOf(hp.drivenBy, n);
  dp.driveVelocity = hp.driveVelocity ? a.copyOf(hp.driveVelocity, grips) : nullptr;
  PdBondView& db = d.bonds;
  const size_t nb = size_t(hb.count);
  db.first = a.copyOf(hb.first, nb);
  db.second = a.copyOf(hb.second, nb);
  db.xiLength = a.copyOf(hb.xiLength, nb);
  db.beta = a.copyOf(hb.beta, nb);
  db.thresholdScale = a.copyOf(hb.thresholdScale, nb);
  db.broken = a.copyOf(hb.broken, nb);
  db.stretch = a.copyOf(hb.stretch, nb);
  db.slotOfFirst = a.copyOf(hb.slotOfFirst, nb);
  db.slotOfSecond = a.copyOf(hb.slotOfSecond, nb);
  db.groupStart = a.copyOf(hb.groupStart, size_t((n + kSlotGroup - 1) / kSlotGroup) + 1);
  db.slot = hb.slot ? a.allocate<FamilySlot>(size_t(hb.slotCount)) : nullptr;  // pd-state: written by each step
  db.familyBond = a.copyOf(hb.familyBond, size_t(hb.familyBond ? hb.slotCount : 0));
  db.endBroken = a.copyOf(hb.endBroken, size_t(hb.endBroken ? hb.slotCount : 0));
  db.omega = a.copyOf(hb.omega, 2 * nb);
  db.plasticExtension = a.copyOf(hb.plasticExtension, 2 * nb);
  db.extension = a.copyOf(hb.extension, nb);
  db.particleStart = a.copyOf(hb.particleStart, size_t(n) + 1);
  db.particleEntry = a.copyOf(hb.particleEntry, 2 * nb);
  db.particleNeighbor = a.copyOf(hb.particleNeighbor, 2 * nb);
  const PdProjectileView& hr = h.projectiles;
  PdProjectileView& dr = d.projectiles;
  dr.centre = a.copyOf(hr.centre, hr.count);
  dr.velocity = a.copyOf(hr.velocity, hr.count);
  dr.radius = a.copyOf(hr.radius, hr.count);
  dr.forceConstant = a.copyOf(hr.forceConstant, hr.count);
  dr.model = a.copyOf(hr.model, hr.count);
  dr.active = a.copyOf(hr.active, hr.count);
  d.planes.point = a.copyOf(h.planes.point, h.planes.count);
  d.planes.normal = a.copyOf(h.planes.normal, h.planes.count);
  d.materials = a.copyOf(h.materials, materials);
  m.current = a.allocate<vec3>(n);
  m.zeroRadius = a.allocate<float>(n);
  m.noFlags = a.allocate<uint8_t>(n);
  if (n > 0) {
    cudaCheck(cudaMemset(m.zeroRadius, 0, size_t(n) * sizeof(float)), "cudaMemset");
    cudaCheck(cudaMemset(m.noFlags, 0, size_t(n)), "cudaMemset");
  }
  m.grid = allocateGridStorage(a, h.grid, n);
  d.grid.cellStart = m.grid.cellStart;
  d.grid.sortedIndex = m.grid.sortedIndex;
  d.grid.sortedSphere = m.grid.sortedSphere;
  m.list.allocate(a, n);
  d.neighborStart = d.neighborList = nullptr;  // built on the device at the first step
  m.contactReach = contactReach;
  m.particleRadius = a.copyOf(particleRadius, n);
  m.reactionPartials = a.allocate<glm::dvec3>(kReactionChunks);
  m.instances.fragmentKey = a.allocate<int32_t>(n);
  m.instances.changed = a.allocate<int32_t>(1);
  m.instances.summaryWords = a.allocate<int32_t>(kInstanceSummaryWords);
  m.statsPartial = a.allocate<StatsTerms>(kStatsChunks);
  m.pickPartial = a.allocate<SphereHit>(kPickChunks);
  m.device = d;
}

InstanceSummary PdCuda::writeInstances(SphereInstance* out, ElementScalar scalar, const SphereInstance* extra,
                                       int extraCount) {
  const Impl& m = *impl_;
  const CudaExec exec;
  if (m.device.bonds.endBroken) bondStateStage(exec, m.device);  // the broken flags and stretches it reads
  const InstanceSummary particles = writeParticleInstances(exec, m.device, m.particleRadius, scalar, m.instances, out);
  writeValues(exec, out + m.device.particles.count, extra, extraCount);
  return mergeInstanceSummary(particles, extra, extraCount);
}

void PdCuda::uploadGrips(const vec3* driveVelocity, int grips) {
  copyToDevice(const_cast<vec3*>(impl_->device.particles.driveVelocity), driveVelocity, grips);
}

void PdCuda::uploadProjectiles(const PdProjectileView& h) {
  const PdProjectileView& d = impl_->device.projectiles;
  copyToDevice(const_cast<vec3*>(d.centre), h.centre, h.count);
  copyToDevice(const_cast<vec3*>(d.velocity), h.velocity, h.count);
  copyToDevice(const_cast<uint8_t*>(d.active), h.active, h.count);
}

void PdCuda::step(const PdStepParams& params) {
  Impl& m = *impl_;
  const CudaExec exec;
  PdViews& v = m.device;
  PdStageTimer& t = m.timer;
  t.mark(0);
  driftStage(exec, v, params);
  t.mark(1);
  if (params.contact != PdContact::Off) {
    const PdParticleView p = v.particles;
    vec3* current = m.current;
    parallel_for(exec, p.count, [=] __host__ __device__(int i) { current[i] = currentPosition(p, i); });
    const bool rebuild =
        !m.list.valid || 4.0f * m.list.largestMoveSquared(current, p.count, Everyone{}) > v.listSkin * v.listSkin;
    if (rebuild) {
      buildGridCuda(m.grid, v.grid, current, m.zeroRadius, m.noFlags, 1, p.count);
      m.list.rebuild(current, p.count, Everyone{},
                     ContactCandidates{v.grid, current, m.contactReach + v.listSkin});
      v.neighborStart = m.list.start;
      v.neighborList = m.list.entries;
    }
  }
  PdStepParams sp = params;
  sp.familyPass = v.bonds.familyBond != nullptr;  // pd-bond: each bond at both ends, no slots to store and gather
  t.mark(2);
  forceStage(exec, v, sp);
  if (sp.familyPass) std::swap(v.particles.thresholdShift, v.particles.nextThresholdShift);
  t.mark(3);
  kickStage(exec, v, params);
  t.mark(4);
  t.endStep();
}

void PdCuda::download(const PdViews& h) {
  const PdViews& d = impl_->device;
  if (d.bonds.endBroken) bondStateStage(CudaExec{}, d);
  const int n = h.particles.count;
  copyToHost(h.particles.displacement, d.particles.displacement, n);
  copyToHost(h.particles.velocity, d.particles.velocity, n);
  copyToHost(h.particles.forceDensity, d.particles.forceDensity, n);
  copyToHost(h.particles.thresholdShift, d.particles.thresholdShift, n);
  const size_t nb = size_t(h.bonds.count);
  copyToHost(h.bonds.broken, d.bonds.broken, nb);
  copyToHost(h.bonds.stretch, d.bonds.stretch, nb);
  copyToHost(h.particles.dilatation, d.particles.dilatation, n);
  copyToHost(h.particles.damage, d.particles.damage, n);
  copyToHost(h.bonds.plasticExtension, d.bonds.plasticExtension, 2 * nb);
  copyToHost(h.bonds.extension, d.bonds.extension, nb);
}

void PdCuda::projectileReaction(int k, glm::dvec3* partial) {
  Impl& m = *impl_;
  const CudaExec exec;
  projectileReactionStage(exec, m.device, k, m.reactionPartials);
  readValues(exec, partial, m.reactionPartials, kReactionChunks);
}

StatsTerms PdCuda::stats(PdModel model) {
  Impl& m = *impl_;
  const CudaExec exec;
  if (m.device.bonds.endBroken) bondStateStage(exec, m.device);  // the broken flags and stretches it sums
  return particleStats(exec, m.device, model, true, m.instances, m.statsPartial);
}

SphereHit PdCuda::castRay(const vec3& origin, const vec3& direction) {
  Impl& m = *impl_;
  return nearestSphereHit(CudaExec{}, m.device.particles.count, ParticleSphere{m.device.particles, m.particleRadius},
                          origin, direction, m.pickPartial);
}

void PdCuda::synchronize() { cudaCheck(cudaDeviceSynchronize(), "pd-bond step"); }

}  // namespace frac::pd
