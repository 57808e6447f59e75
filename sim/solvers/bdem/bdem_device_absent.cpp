// Builds without CUDA: BdemDevice exists so that BdemSolver needs no conditional code, but it is never constructed
// (cudaBackendAvailable() is false, so MirroredArrays::moveTo stays on the CPU).
#if !defined(FRACTURE_HAVE_CUDA)
#include <stdexcept>

#include "solvers/bdem/bdem_device.h"

namespace frac::bdem {

struct BdemDevice::Impl {};

BdemDevice::BdemDevice() { throw std::logic_error("BdemDevice: this build has no CUDA backend"); }
BdemDevice::~BdemDevice() = default;
void BdemDevice::upload(BdemArrays&, const GridView&) {}
void BdemDevice::uploadInputs(BdemArrays&) {}
void BdemDevice::step(const BdemStepParams&) {}
int BdemDevice::stepRods(const RbdemStepParams&, RodIntegration) { return 0; }
void BdemDevice::download(BdemArrays&) {}
InstanceSummary BdemDevice::writeInstances(SphereInstance*, ElementScalar) { return {}; }
StatsTerms BdemDevice::stats() { return {}; }
SphereHit BdemDevice::castRay(const vec3&, const vec3&) { return {}; }
void BdemDevice::writeSurfaces(SurfaceMesh&, const SurfaceSettings&) {}
void BdemDevice::synchronize() {}
size_t BdemDevice::deviceBytes() const { return 0; }

}  // namespace frac::bdem
#endif
