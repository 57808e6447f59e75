#pragma once
// Counter-based random numbers: the value for (seed, stream, index) is a pure function, so results do not depend on
// thread count, iteration order or backend. SplitMix64 finaliser over a mixed key.
#include <cmath>
#include <cstdint>

#include "core/math.h"

namespace frac {

FRAC_HD inline uint64_t mix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

FRAC_HD inline uint64_t counterHash(uint64_t seed, uint64_t stream, uint64_t index) {
  return mix64(mix64(mix64(seed) ^ (stream * 0xd1b54a32d192ed03ull)) ^ index);
}

// Uniform in the open interval (0, 1).
FRAC_HD inline double uniform01(uint64_t seed, uint64_t stream, uint64_t index) {
  return (double(counterHash(seed, stream, index) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

// Streams: one per use so that adding a use never shifts another's numbers.
enum RngStream : uint64_t {
  kStreamTensileStrength = 1,
  kStreamShearStrength = 2,
  kStreamInitialVelocity = 3,
  kStreamCriticalStretch = 4,  // pd-bond: normal scatter of the per-bond s0 (two draws per bond)
  kStreamVolumeSamples = 5,    // the resource estimate's sample points (solvers/resource_estimate.cpp, packing.cpp)
  kStreamPacking = 6,          // random close packing's initial centres (geometry/random_packing.cpp)
  kStreamBreakingStretch = 7,  // peridynamics: Weibull scatter of the per-bond breaking stretch
};

// Which draw a bond's strength (or breaking stretch) takes: its own (`cell` 0: every bond independent, Lu sec.
// 3.2), or that of the cube of edge `cell` (m) its midpoint lies in, cubes on a grid through the world's origin, so
// that the bonds in one cube share a draw. The scatter's correlation length is then the material's, not the
// lattice's: with a draw per bond a finer lattice has more, smaller flaws and bdem's glass beam read 28% stronger at
// half the radius; with cubes one element across +0.9% and -6.2% for two sets of flaws, two across -13% and +26%
// (a cube acts as a flaw only once the lattice resolves it: docs/materials.md, "Flaw cells").
inline uint64_t strengthDrawIndex(float cell, const vec3& midpoint, uint64_t bond) {
  if (!(cell > 0.0f)) return bond;
  const auto cube = [cell](float x) { return uint64_t(int64_t(std::floor(double(x) / double(cell)))); };
  return mix64(mix64(mix64(cube(midpoint.x)) ^ cube(midpoint.y)) ^ cube(midpoint.z));
}

// Weibull-distributed strength factor with unit scale, (-ln(1 - u))^(1/m) (Lu sec. 3.2: sigma_c,bond = sigma_c times
// it; the peridynamic methods scale their breaking stretch by it, the same for their linear bonds). 1 for m <= 0.
inline float weibullFactor(float modulus, uint64_t seed, uint64_t stream, uint64_t index) {
  if (modulus <= 0.0f) return 1.0f;
  const double u = uniform01(seed, stream, index);
  return float(std::pow(-std::log1p(-u), 1.0 / modulus));
}

}  // namespace frac
