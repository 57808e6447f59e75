#pragma once
// Peridynamic particles as the fracture surfaces see them (surface/cell_planes.h Source). Particles carry no
// rotation, so each gets one from its intact family: the rotation of the polar decomposition F = R U of the family's
// best-fit deformation gradient F = (sum y (x) xi)(sum xi (x) xi)^-1 (the least-squares F of Silling's state-based
// deformation gradient with unit weights). A polar decomposition per particle rather than Levine's Procrustes fit per
// connected piece: it follows pieces that bend and is local, so the same pass runs per particle on CPU and GPU.
// Only the nearest lattice shells (|xi| <= 1.5 lambda) give fracture points and cell planes: a long bond's
// cross-section lies far from the particle.
#include "solvers/peridynamics/pd_arrays.h"

namespace frac::pd {

// R of F = R U by Higham's iteration R <- (R + R^-T) / 2 from R = F; identity where the family does not fix F (fewer
// than three independent intact bonds, or a reflected fit).
FRAC_HD inline quat familyRotation(const PdViews& v, int i) {
  const PdParticleView& p = v.particles;
  const PdBondView& b = v.bonds;
  glm::mat3 a(0.0f), m(0.0f);
  for (int k = b.particleStart[i]; k < b.particleStart[i + 1]; ++k) {
    const int bond = b.particleEntry[k] >> 1, j = b.particleNeighbor[k];
    if (b.broken[bond]) continue;
    const vec3 xi = p.reference[j] - p.reference[i];
    const vec3 y = xi + p.displacement[j] - p.displacement[i];
    a += glm::outerProduct(y, xi);
    m += glm::outerProduct(xi, xi);
  }
  const float scale = m[0][0] + m[1][1] + m[2][2];
  if (!(scale > 0.0f) || !(glm::determinant(m) > 1e-6f * scale * scale * scale)) return quat(1, 0, 0, 0);
  glm::mat3 r = a * glm::inverse(m);
  if (!(glm::determinant(r) > 0.0f)) return quat(1, 0, 0, 0);
  for (int it = 0; it < 12; ++it) r = 0.5f * (r + glm::transpose(glm::inverse(r)));
  return normalized(glm::quat_cast(r));
}

template <class Exec>
void rotationStage(const Exec& exec, const PdViews& v) {
  parallel_for(exec, v.particles.count, [=] FRAC_HD(int i) { v.particles.rotation[i] = familyRotation(v, i); });
}

struct SurfaceSource {
  PdViews v;
  FRAC_HD vec3 position(int i) const { return v.particles.reference[i] + v.particles.displacement[i]; }
  FRAC_HD quat rotation(int i) const { return v.particles.rotation[i]; }
  FRAC_HD float radius(int i) const { return v.particles.radius[i]; }
  FRAC_HD bool member(int) const { return true; }
  FRAC_HD int bondBegin(int i) const { return v.bonds.particleStart[i]; }
  FRAC_HD int bondEnd(int i) const { return v.bonds.particleStart[i + 1]; }
  FRAC_HD bool bond(int k, vec3& direction, float& cut, bool& broken) const {
    const int entry = v.bonds.particleEntry[k], b = entry >> 1;
    const bool second = entry & 1;
    const int self = second ? v.bonds.second[b] : v.bonds.first[b], other = v.bonds.particleNeighbor[k];
    const float length = v.bonds.xiLength[b];
    if (length > 1.5f * (v.particles.radius[self] + v.particles.radius[other])) return false;
    direction = (v.particles.reference[other] - v.particles.reference[self]) / length;
    cut = 0.5f * length;
    broken = v.bonds.broken[b] != 0;
    return true;
  }
  FRAC_HD int sampleBegin(int i) const { return v.sampleStart[i]; }
  FRAC_HD int sampleEnd(int i) const { return v.sampleStart[i + 1]; }
  FRAC_HD vec3 samplePoint(int k) const { return v.samplePoint[k]; }
  FRAC_HD vec3 sampleNormal(int k) const { return v.sampleNormal[k]; }
};

}  // namespace frac::pd
