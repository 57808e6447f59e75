#pragma once
// PeridynamicsSolver::stats and bondEnergy as terms per particle and per bond (solver_stats.h), for the CPU and CUDA.
#include "kernels/pd_state.h"
#include "solvers/peridynamics/pd_arrays.h"
#include "solvers/peridynamics/pd_instances.h"
#include "solvers/solver_stats.h"

namespace frac::pd {

// pd-state's strain energy of particle i, W_i V_i: LPS energy density (kernels/pd_state.h, Chen eq. 3-4, 10) from the
// dilatation and the deviatoric extensions of its intact bonds.
FRAC_HD inline double stateStrainEnergy(const PdViews& v, int i) {
  const PdParticleView& p = v.particles;
  const PdBondView& bv = v.bonds;
  float deviatoric = 0.0f;
  for (int k = bv.particleStart[i]; k < bv.particleStart[i + 1]; ++k) {
    const int entry = bv.particleEntry[k], b = entry >> 1;
    if (bv.broken[b]) continue;
    const float ed = psDeviatoricExtension(bv.extension[b], p.dilatation[i], bv.xiLength[b]);
    deviatoric += psDeviatoricEnergyTerm(bv.omega[entry], ed, bv.plasticExtension[entry],
                                         p.volume[bv.particleNeighbor[k]] * bv.beta[b]);
  }
  const PdMaterial& m = v.materials[p.material[i]];
  return double(psStrainEnergyDensity(m.bulkModulus, m.shearModulus, p.weightedVolume[i], p.dilatation[i],
                                      deviatoric)) *
         p.volume[i];
}

// Per particle: kinetic energy, pd-state's strain energy, and a piece when it is its piece's smallest index.
struct ParticleStats {
  PdViews v;
  PdModel model;
  const int32_t* fragmentKey;  // null: no pieces counted
  FRAC_HD StatsTerms operator()(int i) const {
    const PdParticleView& p = v.particles;
    StatsTerms t;
    const vec3 u = p.velocity[i];
    t.kineticEnergy = 0.5 * double(p.density[i]) * p.volume[i] * glm::dot(u, u);
    if (model == PdModel::State) t.elasticEnergy = stateStrainEnergy(v, i);
    if (fragmentKey) t.fragments = fragmentKey[i] == i;
    return t;
  }
};

// Per bond: broken or not, and pd-bond's PMB micropotential 1/2 c s^2 |xi| beta V_i V_j of an intact bond.
struct BondStats {
  PdViews v;
  PdModel model;
  FRAC_HD StatsTerms operator()(int b) const {
    const PdBondView& bv = v.bonds;
    const PdParticleView& p = v.particles;
    StatsTerms t;
    t.bondsBroken = bv.broken[b] != 0;
    if (model == PdModel::Bond && !bv.broken[b]) {
      const int i = bv.first[b], j = bv.second[b];
      const double s = bv.stretch[b];
      t.elasticEnergy = 0.5 * v.materials[p.material[i]].micromodulus * s * s * bv.xiLength[b] * bv.beta[b] *
                        p.volume[i] * p.volume[j];
    }
    return t;
  }
};

// The sums of SimStats (per-bond state current: after bondStateStage where the family pass runs). withFragments:
// count the bonded pieces too (the instances' fragment keys, in scratch). partial: (scratch).
template <class Exec>
StatsTerms particleStats(const Exec& exec, const PdViews& v, PdModel model, bool withFragments,
                         const QueryScratch& scratch) {
  if (withFragments)
    fragmentKeysParallel(exec, v.particles.count, EveryParticle{}, v.bonds.count, v.bonds.first, v.bonds.second,
                         v.bonds.broken, scratch.fragmentKey, scratch.changed);
  return sumStats(exec, v.particles.count, ParticleStats{v, model, withFragments ? scratch.fragmentKey : nullptr},
                  v.bonds.count, BondStats{v, model}, scratch.statsPartial);
}

}  // namespace frac::pd
