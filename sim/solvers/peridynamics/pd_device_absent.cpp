// Builds without CUDA: PdDevice exists so that PeridynamicsSolver needs no conditional code, but it is never
// constructed (cudaBackendAvailable() is false, so MirroredArrays::moveTo stays on the CPU).
#if !defined(FRACTURE_HAVE_CUDA)
#include <stdexcept>

#include "solvers/peridynamics/pd_device.h"

namespace frac::pd {

struct PdDevice::Impl {};

PdDevice::PdDevice() { throw std::logic_error("PdDevice: this build has no CUDA backend"); }
PdDevice::~PdDevice() = default;
void PdDevice::upload(PdArrays&, PdForcePass, const DeviceContactGrid&) {}
void PdDevice::uploadInputs(PdArrays&) {}
void PdDevice::step(const PdStepParams&) {}
void PdDevice::download(PdArrays&) {}
void PdDevice::projectileReaction(int, glm::dvec3*) {}
InstanceSummary PdDevice::writeInstances(SphereInstance*, ElementScalar, const SphereInstance*, int) { return {}; }
StatsTerms PdDevice::stats(PdModel) { return {}; }
SphereHit PdDevice::castRay(const vec3&, const vec3&) { return {}; }
void PdDevice::writeSurfaces(SurfaceMesh&, const SurfaceSettings&) {}
void PdDevice::synchronize() {}

}  // namespace frac::pd
#endif
