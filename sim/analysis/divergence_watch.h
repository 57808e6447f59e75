#pragma once
// Divergence watch (issue "Reliability"): after each frame, a run has diverged when its energies are no longer finite,
// or when its kinetic energy exceeds ten times what the scene can supply. An explicit step above its stable limit
// grows every mode exponentially, so the bound is crossed within a frame or two of the start of divergence.
// What the scene can supply (an upper bound): its energy at the start (kinetic + elastic), the kinetic energy of
// every projectile and thrown ball whenever it is launched, and gravity's work on the free mass M: M |g| H with H
// the highest free element's height above the lowest plane, or, with no plane below, the free fall's
// 1/2 M (v0 + |g| t)^2 (v0 the fastest element at the start). Kinematic bodies, and the projectiles of peridynamics
// (unless dynamic) and fem-debris, which keep their velocity whatever resists them, do work no scene value bounds:
// with them only non-finite values are watched for.
// Torn bonds: an explicit step above twice its stable limit grows the stiffest modes until they tear the bonds, and
// then stops growing; the energy it releases can be small next to what the scene holds (wall_impact's coarse wall at
// 5x its step loses 86% of its bonds under its own weight in the first frame, with 0.3 J against the 16 J ball), so
// the energy bound never fires. So with dt above twice the stable step, more than 10% of the intact bonds breaking
// between two checks is a divergence too. Implicit integration (rbdem) is stable at any step: not this rule.
#include <optional>
#include <string>

#include "solvers/simulation.h"

namespace frac {

// The kinetic energy of a ball of `density` and `radius` moving at `velocity` (a projectile or a thrown ball), J.
double ballKineticEnergy(float density, float radius, const vec3& velocity);

class DivergenceWatch {
 public:
  // `thrownEnergy`: the kinetic energy of balls thrown later (a replay's commands), J.
  explicit DivergenceWatch(Simulation& sim, double thrownEnergy = 0.0);

  // A message naming the step, the time, what diverged (the first element whose position is not finite, or the
  // energies against the bound) and the step against the stable one; nothing while the run is sound.
  std::optional<std::string> check(Simulation& sim);

  double energyBound(double time) const;  // J, ten times what the scene can supply by `time`
  bool watchesEnergy() const { return watchEnergy_; }

 private:
  bool watchEnergy_ = true;
  double supplied_ = 0.0;   // J: start energy, projectiles, thrown balls, gravity's work down to the lowest plane
  bool freeFall_ = false;   // no plane below the free elements: gravity's work grows with time
  bool explicitStep_ = true;
  long long intactBonds_ = 0;  // at the last check
  long long checkedStep_ = 0;
  double mass_ = 0.0, gravity_ = 0.0, fastest_ = 0.0;  // kg, m/s^2, m/s (free elements at the start)
};

}  // namespace frac
