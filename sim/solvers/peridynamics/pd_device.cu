// The peridynamics step of pd_step.h on a CUDA device: the same stepStages the CPU runs (pd-bond with the family
// pass, the same bits as the CPU's bond pass and gather), with the contact list built by the CPU's rule
// (forEachContactCandidate over a CUB-sorted grid, rebuilt when a particle moved more than skin / 2, entries sorted by
// index). The arrays travel by their list (device_arrays.cuh).
#include <utility>

#include "backend/cuda/cuda_exec.cuh"
#include "backend/cuda/device_arena.cuh"
#include "backend/cuda/device_arrays.cuh"
#include "backend/cuda/device_verlet_list.cuh"
#include "backend/cuda/exec_memory_cuda.cuh"
#include "backend/cuda/grid_cuda.cuh"
#include "backend/cuda/stage_timer.cuh"
#include "solvers/device_query_scratch.cuh"
#include "solvers/peridynamics/pd_device.h"
#include "solvers/peridynamics/pd_instances.h"
#include "solvers/peridynamics/pd_stats.h"
#include "solvers/peridynamics/pd_step.h"
#include "solvers/peridynamics/pd_surface.h"
#include "surface/cell_field_builder.h"
#include "surface/fracture_surfaces.h"

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

// The device's state and stepStages' device side (a namespace-scope type: nvcc takes no private class member as a
// template argument of a function that holds extended lambdas).
struct DeviceState {
  StageTimer<kStageCount> timer{"peridynamics", kStageNames};
  DeviceArena arena;
  PdViews device;  // every pointer in device memory
  PdForcePass forces = PdForcePass::Families;  // what the arrays were arranged for at the upload
  PdContact contact = PdContact::Off;
  DeviceGridStorage grid;
  DeviceVerletList list;
  vec3* current = nullptr;  // x = X + u, for the contact grid and list
  float* zeroRadius = nullptr;
  uint8_t* noFlags = nullptr;
  float contactReach = 0.0f;
  glm::dvec3* reactionPartials = nullptr;  // projectileReaction's kReactionChunks partial sums
  QueryScratch scratch;
  CellFieldStorage<CudaExec> cellField;  // writeSurfaces' scratch
  FractureSurfaceExtractor<CudaExec> surfaces;

  PdViews views() const { return device; }
  void mark(int k) { timer.mark(k); }
  PdViews refreshContactList(PdViews v) {
    if (contact == PdContact::Off) return v;
    const CudaExec exec;
    const PdParticleView p = v.particles;
    vec3* x = current;
    parallel_for(exec, p.count, [=] __host__ __device__(int i) { x[i] = currentPosition(p, i); });
    const bool rebuild =
        !list.valid || 4.0f * list.largestMoveSquared(current, p.count, Everyone{}) > v.listSkin * v.listSkin;
    if (rebuild) {
      buildGridCuda(grid, v.grid, current, zeroRadius, noFlags, 1, p.count);
      list.rebuild(current, p.count, Everyone{}, ContactCandidates{v.grid, current, contactReach + v.listSkin});
    }
    device.neighborStart = v.neighborStart = list.start;
    device.neighborList = v.neighborList = list.entries;
    return v;
  }
  void swapThresholdShifts() { std::swap(device.particles.thresholdShift, device.particles.nextThresholdShift); }
};

}  // namespace

struct PdDevice::Impl : DeviceState {};

PdDevice::PdDevice() : impl_(std::make_unique<Impl>()) {}
PdDevice::~PdDevice() = default;

void PdDevice::upload(PdArrays& host, PdForcePass forces, const DeviceContactGrid& contact) {
  Impl& m = *impl_;
  m.forces = forces;
  m.arena.release();
  DeviceArena& a = m.arena;
  PdViews d = hostViews(host);
  uploadArrays(a, host, d);
  const int n = d.particles.count;
  d.grid = contact.window;
  d.listSkin = contact.skin;
  m.contactReach = contact.reach;
  m.current = a.allocate<vec3>(n);
  m.zeroRadius = a.allocate<float>(n);
  m.noFlags = a.allocate<uint8_t>(n);
  if (n > 0) {
    cudaCheck(cudaMemset(m.zeroRadius, 0, size_t(n) * sizeof(float)), "cudaMemset");
    cudaCheck(cudaMemset(m.noFlags, 0, size_t(n)), "cudaMemset");
  }
  m.grid = allocateGridStorage(a, d.grid, n);
  d.grid.cellStart = m.grid.cellStart;
  d.grid.sortedIndex = m.grid.sortedIndex;
  d.grid.sortedSphere = m.grid.sortedSphere;
  m.list.allocate(a, n);  // built on the device at the first step
  m.reactionPartials = a.allocate<glm::dvec3>(kReactionChunks);
  m.scratch = allocateQueryScratch(a, n);
  m.device = d;
}

void PdDevice::uploadInputs(PdArrays& host) { frac::uploadInputs(host, impl_->device); }

void PdDevice::step(const PdStepParams& params) {
  DeviceState& m = *impl_;
  m.contact = params.contact;
  stepStages(CudaExec{}, m, params);
  m.timer.endStep();
}

void PdDevice::download(PdArrays& host) {
  const DeviceState& m = *impl_;
  if (m.forces == PdForcePass::Families) bondStateStage(CudaExec{}, m.device);  // the family pass's per-bond state
  downloadArrays(host, impl_->device);
}

void PdDevice::projectileReaction(int k, glm::dvec3* partial) {
  const DeviceState& m = *impl_;
  const CudaExec exec;
  projectileReactionStage(exec, m.device, k, m.reactionPartials);
  readValues(exec, partial, m.reactionPartials, kReactionChunks);
}

InstanceSummary PdDevice::writeInstances(SphereInstance* out, ElementScalar scalar, const SphereInstance* extra,
                                         int extraCount) {
  const DeviceState& m = *impl_;
  const CudaExec exec;
  if (m.forces == PdForcePass::Families) bondStateStage(exec, m.device);  // the broken flags and stretches it reads
  const InstanceSummary particles = writeParticleInstances(exec, m.device, scalar, m.scratch, out);
  writeValues(exec, out + m.device.particles.count, extra, extraCount);
  return mergeInstanceSummary(particles, extra, extraCount);
}

StatsTerms PdDevice::stats(PdModel model) {
  const DeviceState& m = *impl_;
  const CudaExec exec;
  if (m.forces == PdForcePass::Families) bondStateStage(exec, m.device);  // the broken flags and stretches it sums
  return particleStats(exec, m.device, model, true, m.scratch);
}

SphereHit PdDevice::castRay(const vec3& origin, const vec3& direction) {
  const DeviceState& m = *impl_;
  return nearestSphereHit(CudaExec{}, m.device.particles.count, ParticleSphere{m.device.particles}, origin, direction,
                          m.scratch.pickPartial);
}

void PdDevice::writeSurfaces(SurfaceMesh& out, const SurfaceSettings& settings) {
  DeviceState& m = *impl_;
  const CudaExec exec;
  const PdViews& v = m.device;
  const int n = v.particles.count;
  if (m.forces == PdForcePass::Families) bondStateStage(exec, v);  // the broken flags the keys and planes read
  rotationStage(exec, v);
  fragmentKeysParallel(exec, n, EveryParticle{}, v.bonds.count, v.bonds.first, v.bonds.second, v.bonds.broken,
                       m.scratch.fragmentKey, m.scratch.changed);
  m.surfaces.extract(exec, buildCellField(exec, SurfaceSource{v}, n, m.scratch.fragmentKey, m.cellField), settings,
                     out);
}

void PdDevice::synchronize() { cudaCheck(cudaDeviceSynchronize(), "peridynamics step"); }

}  // namespace frac::pd
