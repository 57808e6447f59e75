#pragma once
// Velocity Verlet with the quaternion update of Lu et al. 2021, Algorithm 1.
#include "core/math.h"

namespace frac {

// Lines 6-7 and 18-19: half kick of linear and angular velocity.
FRAC_HD inline void halfKick(vec3& v, vec3& w, const vec3& force, const vec3& torque, float invMass,
                             float invInertia, float dt) {
  v += (0.5f * dt * invMass) * force;
  w += (0.5f * dt * invInertia) * torque;
}

// Lines 8-10: drift of position, and q <- dq (x) q with dq the rotation by w dt (exact for constant w).
FRAC_HD inline void drift(vec3& p, quat& q, const vec3& v, const vec3& w, float dt) {
  p += dt * v;
  q = normalized(mul(fromRotationVector(w * dt), q));
}

}  // namespace frac
