#pragma once
// BdemSolver::stats as terms per element and per bond (solver_stats.h), for the CPU and CUDA.
#include "kernels/bdem_bond.h"
#include "solvers/bdem/bdem_instances.h"
#include "solvers/solver_stats.h"

namespace frac::bdem {

// Per element: translational and rotational kinetic energy of a free element, its share of the contact energy, and a
// piece when it is a fragment member and its piece's smallest index.
struct ElementStats {
  BdemViews v;
  const int32_t* fragmentKey;
  FRAC_HD StatsTerms operator()(int i) const {
    const BdemElementView& e = v.elements;
    StatsTerms t;
    if (e.invMass[i] > 0.0f && !(e.flags[i] & kFlagInactive)) {
      const double m = 1.0 / e.invMass[i], inertia = 1.0 / e.invInertia[i];
      t.kineticEnergy = 0.5 * m * length2(e.velocity[i]) + 0.5 * inertia * length2(e.angularVelocity[i]);
    }
    t.elasticEnergy = v.contacts.energy[i];
    t.fragments = e.fragmentMember[i] && fragmentKey[i] == i;
    return t;
  }
};

// Per bond: broken or not, the elastic energy of an intact one (kernels/bdem_bond.h bondEnergy, Lu eq. 3-16) and what
// a softening one dissipated.
struct BondStats {
  BdemViews v;
  FRAC_HD StatsTerms operator()(int b) const {
    const BdemBondView& bv = v.bonds;
    const BdemElementView& e = v.elements;
    StatsTerms t;
    t.bondsBroken = bv.broken[b] != kBondIntact;
    if (bv.peakRatio[b] > 0.0f)
      t.fractureDissipated = softeningDissipated(bv.coefficients[b].fractureWork, bv.peakRatio[b], bv.ductility[b]);
    if (bv.broken[b] == kBondIntact) {
      const int i = bv.first[b], j = bv.second[b];
      const BondRest& rest = bv.rest[b];
      // A softened bond stores keep of its undamaged energy (the secant of its law).
      const BondCoefficients& c = bv.coefficients[b];
      t.elasticEnergy = bondEnergy(
          bondDeformation(separation(e, i, j), e.orientation[i], e.orientation[j], rest.d0), rest, c.stiffness);
      if (bv.peakRatio[b] > 0.0f) t.elasticEnergy *= carriedShare(c.fractureWork, bv.peakRatio[b], bv.ductility[b]);
    }
    return t;
  }
};

// The sums of SimStats over the state in `v`, pieces counted with the instances' fragment keys.
template <class Exec>
StatsTerms elementStats(const Exec& exec, const BdemViews& v, const QueryScratch& scratch) {
  fragmentKeysParallel(exec, v.elements.count, FragmentMember{v.elements.fragmentMember}, v.bonds.count, v.bonds.first,
                       v.bonds.second, v.bonds.broken, scratch.fragmentKey, scratch.changed);
  return sumStats(exec, v.elements.count, ElementStats{v, scratch.fragmentKey}, v.bonds.count, BondStats{v},
                  scratch.statsPartial);
}

}  // namespace frac::bdem
