#pragma once
// Peridynamic particles as sphere instances (Solver::writeInstances): PeridynamicsSolver::writeFrame's values per
// particle, gathered over each particle's family, as one template the CPU and CUDA both run (element_instances.h).
// Projectiles move on the host and are appended there.
#include "core/render_frame.h"
#include "solvers/element_instances.h"
#include "solvers/query_scratch.h"
#include "solvers/peridynamics/pd_arrays.h"

namespace frac::pd {

// Every particle takes part in the fragment key.
struct EveryParticle {
  FRAC_HD bool operator()(int) const { return true; }
};

struct ParticleInstance {
  PdViews v;
  ElementScalar scalar;
  const int32_t* fragmentKey;

  FRAC_HD SphereInstance operator()(int i) const {
    const PdParticleView& p = v.particles;
    SphereInstance s;
    s.sphere = glm::vec4(p.reference[i] + p.displacement[i], p.radius[i]);
    s.speed = glm::length(p.velocity[i]);
    s.fragment = uint32_t(fragmentKey[i]);
    s.materialKind = packMaterialKind(p.material[i], uint32_t(ElementKind::Body));
    s.scalar = 0.0f;
    if (scalar == ElementScalar::Speed) s.scalar = s.speed;
    if (scalar == ElementScalar::StressRatio || scalar == ElementScalar::Damage) {
      // Over the particle's family: the largest stretch of an intact bond over its breaking threshold (that of the
      // bond's first particle's material, as writeFrame), and the broken fraction (Levine's damage).
      float largest = 0.0f;
      int broken = 0;
      const PdBondView& b = v.bonds;
      const int begin = b.particleStart[i], end = b.particleStart[i + 1];
      for (int k = begin; k < end; ++k) {
        const int bond = b.particleEntry[k] >> 1;
        if (b.broken[bond]) {
          ++broken;
          continue;
        }
        const float threshold = v.materials[p.material[b.first[bond]]].criticalStretch * b.thresholdScale[bond];
        largest = glm::max(largest, threshold > 0.0f ? b.stretch[bond] / threshold : 0.0f);
      }
      if (scalar == ElementScalar::StressRatio) s.scalar = largest;
      else s.scalar = end > begin ? float(broken) / float(end - begin) : 0.0f;
    }
    return s;
  }
};

// A particle's sphere for picking (solvers/ray_pick.h).
struct ParticleSphere {
  PdParticleView p;
  FRAC_HD glm::vec4 operator()(int i) const { return glm::vec4(p.reference[i] + p.displacement[i], p.radius[i]); }
};

template <class Exec>
InstanceSummary writeParticleInstances(const Exec& exec, const PdViews& v, ElementScalar scalar,
                                       const QueryScratch& scratch, SphereInstance* out) {
  fragmentKeysParallel(exec, v.particles.count, EveryParticle{}, v.bonds.count, v.bonds.first, v.bonds.second,
                       v.bonds.broken, scratch.fragmentKey, scratch.changed);
  return writeInstancesSummarised(exec, v.particles.count, ParticleInstance{v, scalar, scratch.fragmentKey},
                                  out, scratch.summaryWords);
}

}  // namespace frac::pd
