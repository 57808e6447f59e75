#pragma once
// Entry point of the CUDA instantiation of the BDEM step; every pointer in `views` must be device memory.
#include "solvers/bdem/bdem_views.h"

namespace frac {
struct DeviceGridStorage;
namespace bdem {

void stepCuda(BdemViews views, const BdemStepParams& params, DeviceGridStorage& grid);

}  // namespace bdem
}  // namespace frac
