#pragma once
// The bond passes of state-based elastoplastic peridynamics (Chen et al. 2018, in the LPS form of kernels/pd_state.h)
// over the particles and families of pd_arrays.h: extensions (and each end's dilatation term at its family slot),
// dilatation per particle, then per bond the two end force scalars with plastic return mapping and the fracture test.
// The gather, contact, projectiles and integration are pd-bond's (pd_step.h): a bond's force, (t_ij + t_ji) beta y /
// |y|, goes into the same family slots.
#include "kernels/pd_state.h"
#include "solvers/peridynamics/pd_arrays.h"
#include "solvers/peridynamics/pd_family_slots.h"

namespace frac::pd {

// Extension e = |y| - |xi| of an intact bond (eq. 7); 0 once broken.
FRAC_HD inline void stateExtensionPass(const PdViews& v, int b) {
  const PdBondView& bv = v.bonds;
  const PdParticleView& p = v.particles;
  const int i = bv.first[b], j = bv.second[b];
  float length;
  const float e = psExtension(p.reference[j] - p.reference[i], bv.xiLength[b],
                              p.displacement[j] - p.displacement[i], length);
  const bool broken = bv.broken[b] != 0;
  bv.extension[b] = broken ? 0.0f : e;
  // Each end's term of eq. 6 at its family slot, for the dilatation pass to read in family order (it read each bond's
  // constants and both ends' volumes through the adjacency, half of them far apart: a fifth of a pd-state step). A
  // broken bond leaves -0, which adds nothing to any sum, bit for bit, as skipping it did.
  const float betaB = bv.beta[b];
  bv.dilatationTerm[bv.slotOfFirst[b]] =
      broken ? -0.0f : psDilatationTerm(bv.omega[2 * b], bv.xiLength[b], e, p.volume[j] * betaB);
  bv.dilatationTerm[bv.slotOfSecond[b]] =
      broken ? -0.0f : psDilatationTerm(bv.omega[2 * b + 1], bv.xiLength[b], e, p.volume[i] * betaB);
}

// Dilatation of particle i over its intact bonds (eq. 6-7), normalised by its initial weighted volume, and the
// constants its bond ends share in this step (psEndConstants).
FRAC_HD inline void dilatationPass(const PdViews& v, int i) {
  const PdBondView& bv = v.bonds;
  const PdParticleView& p = v.particles;
  float sum = 0.0f;
  const int family = bv.particleStart[i + 1] - bv.particleStart[i];
  for (int k = 0, at = familySlot(bv, i, 0), stride = familySlotStride(bv); k < family; ++k, at += stride)
    sum += bv.dilatationTerm[at];
  const float m = p.weightedVolume[i];
  const float theta = m > 0.0f ? psDilatation(sum, m) : 0.0f;
  const PdMaterial& mat = v.materials[p.material[i]];
  p.dilatation[i] = theta;
  // A particle with no family (m = 0) has no bond end to read these.
  p.endConstants[i] = m > 0.0f ? psEndConstants(theta, m, mat.bulkModulus, mat.shearModulus, mat.psi0)
                               : PsEndConstants{0.0f, 0.0f, 0.0f};
}

// Force scalars of both ends (eq. 3-4, 8-9, 12 with the return mapping of eq. 13-16), the fracture test of either
// end (eq. 18-19, with the damage of the last step) and the bond's force for the gather.
FRAC_HD inline void stateBondPass(const PdViews& v, int b) {
  const PdBondView& bv = v.bonds;
  const PdParticleView& p = v.particles;
  if (bv.broken[b]) {
    storeBond(v, b, vec3(0.0f), kBrokenStretch);
    return;
  }
  const int i = bv.first[b], j = bv.second[b];
  const float xiLength = bv.xiLength[b], e = bv.extension[b];
  const PdMaterial& mi = v.materials[p.material[i]];
  const PdMaterial& mj = v.materials[p.material[j]];
  const float omegaI = bv.omega[2 * b], omegaJ = bv.omega[2 * b + 1];
  float epI = bv.plasticExtension[2 * b], epJ = bv.plasticExtension[2 * b + 1];
  const float tij = psBondEndForce(p.endConstants[i], omegaI, xiLength, e, p.dilatation[i],
                                   mi.plasticLimit * xiLength, epI);
  const float tji = psBondEndForce(p.endConstants[j], omegaJ, xiLength, e, p.dilatation[j],
                                   mj.plasticLimit * xiLength, epJ);
  const float scale = bv.thresholdScale[b];
  const float stretchI = psFractureStretch(e, epI, xiLength, omegaI);
  const float stretchJ = psFractureStretch(e, epJ, xiLength, omegaJ);
  const bool breaks = psBondBreaks(stretchI, mi.criticalStretch * scale, mi.damageAlpha, p.damage[i]) ||
                      psBondBreaks(stretchJ, mj.criticalStretch * scale, mj.damageAlpha, p.damage[j]);
  bv.plasticExtension[2 * b] = epI;
  bv.plasticExtension[2 * b + 1] = epJ;
  bv.broken[b] = breaks;
  const vec3 y = (p.reference[j] - p.reference[i]) + (p.displacement[j] - p.displacement[i]);
  const float length = xiLength + e;
  storeBond(v, b, (breaks || length <= 0.0f) ? vec3(0.0f) : ((tij + tji) * bv.beta[b] / length) * y,
            breaks ? kBrokenStretch : (stretchI > stretchJ ? stretchI : stretchJ));
}

}  // namespace frac::pd
