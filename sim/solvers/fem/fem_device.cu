// fem_step.h's stepStages on a CUDA device: the same stages the CPU runs, with the CUDA exec policy, over the arrays
// of fem_arrays.h copied by their list (device_arrays.cuh). Nodes gather their corners in the CPU's order, so the two
// backends compute the same bits.
#include "backend/cuda/cuda_exec.cuh"
#include "backend/cuda/device_arena.cuh"
#include "backend/cuda/device_arrays.cuh"
#include "backend/cuda/exec_memory_cuda.cuh"
#include "solvers/fem/fem_device.h"
#include "solvers/fem/fem_step.h"

namespace frac::fem {
namespace {

// stepStages' device side (a namespace-scope type, as bdem_device.cu's).
struct DeviceState {
  DeviceArena arena;
  FemViews device;  // every pointer in device memory
  DeviceElementGrid grids[2];  // the contact grids: debris particles, mesh nodes
  FemViews views() const { return device; }
  DeviceElementGrid& contactGrid(int k) { return grids[k]; }
};

}  // namespace

struct FemDevice::Impl : DeviceState {};

FemDevice::FemDevice() : impl_(std::make_unique<Impl>()) {}
FemDevice::~FemDevice() = default;

void FemDevice::upload(FemArrays& host) {
  Impl& m = *impl_;
  m.arena.release();
  FemViews d = hostViews(host);
  uploadArrays(m.arena, host, d);
  m.device = d;
}

void FemDevice::uploadInputs(FemArrays& host) { frac::uploadInputs(host, impl_->device); }

void FemDevice::step(const FemStepParams& params) { stepStages(CudaExec{}, *impl_, params); }

bool FemDevice::anyDebris() {
  int32_t word = 0;
  cudaCheck(cudaMemcpy(&word, impl_->device.anyDebris, sizeof word, cudaMemcpyDeviceToHost), "FEM anyDebris");
  return word != 0;
}

void FemDevice::download(FemArrays& host) { downloadArrays(host, impl_->device); }

void FemDevice::synchronize() { cudaCheck(cudaDeviceSynchronize(), "FEM step"); }

}  // namespace frac::fem
