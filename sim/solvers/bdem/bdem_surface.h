#pragma once
// BDEM elements as the fracture surfaces see them (surface/cell_planes.h Source): each element in its own frame (its
// orientation), its bonds' rest directions (eq. 2 d0, from the first element to the second) with the cross-section
// where a touching pair meets (l0 r_i / (r_i + r_j) from i), and the outer-surface samples of its body.
#include "solvers/bdem/bdem_arrays.h"

namespace frac::bdem {

struct SurfaceSource {
  BdemViews v;
  FRAC_HD vec3 position(int i) const { return v.elements.position[i]; }
  FRAC_HD quat rotation(int i) const { return v.elements.orientation[i]; }
  FRAC_HD float radius(int i) const { return v.elements.radius[i]; }
  FRAC_HD bool member(int i) const { return v.elements.fragmentMember[i] != 0; }
  FRAC_HD int bondBegin(int i) const { return v.bonds.elementStart[i]; }
  FRAC_HD int bondEnd(int i) const { return v.bonds.elementStart[i + 1]; }
  FRAC_HD bool bond(int k, vec3& direction, float& cut, bool& broken) const {
    const int entry = v.bonds.elementEntry[k], b = entry >> 1;
    const bool second = entry & 1;
    const int self = second ? v.bonds.second[b] : v.bonds.first[b], other = v.bonds.elementNeighbor[k];
    const BondRest& rest = v.bonds.rest[b];
    direction = second ? -rest.d0 : rest.d0;
    const float ri = v.elements.radius[self], rj = v.elements.radius[other];
    cut = rest.l0 * ri / (ri + rj);
    broken = v.bonds.broken[b] != kBondIntact;
    return true;
  }
  FRAC_HD int sampleBegin(int i) const { return v.sampleStart[i]; }
  FRAC_HD int sampleEnd(int i) const { return v.sampleStart[i + 1]; }
  FRAC_HD vec3 samplePoint(int k) const { return v.samplePoint[k]; }
  FRAC_HD vec3 sampleNormal(int k) const { return v.sampleNormal[k]; }
};

}  // namespace frac::bdem
