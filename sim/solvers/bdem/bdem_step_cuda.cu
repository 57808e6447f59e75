// The explicit BDEM step of bdem_step.h instantiated with the CUDA exec policy. The physics is the same code the CPU
// runs; only the grid build differs (CUB radix sort instead of a serial counting sort).
#include "backend/cuda/cuda_exec.cuh"
#include "backend/cuda/grid_cuda.cuh"
#include "solvers/bdem/bdem_step.h"
#include "solvers/bdem/bdem_step_cuda.h"

namespace frac::bdem {

// The caller (the CUDA backend of issue 6) owns what stays on the host: it advances the kinematic bodies' poses,
// launches projectiles, allocates `grid` for the element and cell counts, and swaps the contact buffers afterwards.
void stepCuda(BdemViews views, const BdemStepParams& params, DeviceGridStorage& grid) {
  const CudaExec exec;
  views.neighborStart = views.neighborList = nullptr;  // no device Verlet list yet: candidates come from the grid
  driftStage(exec, views, params);
  kinematicStage(exec, views);
  buildGridCuda(grid, views.grid, views.elements.position, views.elements.radius, views.elements.flags,
                kFlagLarge | kFlagInactive, views.elements.count);
  views.grid.cellStart = grid.cellStart;
  views.grid.sortedIndex = grid.sortedIndex;
  views.grid.sortedSphere = grid.sortedSphere;
  forceStage(exec, views, params);
  kickStage(exec, views, params);
}

}  // namespace frac::bdem
