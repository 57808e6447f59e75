#pragma once
// Surface correction of the peridynamic bonds, after the energy method of Madenci & Oterkus ("Peridynamic Theory and
// Its Applications", 2014, sec. 4.2; compared with other corrections by Le & Bobaru 2018). A particle within a horizon
// of a surface has another family than one inside, so under the same strain it stores another energy: a body's skin
// is softer or stiffer than its inside, and its modulus depends on how many particles across it is.
//  - pd-bond: the skin is soft. A beam 7 particles deep at delta = 3 spacings measured 34% below its tensile modulus
//    in bending (docs/materials.md).
//  - pd-state (LPS): the skin is stiff along the surface. A particle's truncated family still holds the whole lattice
//    plane it sits in (a null set of a continuum's half-space), whose bonds along the surface weigh more in its
//    weighted volume m and dilatation theta: on a face of HCP glass theta reads 1.08 eps and the energy density 1.14x
//    the inside's for a stretch along the face, and a bar 8 particles across measured 10% stiffer than one 16 across.
// Per particle i and axis a, the energy density under a uniaxial strain eps along a, from its family's sums:
//  - pd-bond: c eps^2 / 4 sum_j n_a^4 |xi| beta V_j (n = xi / |xi|; the PMB micropotential 1/2 c s^2 |xi| with
//    s = eps n_a^2);
//  - pd-state: K theta^2 / 2 + 15 G / (2 m) sum_j omega (e^d)^2 beta V_j (eq. 8-10 in the LPS form of
//    kernels/pd_state.h), with omega |xi|^2 = delta |xi| (eq. 5), theta = 3 S2 / m and e^d = |xi| (n_a^2 - theta / 3)
//    eps: from m = sum |xi| beta V, S2 = sum |xi| n_a^2 beta V and S4 = sum |xi| n_a^4 beta V (delta cancels),
//    K theta^2 / 2 + 15 G / (2 m) (S4 - 2 theta S2 / 3 + theta^2 m / 9).
// Its ratio to a particle's inside the same lattice is lambda_i^a; a bond gets the mean of its ends' ratios per axis,
// G^a = (lambda_i^a + lambda_j^a) / 2, and along its own direction the ellipsoid through them:
// g = [(n_x / G^x)^2 + (n_y / G^y)^2 + (n_z / G^z)^2]^(-1/2) (Madenci & Oterkus eq. 4.30). It multiplies the bond's
// beta, which scales V_j wherever the bond enters (pd-bond's force; pd-state's m, theta and force alike). Where we
// depart from the book: it takes one pass; we repeat it, each particle's lambda times the inside's energy over its
// own with the factors so far (pd-state's energy is not linear in them, and the mean of the ends leaves pd-bond's
// skin uneven), kBondCorrectionPasses and kStateCorrectionPasses times. Levine 2014, Chen 2018 and LAMMPS' peri/pmb
// and peri/lps have no such correction: scene key solver.surface_correction turns it off.
#include <cstdint>
#include <vector>

#include "core/math.h"
#include "solvers/peridynamics/pd_arrays.h"

namespace frac {

// One family's sums over its bonds: sum |xi| beta V, and per axis a sum |xi| n_a^2 beta V and sum |xi| n_a^4 beta V.
struct FamilyStretchSums {
  double m = 0.0;
  glm::dvec3 s2{0.0}, s4{0.0};
  void add(const vec3& xi, float xiLength, float betaVolume) {
    const glm::dvec3 n = glm::dvec3(xi) / double(xiLength), n2 = n * n;
    const double w = double(xiLength) * double(betaVolume);
    m += w;
    s2 += n2 * w;
    s4 += n2 * n2 * w;
  }
  // The energy density under a uniaxial strain along each axis, up to a factor common to every particle of the same
  // material: pd-bond's sum n_a^4 |xi| beta V; pd-state's LPS energy with bulk modulus k and shear modulus g.
  glm::dvec3 energy(bool state, double k, double g) const;
};

// The passes each model takes (2026-12-05, VM, glass's bar by its cells, docs/materials.md): pd-bond's bar 16
// across measured 5.6% softer than 8 across after the book's one pass, 0.8% after two, with nu the same in both
// (more passes distort a thin bar's lateral response: its nu read 8% low after eight); pd-state's 10% stiffer
// without the correction, 1.7% softer after eight, nu the same in both. pd-state's three ratios per particle are held
// at geometric mean 1 and within [1/2, 2] of it after each pass (pd_surface_correction.cpp): LPS's energy does not
// change when all of a particle's bonds are scaled alike, so where no shape reaches the inside's energy (a pane a
// few particles thick) free passes drove every factor down together.
constexpr int kBondCorrectionPasses = 2;
constexpr int kStateCorrectionPasses = 8;

// What the correction needs besides the build arrays.
struct SurfaceCorrectionInput {
  bool state = false;                            // pd-state (LPS) rather than pd-bond (PMB)
  int passes = 1;
  std::vector<FamilyStretchSums> bulk;           // per body: a particle's inside it (every site within its horizon)
  std::vector<float> bulkModulus, shearModulus;  // per particle (pd-state's energy mixes the two)
};

// Per bond from firstBond on (the bonds just built; earlier ones are left alone): the factor g of its stiffness.
// Bonds between particles of a body without bulk sums keep 1.
std::vector<float> surfaceCorrectionFactors(const PdParticleArrays& particles, const PdBondArrays& bonds,
                                            long long firstBond, const SurfaceCorrectionInput& input);

}  // namespace frac
