// Builds without CUDA: BdemCuda exists so that BdemSolver needs no conditional code, but it is never constructed
// (cudaBackendAvailable() is false, so BdemSolver::setBackend stays on the CPU).
#if !defined(FRACTURE_HAVE_CUDA)
#include <stdexcept>

#include "solvers/bdem/bdem_cuda.h"

namespace frac::bdem {

struct BdemCuda::Impl {};

BdemCuda::BdemCuda() { throw std::logic_error("BdemCuda: this build has no CUDA backend"); }
BdemCuda::~BdemCuda() = default;
void BdemCuda::upload(const BdemViews&, int, int, const uint8_t*) {}
void BdemCuda::uploadBodies(const KinematicView&, int) {}
void BdemCuda::step(const BdemStepParams&) {}
void BdemCuda::download(const BdemViews&) {}
InstanceSummary BdemCuda::writeInstances(SphereInstance*, ElementScalar) { return {}; }
StatsTerms BdemCuda::stats() { return {}; }
SphereHit BdemCuda::castRay(const vec3&, const vec3&) { return {}; }
void BdemCuda::synchronize() {}
size_t BdemCuda::deviceBytes() const { return 0; }

}  // namespace frac::bdem
#endif
