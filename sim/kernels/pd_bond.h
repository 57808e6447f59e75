#pragma once
// Bond-based peridynamics, the prototype microelastic brittle (PMB) model (Levine et al. 2014, sec. 3; Silling &
// Askari 2005; LAMMPS pair_style peri/pmb): pure functions of plain data, host and device.
// A bond joins particles i and j whose reference positions differ by xi = X_j - X_i (|xi| <= horizon delta); eta =
// u_j - u_i is the difference of their displacements, so the current bond vector is xi + eta.
#include <cmath>

#include "core/math.h"

namespace frac {

// Compression strengthening of eq. 5 (scene key solver.strengthening): s0 - alpha min(0, s_min) (Levine) or
// s0 - alpha s_min (LAMMPS).
enum class PdStrengthening : uint8_t { Levine, Lammps };
// A bond that breaks carries no force from that step on (Levine) or still in it (LAMMPS) (solver.bond_removal).
enum class PdBondRemoval : uint8_t { Levine, Lammps };

// Micromodulus ("spring constant") of eq. 4: c = 18 K / (pi delta^4), K the bulk modulus.
FRAC_HD inline float pmbMicromodulus(float bulkModulus, float horizon) {
  const float d2 = horizon * horizon;
  return 18.0f * bulkModulus / (kPi * d2 * d2);
}

// Critical stretch from the fracture energy G0 (Silling & Askari 2005): s0 = sqrt(5 G0 / (9 K delta)).
// Levine's eq. 4 threshold tau = sqrt(5 G / (K delta)) is 3 s0 for the same G.
FRAC_HD inline float pmbCriticalStretch(float fractureEnergy, float bulkModulus, float horizon) {
  return sqrtf(5.0f * fractureEnergy / (9.0f * bulkModulus * horizon));
}

// Stretch of eq. 2, s = (|xi + eta| - |xi|) / |xi|, in the form that keeps its precision for small strains:
// |xi + eta| - |xi| = (2 xi.eta + eta.eta) / (|xi + eta| + |xi|). Also returns the current length |xi + eta|.
FRAC_HD inline float pmbStretch(const vec3& xi, float xiLength, const vec3& eta, float& length) {
  const vec3 y = xi + eta;
  length = sqrtf(glm::dot(y, y));
  return (2.0f * glm::dot(xi, eta) + glm::dot(eta, eta)) / ((length + xiLength) * xiLength);
}

// Share of particle j's volume inside i's horizon for particles on a lattice of spacing h (the linear correction of
// LAMMPS peri/pmb): 1 for |xi| <= delta - h/2, falling linearly to 0 at delta + h/2.
FRAC_HD inline float pmbPartialVolume(float xiLength, float horizon, float spacing) {
  const float half = 0.5f * spacing;
  if (fabsf(xiLength - horizon) > half) return 1.0f;
  return (horizon + half - xiLength) / spacing;
}

// Force density on particle i from the bond (eq. 3 with the micromodulus of eq. 4): c s V_j beta along the current
// bond direction, towards j when the bond is stretched. beta: pmbPartialVolume (1 without the correction).
FRAC_HD inline vec3 pmbForceDensity(const vec3& xi, float xiLength, const vec3& eta, float micromodulus,
                                    float volumeJ, float beta, float& stretch) {
  float length;
  stretch = pmbStretch(xi, xiLength, eta, length);
  const float magnitude = micromodulus * stretch * volumeJ * beta;
  return length > 0.0f ? (magnitude / length) * (xi + eta) : vec3(0.0f);
}

// The stretch recorded for a broken bond: above any real stretch, so that it never is a particle's smallest.
constexpr float kBrokenStretch = 3.0e38f;

// One bond seen from particle i (eq. 2-5, 3): xi = X_j - X_i, eta = u_j - u_i. It breaks when its stretch exceeds
// `threshold` (s0 of the bond shifted by eq. 5); a bond that breaks carries nothing from this step on (Levine:
// removed, then the remaining springs act) or, with forceInBreakingStep, acts once more in this step (LAMMPS: force
// first, then the break test). The force is c s beta (x_j - x_i) / |x_j - x_i| (per unit volume of j), zero when
// the bond does not act. Seen from j (xi, eta negated exactly) it gives the same stretch and break and exactly the
// opposite force.
struct PmbBond {
  vec3 force;
  float stretch;  // kBrokenStretch once broken
  bool broken;
};

FRAC_HD inline PmbBond pmbBond(const vec3& xi, const vec3& eta, float xiLength, float beta, float micromodulus,
                               float threshold, bool wasBroken, bool forceInBreakingStep) {
  float length;
  const float s = pmbStretch(xi, xiLength, eta, length);
  const bool broken = wasBroken || s > threshold;
  const bool acts = forceInBreakingStep ? !wasBroken : !broken;
  const float scale = (!acts || length <= 0.0f) ? 0.0f : micromodulus * s * beta / length;
  return PmbBond{scale * (xi + eta), broken ? kBrokenStretch : s, broken};
}

// Critical stretch of a particle's bonds with compression strengthening (eq. 5): s0 - alpha * min(0, s_min), where
// s_min is the smallest stretch among the particle's bonds at the previous step. A bond breaks when its stretch
// exceeds the smaller threshold of its two particles.
FRAC_HD inline float pmbStrengthenedStretch(float criticalStretch, float alpha, float minStretch) {
  return criticalStretch - alpha * (minStretch < 0.0f ? minStretch : 0.0f);
}

}  // namespace frac
