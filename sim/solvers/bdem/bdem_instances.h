#pragma once
// BDEM elements as sphere instances (Solver::writeInstances): BdemSolver::writeFrame's values per element, gathered
// over each element's bonds, as one template the CPU and CUDA both run (element_instances.h).
#include "solvers/bdem/bdem_arrays.h"
#include "core/render_frame.h"
#include "solvers/bdem/bdem_step.h"
#include "solvers/element_instances.h"
#include "solvers/query_scratch.h"

namespace frac::bdem {

// Fragment members: writeFrame's pieces are those of body elements that are not kinematic (1 in `member`).
struct FragmentMember {
  const uint8_t* member;
  FRAC_HD bool operator()(int i) const { return member[i] != 0; }
};

struct ElementInstance {
  BdemViews v;
  ElementScalar scalar;
  const int32_t* fragmentKey;

  FRAC_HD SphereInstance operator()(int i) const {
    const uint8_t flags = v.elements.flags[i];
    const vec3 velocity = v.elements.velocity[i];
    SphereInstance s;
    s.sphere = glm::vec4(v.elements.position[i], (flags & kFlagInactive) ? 0.0f : v.elements.radius[i]);
    s.speed = glm::length(velocity);
    s.fragment = uint32_t(fragmentKey[i]);
    const ElementKind kind = (flags & kFlagKinematic) ? ElementKind::Kinematic
                             : (flags & kFlagProjectile)   ? ElementKind::Projectile
                                                      : ElementKind::Body;
    s.materialKind = packMaterialKind(v.elements.material[i], uint32_t(kind));
    s.scalar = 0.0f;
    if (scalar == ElementScalar::Speed) s.scalar = s.speed;
    if (scalar == ElementScalar::StressRatio || scalar == ElementScalar::Damage) {
      // Over the element's bonds: the largest stress ratio of the intact ones (Lu eq. 17-18), the broken fraction.
      float largest = 0.0f;
      int broken = 0;
      const int begin = v.bonds.elementStart[i], end = v.bonds.elementStart[i + 1];
      for (int k = begin; k < end; ++k) {
        const int b = v.bonds.elementEntry[k] >> 1;
        if (v.bonds.broken[b]) ++broken;
        else largest = glm::max(largest, v.bonds.stressRatio[b]);
      }
      if (scalar == ElementScalar::StressRatio) s.scalar = largest;
      else s.scalar = end > begin ? float(broken) / float(end - begin) : 0.0f;
    }
    return s;
  }
};

// An element's sphere for picking (solvers/ray_pick.h); inactive elements are not drawn and cannot be picked.
struct ElementSphere {
  BdemElementView e;
  FRAC_HD glm::vec4 operator()(int i) const {
    return glm::vec4(e.position[i], (e.flags[i] & kFlagInactive) ? 0.0f : e.radius[i]);
  }
};

template <class Exec>
InstanceSummary writeElementInstances(const Exec& exec, const BdemViews& v, ElementScalar scalar,
                                      const QueryScratch& scratch, SphereInstance* out) {
  if (scalar == ElementScalar::StressRatio) stressStage(exec, v);
  fragmentKeysParallel(exec, v.elements.count, FragmentMember{v.elements.fragmentMember}, v.bonds.count, v.bonds.first,
                       v.bonds.second, v.bonds.broken, scratch.fragmentKey, scratch.changed);
  return writeInstancesSummarised(exec, v.elements.count, ElementInstance{v, scalar, scratch.fragmentKey}, out,
                                  scratch.summaryWords);
}

}  // namespace frac::bdem
