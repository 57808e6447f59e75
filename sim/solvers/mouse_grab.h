#pragma once
// The window's grab tool (G): the body elements within `radius` (at rest) of the picked one are pulled, each towards
// the target point plus its rest offset from the picked element, by a critically damped spring per unit mass,
//   dv/dt = omega^2 (target_i - x_i) - 2 omega v_i,
// applied on the host before each step as a velocity change (Solver::addElementVelocities), so it works the same for
// every method and backend (on CUDA the edit is uploaded before the step). omega = 2 pi `frequency`: how stiffly the
// grabbed group follows the cursor whatever its mass; pulled far, the material around it tears.
#include <vector>

#include "core/math.h"
#include "solvers/solver.h"

namespace frac {

class MouseGrab {
 public:
  // Grabs around body element `element` (Solver::referenceElements' indices), pulling towards `target`. false when
  // `element` is not a body element.
  bool start(const Solver& solver, int element, float radius, const vec3& target, float frequency);
  void moveTo(const vec3& target) { target_ = target; }
  void release() { elements_.clear(); }
  bool active() const { return !elements_.empty(); }
  const std::vector<int>& elements() const { return elements_; }
  int picked() const { return picked_; }  // the element picked (one of elements())
  const vec3& target() const { return target_; }
  // The velocity change of one step of `dt` (before the solver's step).
  void apply(Solver& solver, double dt) const;

 private:
  std::vector<int> elements_;
  std::vector<vec3> rest_;    // their rest positions
  std::vector<vec3> offset_;  // from the picked element, at rest
  vec3 target_{0.0f};
  float omega_ = 0.0f;
  int picked_ = -1;
};

}  // namespace frac
