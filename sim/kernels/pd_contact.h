#pragma once
// Peridynamic particles touching each other and pushed by projectiles (Levine et al. 2014 eq. 6-7; LAMMPS peri/pmb's
// short-range forces and fix indent): pure functions of plain data, host and device, as force densities on the
// particle (N/m^3, the LAMMPS peri convention).
#include "core/math.h"

namespace frac {

// Which short-range contact acts between particles (scene key solver.pd_contact).
enum class PdContact : uint8_t { Off = 0, Levine = 1, Lammps = 2 };
// How a projectile pushes particles (scene key projectiles.N.force_model).
enum class PdProjectileModel : uint8_t { Levine = 0, Indenter = 1 };

// Levine eq. 6: f = K_c (d - lambda/2)^2 (x_i - x_j)/d for d < lambda/2, a force, divided by V_i. `d` = x_i - x_j.
FRAC_HD inline vec3 levineContactForceDensity(const vec3& d, float spacing, float stiffness, float volumeI) {
  const float dist2 = glm::dot(d, d);
  const float reach = 0.5f * spacing;
  if (dist2 >= reach * reach || dist2 <= 0.0f) return vec3(0.0f);
  const float dist = sqrtf(dist2), gap = dist - reach;
  return (stiffness * gap * gap / (dist * volumeI)) * d;
}

// LAMMPS peri/pmb: f = -15 c V_j (d - d_ij)/delta (x_i - x_j)/d for d < d_ij = min(0.9 |X_i - X_j|, 1.35 lambda).
// `d` = x_i - x_j, `d0` = X_i - X_j.
FRAC_HD inline vec3 lammpsContactForceDensity(const vec3& d, const vec3& d0, float spacing, float horizon,
                                              float micromodulus, float volumeJ) {
  const float dist2 = glm::dot(d, d);
  const float r0 = sqrtf(glm::dot(d0, d0));
  const float reach = 0.9f * r0 < 1.35f * spacing ? 0.9f * r0 : 1.35f * spacing;
  if (dist2 >= reach * reach || dist2 <= 0.0f) return vec3(0.0f);
  const float dist = sqrtf(dist2);
  return (-15.0f * micromodulus * volumeJ * (dist - reach) / (horizon * dist)) * d;
}

// A projectile of radius r moving at `velocity` on a particle at `d` = x_i - centre. Levine eq. 7:
// K_S (16 (d - 3r/4)(d - 3r/2)^2)^(2/3) for |d| in [3r/4, 3r/2] (peak K_S r^2 at |d| = r), along the normalised sum
// of the direction of motion and the outward direction; or LAMMPS fix indent sphere: K (R - |d|)^2 outward for
// |d| < R. Both act on force densities, as LAMMPS' indenter does on peri atoms (the paper leaves the unit of K_S open;
// as a force on a particle its 1e10 to 1e20 would give accelerations beyond any scale).
FRAC_HD inline vec3 projectileForceDensity(const vec3& d, float r, const vec3& velocity, float forceConstant,
                                           PdProjectileModel model) {
  const float dist = sqrtf(glm::dot(d, d));
  if (dist <= 0.0f) return vec3(0.0f);
  const vec3 outward = d / dist;
  if (model == PdProjectileModel::Indenter) {
    if (dist >= r) return vec3(0.0f);
    return (forceConstant * (r - dist) * (r - dist)) * outward;
  }
  if (dist < 0.75f * r || dist > 1.5f * r) return vec3(0.0f);
  const float far = dist - 1.5f * r;
  const float inner = 16.0f * (dist - 0.75f * r) * far * far;
  const float magnitude = forceConstant * cubeRoot(inner * inner);
  const float speed = sqrtf(glm::dot(velocity, velocity));
  vec3 direction = speed > 0.0f ? velocity / speed + outward : outward;
  const float len = sqrtf(glm::dot(direction, direction));
  direction = len > 0.0f ? direction / len : outward;
  return magnitude * direction;
}

}  // namespace frac
