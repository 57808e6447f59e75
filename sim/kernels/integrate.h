#pragma once
// Velocity Verlet with the quaternion update of Lu et al. 2021, Algorithm 1.
#include "core/math.h"

namespace frac {

// A gripped point's velocity: the grip's `prescribed` one, but `free` (integrated from the forces) on the axes where
// `slide` is 1 (a roller's, Grips::slideMasks).
FRAC_HD inline vec3 prescribedOrFree(const vec3& slide, const vec3& prescribed, const vec3& free) {
  return vec3(slide.x != 0.0f ? free.x : prescribed.x, slide.y != 0.0f ? free.y : prescribed.y,
              slide.z != 0.0f ? free.z : prescribed.z);
}

// Lines 6-7 and 18-19: half kick of linear and angular velocity.
FRAC_HD inline void halfKick(vec3& v, vec3& w, const vec3& force, const vec3& torque, float invMass,
                             float invInertia, float dt) {
  v += (0.5f * dt * invMass) * force;
  w += (0.5f * dt * invInertia) * torque;
}

// Knuth's TwoSum per component: returns the float nearest a + b and sets `error` to what it dropped, so that
// a + b = sum + error exactly (round to nearest, no fused or reassociated operations: -ffp-contract=off, --fmad=false).
FRAC_HD inline vec3 twoSum(const vec3& a, const vec3& b, vec3& error) {
  const vec3 sum = a + b;
  const vec3 bRounded = sum - a;
  error = (a - (sum - bRounded)) + (b - bRounded);
  return sum;
}

// hi + lo += delta, compensated: hi is the float nearest the sum and lo what rounding dropped, carried into the next
// addition. Where we depart from Lu's Algorithm 1, which adds v dt to a float position: under a slow load an element
// moves less in a step than the float spacing of its coordinates (3.7e-9 m at 4 cm, 6e-8 m at 1 m), so that sum rounds
// the motion away and a specimen's measured stiffness depends on where it stands (docs/materials.md).
FRAC_HD inline void addCompensated(vec3& hi, vec3& lo, const vec3& delta) {
  const vec3 b = delta + lo;
  hi = twoSum(hi, b, lo);
}

// Lines 8-10: drift of position (compensated, above), and q <- dq (x) q with dq the rotation by w dt (exact for
// constant w).
FRAC_HD inline void turn(quat& q, const vec3& w, float dt) { q = normalized(mul(fromRotationVector(w * dt), q)); }
FRAC_HD inline void drift(vec3& p, vec3& pLow, quat& q, const vec3& v, const vec3& w, float dt) {
  addCompensated(p, pLow, dt * v);
  turn(q, w, dt);
}

}  // namespace frac
