// Builds without CUDA: PdCuda exists so that PeridynamicsSolver needs no conditional code, but it is never constructed
// (cudaBackendAvailable() is false, so PeridynamicsSolver::setBackend stays on the CPU).
#if !defined(FRACTURE_HAVE_CUDA)
#include <stdexcept>

#include "solvers/pd_bond/pd_bond_cuda.h"

namespace frac::pd {

struct PdCuda::Impl {};

PdCuda::PdCuda() { throw std::logic_error("PdCuda: this build has no CUDA backend"); }
PdCuda::~PdCuda() = default;
void PdCuda::upload(const PdViews&, int, int, float, const float*) {}
void PdCuda::uploadProjectiles(const PdProjectileView&) {}
void PdCuda::uploadGrips(const vec3*, int) {}
void PdCuda::step(const PdStepParams&) {}
void PdCuda::download(const PdViews&) {}
void PdCuda::projectileReaction(int, glm::dvec3*) {}
InstanceSummary PdCuda::writeInstances(SphereInstance*, ElementScalar, const SphereInstance*, int) { return {}; }
StatsTerms PdCuda::stats(PdModel) { return {}; }
SphereHit PdCuda::castRay(const vec3&, const vec3&) { return {}; }
void PdCuda::synchronize() {}

}  // namespace frac::pd
#endif
