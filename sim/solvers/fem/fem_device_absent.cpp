// Builds without CUDA: FemDevice exists so that FemSolver needs no conditional code, but it is never constructed
// (cudaBackendAvailable() is false, so MirroredArrays::moveTo stays on the CPU).
#if !defined(FRACTURE_HAVE_CUDA)
#include <stdexcept>

#include "solvers/fem/fem_device.h"

namespace frac::fem {

struct FemDevice::Impl {};

FemDevice::FemDevice() { throw std::logic_error("FemDevice: this build has no CUDA backend"); }
FemDevice::~FemDevice() = default;
void FemDevice::upload(FemArrays&) {}
void FemDevice::uploadInputs(FemArrays&) {}
void FemDevice::step(const FemStepParams&) {}
bool FemDevice::anyDebris() { return false; }
void FemDevice::download(FemArrays&) {}
void FemDevice::synchronize() {}

}  // namespace frac::fem
#endif
