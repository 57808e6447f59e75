#include "solvers/mouse_grab.h"

#include <cmath>

namespace frac {

bool MouseGrab::start(const Solver& solver, int element, float radius, const vec3& target, float frequency) {
  const ReferenceElements& body = solver.referenceElements();
  int picked = -1;
  for (size_t k = 0; k < body.index.size(); ++k)
    if (body.index[k] == element) picked = int(k);
  if (picked < 0) return false;
  elements_.clear();
  rest_.clear();
  offset_.clear();
  const vec3 centre = body.position[size_t(picked)];
  for (size_t k = 0; k < body.index.size(); ++k)
    if (glm::length(body.position[k] - centre) <= radius) {
      elements_.push_back(body.index[k]);
      rest_.push_back(body.position[k]);
      offset_.push_back(body.position[k] - centre);
    }
  target_ = target;
  omega_ = 2.0f * float(M_PI) * frequency;
  picked_ = element;
  return true;
}

void MouseGrab::apply(Solver& solver, double dt) const {
  if (elements_.empty()) return;
  const std::vector<vec3> displacement = solver.displacementsOf(elements_);
  const std::vector<vec3> velocity = solver.elementVelocities(elements_);
  std::vector<vec3> change(elements_.size());
  const float h = float(dt), w2 = omega_ * omega_, damping = 2.0f * omega_;
  for (size_t k = 0; k < elements_.size(); ++k) {
    const vec3 x = rest_[k] + displacement[k];
    // Implicit in the damping (v' = (v + h a) / (1 + h 2 omega)): stable for any step.
    const vec3 accelerated = velocity[k] + h * w2 * (target_ + offset_[k] - x);
    change[k] = accelerated / (1.0f + h * damping) - velocity[k];
  }
  solver.addElementVelocities(elements_, change);
}

}  // namespace frac
