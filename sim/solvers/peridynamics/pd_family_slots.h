#pragma once
// Where the bond passes leave a bond's force (PdForcePass Bonds and States): in the family slots of its
// two ends (pd_arrays.h FamilySlot), so that the particle pass reads its family in order instead of every bond by
// index.
#include "solvers/peridynamics/pd_arrays.h"

namespace frac::pd {

// A bond pass's result for bond b: its force f (zero once broken) and stretch, into both ends' family slots (V_j f for
// the first particle, -V_i f for the second), and the stretch per bond.
FRAC_HD inline void storeBond(const PdViews& v, int b, const vec3& force, float stretch) {
  const PdBondView& bv = v.bonds;
  const float* volume = v.particles.volume;
  bv.stretch[b] = stretch;
  bv.slot[bv.slotOfFirst[b]] = FamilySlot{volume[bv.second[b]] * force, stretch};
  bv.slot[bv.slotOfSecond[b]] = FamilySlot{(-volume[bv.first[b]]) * force, stretch};
}

}  // namespace frac::pd
