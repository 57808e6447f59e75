#pragma once
// Surface correction of pd-bond's bond stiffness: the energy method of Madenci & Oterkus ("Peridynamic Theory and Its
// Applications", 2014, sec. 4.2; compared with other corrections by Le & Bobaru 2018). A particle within a horizon of
// a surface has fewer bonds than one inside, so under the same strain it stores less energy: a body is soft in its
// skin. That is a departure from the continuum the micromodulus of eq. 4 stands for, and it grows with the share of
// the body within a horizon of its surface: a beam 7 particles deep at delta = 3 spacings measured 34% below its
// tensile modulus in bending (docs/materials.md). Per particle i and axis a, the energy density under a uniaxial
// stretch along a is c eps^2 / 4 sum_j n_a^4 |xi| beta V_j (n = xi / |xi|, the PMB micropotential 1/2 c s^2 |xi| with
// s = eps n_a^2); its ratio to a particle's inside the same lattice is lambda_i^a. A bond gets the mean of its ends'
// ratios per axis, G^a = (lambda_i^a + lambda_j^a) / 2, and along its own direction the ellipsoid through them:
// g = [(n_x / G^x)^2 + (n_y / G^y)^2 + (n_z / G^z)^2]^(-1/2) (Madenci & Oterkus eq. 4.30). It multiplies the bond's
// stiffness (folded into its beta). Levine 2014 and LAMMPS peri/pmb have no such correction: scene key
// solver.surface_correction turns it off.
#include <cstdint>
#include <vector>

#include "core/math.h"
#include "solvers/peridynamics/pd_arrays.h"

namespace frac {

// sum_j n_a^4 |xi| beta V_j for one family, a = x, y, z: what the correction compares.
struct FamilyStretchSums {
  vec3 sum{0.0f};
  void add(const vec3& xi, float xiLength, float betaVolume) {
    const vec3 n = xi / xiLength, n2 = n * n;
    sum += (n2 * n2) * (xiLength * betaVolume);
  }
};

// Per bond from firstBond on (the bonds just built; earlier ones are left alone): the factor g of its stiffness, from
// the particles' and bonds' build arrays and, per body, the sums of a particle inside it (bulkSums: a family with
// every lattice site within the horizon). 1 where a body's bulk sums are zero.
std::vector<float> surfaceCorrectionFactors(const PdParticleArrays& particles, const PdBondArrays& bonds,
                                            long long firstBond, const std::vector<vec3>& bulkSums);

}  // namespace frac
