// The explicit BDEM step of bdem_step.h on a CUDA device: the same stepStages the CPU runs, with the Verlet contact
// list built on the device by the CPU's rule (from a CUB-sorted grid) and contacts summed in the same order, so the
// two backends compute the same bits. The arrays travel by their list (device_arrays.cuh).
#include <cub/device/device_reduce.cuh>

#include <array>
#include <utility>

#include "backend/cuda/cuda_exec.cuh"
#include "backend/cuda/device_arena.cuh"
#include "backend/cuda/device_arrays.cuh"
#include "backend/cuda/device_verlet_list.cuh"
#include "backend/cuda/exec_memory_cuda.cuh"
#include "backend/cuda/grid_cuda.cuh"
#include "backend/cuda/stage_timer.cuh"
#include "solvers/bdem/bdem_device.h"
#include "solvers/bdem/bdem_instances.h"
#include "solvers/bdem/bdem_stats.h"
#include "solvers/bdem/bdem_surface.h"
#include "solvers/bdem/bdem_step.h"
#include "solvers/device_query_scratch.cuh"
#include "solvers/rbdem/rbdem_step.h"
#include "surface/cell_field_builder.h"
#include "surface/fracture_surfaces.h"


namespace frac::bdem {
namespace {

// The CPU's rule (BdemSolver::refreshContactCandidates), same numbers: rebuild when a grid element moved more than
// skin / 2 since the last build (breaking bonds do not make the list stale: see forEachListCandidate).
struct NotProjectile {
  const uint8_t* flags;
  FRAC_HD bool operator()(int i) const { return !(flags[i] & kFlagProjectile); }
};
struct InGrid {
  const uint8_t* flags;
  FRAC_HD bool operator()(int i) const { return !(flags[i] & (kFlagProjectile | kFlagInactive)); }
};
struct ListCandidates {
  BdemViews views;
  template <class F>
  FRAC_HD void operator()(int i, F&& f) const { forEachListCandidate(views, i, f); }
};

// The device's state and stepStages' device side (a namespace-scope type: nvcc takes no private class member as a
// template argument of a function that holds extended lambdas).
struct DeviceState {
  StageTimer<kStageCount> timer{"BDEM", kStageNames};
  DeviceArena arena;
  BdemViews device;  // every pointer in device memory
  DeviceGridStorage grid;
  DeviceVerletList list;
  QueryScratch scratch;
  CellFieldStorage<CudaExec> cellField;  // writeSurfaces' scratch
  FractureSurfaceExtractor<CudaExec> surfaces;

  // stepStages' device side.
  BdemViews views() const { return device; }
  void mark(int k) { timer.mark(k); }
  BdemViews refreshContactList(BdemViews v) {
    if (listNeedsRebuild(v)) {
      buildGridCuda(grid, v.grid, v.elements.position, v.elements.radius, v.elements.flags,
                    kFlagProjectile | kFlagInactive, v.elements.count);  // it also serves the projectiles, as on the CPU
      list.rebuild(v.elements.position, v.elements.count, InGrid{v.elements.flags}, ListCandidates{v});
    }
    device.neighborStart = v.neighborStart = list.start;
    device.neighborList = v.neighborList = list.entries;
    return v;
  }
  // rbdem's CG scalars (rbdem::conjugateGradient), read back every kCgBatch iterations: the iterations in between
  // are queued without a round trip, and those queued after the solve stopped do nothing (their kernels read the
  // device's CgState::running first), so the CPU's and the device's solves take the same iterations.
  CgState cgState() const {
    CgState s;
    readValues(CudaExec{}, &s, device.solve.cg, 1);
    return s;
  }
  static constexpr int cgBatch() { return 8; }
  void swapContactBuffers() {
    std::swap(device.contacts.previousPartner, device.contacts.nextPartner);
    std::swap(device.contacts.previousSpring, device.contacts.nextSpring);
  }

  bool listNeedsRebuild(const BdemViews& v) {
    if (!list.valid) return true;
    const float moved2 = list.largestMoveSquared(v.elements.position, v.elements.count, NotProjectile{v.elements.flags});
    return 4.0f * moved2 > v.listSkin * v.listSkin;
  }
};

}  // namespace

struct BdemDevice::Impl : DeviceState {};

BdemDevice::BdemDevice() : impl_(std::make_unique<Impl>()) {}
BdemDevice::~BdemDevice() = default;

void BdemDevice::upload(BdemArrays& host, const GridView& gridWindow) {
  Impl& m = *impl_;
  m.arena.release();
  BdemViews d = hostViews(host);
  uploadArrays(m.arena, host, d);
  const int n = d.elements.count;
  d.grid = gridWindow;
  m.grid = allocateGridStorage(m.arena, d.grid, n);
  d.grid.cellStart = m.grid.cellStart;
  d.grid.sortedIndex = m.grid.sortedIndex;
  d.grid.sortedSphere = m.grid.sortedSphere;
  m.list.allocate(m.arena, n);
  m.scratch = allocateQueryScratch(m.arena, n);
  m.device = d;  // the list is built on the first step
}

void BdemDevice::uploadInputs(BdemArrays& host) { frac::uploadInputs(host, impl_->device); }

void BdemDevice::step(const BdemStepParams& params) {
  DeviceState& m = *impl_;
  stepStages(CudaExec{}, m, params);
  m.timer.endStep();
}

int BdemDevice::stepRods(const RbdemStepParams& params, RodIntegration integration) {
  DeviceState& m = *impl_;
  if (integration == RodIntegration::Explicit) {
    rbdem::explicitStages(CudaExec{}, m, params);
    return 0;
  }
  return rbdem::implicitStages(CudaExec{}, m, params);
}

void BdemDevice::download(BdemArrays& host) { downloadArrays(host, impl_->device); }

InstanceSummary BdemDevice::writeInstances(SphereInstance* out, ElementScalar scalar) {
  const Impl& m = *impl_;
  return writeElementInstances(CudaExec{}, m.device, scalar, m.scratch, out);
}

StatsTerms BdemDevice::stats() {
  const Impl& m = *impl_;
  return elementStats(CudaExec{}, m.device, m.scratch);
}

SphereHit BdemDevice::castRay(const vec3& origin, const vec3& direction) {
  const Impl& m = *impl_;
  return nearestSphereHit(CudaExec{}, m.device.elements.count, ElementSphere{m.device.elements}, origin, direction,
                          m.scratch.pickPartial);
}

void BdemDevice::writeSurfaces(SurfaceMesh& out, const SurfaceSettings& settings) {
  Impl& m = *impl_;
  const CudaExec exec;
  const BdemViews& v = m.device;
  const int n = v.elements.count;
  fragmentKeysParallel(exec, n, FragmentMember{v.elements.fragmentMember}, v.bonds.count, v.bonds.first,
                       v.bonds.second, v.bonds.broken, m.scratch.fragmentKey, m.scratch.changed);
  m.surfaces.extract(exec, buildCellField(exec, SurfaceSource{v}, n, m.scratch.fragmentKey, m.cellField), settings,
                     out);
}

void BdemDevice::synchronize() { cudaCheck(cudaDeviceSynchronize(), "BDEM step"); }

size_t BdemDevice::deviceBytes() const { return impl_->arena.bytes(); }

}  // namespace frac::bdem
