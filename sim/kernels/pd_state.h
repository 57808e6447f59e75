#pragma once
// Ordinary state-based elastoplastic peridynamics (Chen, Zhu, Zhao, Li, Wang 2018, sec. 4-5; equation numbers refer
// to ../shared/papers/peri-chen2018-elastoplastic-peridynamics.md): pure functions of plain data, host and device.
//
// Where Chen's text is ambiguous or approximate we use the standard linear peridynamic solid (LPS) of Silling et al.
// 2007 (Chen's [SEW*07]) and Mitchell's 2011 plasticity (Chen's [Mit11], LAMMPS pair_style peri/lps and peri/eps):
//  - theta and the force are normalised by the discrete weighted volume m_i of the particle's own family (LPS)
//    instead of Chen's continuum constants 9/(4 pi delta^4) (eq. 6) and a, b (eq. 10). For a full family in the
//    continuum m = pi delta^5 and the two agree exactly: 15 G / m = 2 b, and (3 K / m) * (3 delta / 4) = 2 a, where
//    3 delta / 4 is the omega |xi| |xi|-weighted mean bond length that replaces |xi| in Chen's eq. 4, 8-9. With the
//    discrete m a uniform stretch gives theta = 3 s exactly and no deviatoric extension on any bond.
//  - Chen's factor Lambda = (y_j - y_i)/|y_j - y_i| . (x_j - x_i)/|x_j - x_i| in eq. 4, 6, 8, 9 (1 to first order in
//    the displacement, Madenci & Oterkus' small-deformation form) is dropped: the LPS scalar state depends on the bond
//    extension only, so it is exactly invariant under rigid rotation.
//  - Chen writes T = 1/2 A (eq. 3); the force scalar t here is that 1/2 A. Yield (eq. 13-14) is tested on
//    A_dev = 2 t_dev so that Psi0 means what it means in Chen's Table 1.
//
// Notation. A bond of particle i: xi = X_j - X_i (reference, |xi| <= delta), eta = u_j - u_i, current bond
// y = xi + eta, extension e = |y| - |xi| (eq. 7 times |xi|). V_j: volume of j, times the partial-volume factor
// (pmbPartialVolume in pd_bond.h) if the solver uses one; use the same V_j in every sum below.
//
// Two-pass solver (what it must provide):
//  setup, per particle i, over its full initial family (at rest, never updated):
//      omega_ij = psInfluence / psInfluenceAnisotropic       (eq. 5 / 17; store it per bond end or recompute)
//      m_i      = sum_j psWeightedVolumeTerm(omega_ij, |xi|, V_j)
//      N_i      = number of bonds (for the damage phi, eq. 19)
//  pass 1, per particle i, each step, over its intact bonds only:
//      theta_i  = psDilatation(sum_j psDilatationTerm(omega_ij, |xi|, e_ij, V_j), m_i)        (eq. 6-7)
//  pass 2, per intact bond (i, j), each step, with theta_i, theta_j, m_i, m_j, the material constants of i and j and
//  the bond's two stored plastic extensions ep_ij (i's end) and ep_ji (j's end, initially 0):
//      t_ij = psBondEndForce(omega_ij, |xi|, e, theta_i, m_i, K_i, G_i, Psi0_i, gamma_i, ep_ij)  (updates ep_ij)
//      t_ji = psBondEndForce(omega_ji, |xi|, e, theta_j, m_j, K_j, G_j, Psi0_j, gamma_j, ep_ji)  (updates ep_ji)
//      force density on i: psBondForceDensity(y, |y|, t_ij, t_ji, V_j); on j: minus the same with V_i (eq. 1-2)
//      break test per end: psBondBreaks(psFractureStretch(e, ep_ij, |xi|, omega_ij), s_crit, alpha, phi_i), and the
//      same for j; the bond breaks if either end breaks it (eq. 18-19), phi from the previous step's bond counts.
//  The plastic extension belongs to a bond end, as in LAMMPS peri/eps (stored per family entry): e^d differs at the
//  two ends because theta_i != theta_j.
#include <cmath>

#include "core/math.h"

namespace frac {

// ---- influence function and weighted volume --------------------------------------------------------------------

// Influence (weight) function of eq. 5: omega = delta / |xi|, set in the reference configuration.
FRAC_HD inline float psInfluence(float horizon, float xiLength) { return horizon / xiLength; }

// Anisotropic influence of eq. 17: omega = delta / |G xi|, G the 3x3 anisotropy matrix of the particle's material
// (identity: eq. 5). The anisotropy enters the force only through omega, so m_i must be summed with this omega too.
FRAC_HD inline float psInfluenceAnisotropic(const glm::mat3& anisotropy, const vec3& xi, float horizon) {
  const vec3 g = anisotropy * xi;
  return horizon / sqrtf(glm::dot(g, g));
}

// One bond's share of the weighted volume m_i = sum_j omega |xi|^2 V_j (Silling 2007 eq. 88; the normalisation
// that Chen's eq. 6 and 10 write with the continuum value). Summed once, at rest, over the full family.
FRAC_HD inline float psWeightedVolumeTerm(float omega, float xiLength, float volumeJ) {
  return omega * xiLength * xiLength * volumeJ;
}

// Continuum m of a full spherical family with omega = delta / |xi| (eq. 5): int_0^delta (delta / r) r^2 4 pi r^2 dr
// = pi delta^5. This is the value behind Chen's constants in eq. 6 and 10.
FRAC_HD inline float psWeightedVolumeContinuum(float horizon) {
  const float d2 = horizon * horizon;
  return kPi * d2 * d2 * horizon;
}

// ---- kinematics: extension and dilatation ----------------------------------------------------------------------

// Bond extension e = |xi + eta| - |xi| (eq. 7 is s = e / |xi|), in the form that keeps its precision for small
// strains: (2 xi.eta + eta.eta) / (|xi + eta| + |xi|). Also returns the current length |xi + eta|.
FRAC_HD inline float psExtension(const vec3& xi, float xiLength, const vec3& eta, float& length) {
  const vec3 y = xi + eta;
  length = sqrtf(glm::dot(y, y));
  return (2.0f * glm::dot(xi, eta) + glm::dot(eta, eta)) / (length + xiLength);
}

// One bond's share of the dilatation sum (eq. 6 in the LPS form, Silling 2007 eq. 89): omega |xi| e V_j. Chen's
// omega s (y_hat . xi) V_k equals omega e Lambda V_k; Lambda = 1 here (see the header comment).
FRAC_HD inline float psDilatationTerm(float omega, float xiLength, float extension, float volumeJ) {
  return omega * xiLength * extension * volumeJ;
}

// Dilatation theta_i = 3 / m_i * sum_j omega |xi| e V_j (eq. 6-7, LPS normalisation): 3 s for a uniform stretch s.
// Pass 1 sums psDilatationTerm over the intact bonds; m_i stays the at-rest value over the full family.
FRAC_HD inline float psDilatation(float dilatationSum, float weightedVolume) {
  return 3.0f * dilatationSum / weightedVolume;
}

// ---- material constants (eq. 10) -------------------------------------------------------------------------------

// Chen's eq. 10: a = 9 kappa / (8 pi delta^4). The LPS dilatational coefficient 3 K / m times 3 delta / 4 is 2 a
// when m = pi delta^5.
FRAC_HD inline float psChenA(float bulkModulus, float horizon) {
  const float d2 = horizon * horizon;
  return 9.0f * bulkModulus / (8.0f * kPi * d2 * d2);
}

// Chen's eq. 10: b = 15 mu / (2 pi delta^5). The LPS deviatoric coefficient 15 G / m is 2 b when m = pi delta^5.
FRAC_HD inline float psChenB(float shearModulus, float horizon) {
  const float d2 = horizon * horizon;
  return 15.0f * shearModulus / (2.0f * kPi * d2 * d2 * horizon);
}

// Dilatational coefficient 3 K / m (Silling 2007 eq. 92; Chen's 2 a of eq. 4 and 10 per unit bond length).
FRAC_HD inline float psDilatationalModulus(float bulkModulus, float weightedVolume) {
  return 3.0f * bulkModulus / weightedVolume;
}

// Deviatoric coefficient 15 G / m (Silling 2007 eq. 92; Chen's 2 b of eq. 8 and 10).
FRAC_HD inline float psDeviatoricModulus(float shearModulus, float weightedVolume) {
  return 15.0f * shearModulus / weightedVolume;
}

// ---- elastic force state (eq. 3-4, 8-9) ------------------------------------------------------------------------

// Deviatoric extension of eq. 9, e^d = e - theta |xi| / 3 (LPS; Chen writes delta / 4 Lambda theta, |xi| replaced by
// its weighted mean 3 delta / 4). Zero on every bond under a uniform stretch.
FRAC_HD inline float psDeviatoricExtension(float extension, float theta, float xiLength) {
  return extension - theta * xiLength * (1.0f / 3.0f);
}

// Dilatational force scalar (eq. 4, the 1/2 A_dil of eq. 3): t_dil = (3 K / m) theta omega |xi|.
FRAC_HD inline float psDilatationalForce(float bulkModulus, float weightedVolume, float theta, float omega,
                                         float xiLength) {
  return psDilatationalModulus(bulkModulus, weightedVolume) * theta * omega * xiLength;
}

// Deviatoric force scalar (eq. 8, with plasticity eq. 12; the 1/2 A_dev of eq. 3): t_dev = (15 G / m) omega
// (e^d - e^p). plasticExtension = 0 gives the elastic eq. 8.
FRAC_HD inline float psDeviatoricForce(float shearModulus, float weightedVolume, float omega, float deviatoricExtension,
                                       float plasticExtension) {
  return psDeviatoricModulus(shearModulus, weightedVolume) * omega * (deviatoricExtension - plasticExtension);
}

// ---- plasticity (eq. 11-16) ------------------------------------------------------------------------------------

// Yield function of eq. 13, f = A_dev^2 / 2 - Psi0 with A_dev = 2 t_dev (eq. 3): elastic while f <= 0.
FRAC_HD inline float psYieldFunction(float deviatoricForce, float psi0) {
  return 2.0f * deviatoricForce * deviatoricForce - psi0;
}

// Largest elastic deviatoric force scalar: |A_dev^c| / 2 = sqrt(2 Psi0) / 2 (eq. 14). Psi0 = infinity: no yield.
FRAC_HD inline float psYieldForce(float psi0) { return sqrtf(0.5f * psi0); }

// Return mapping of one bond end (eq. 14-16; Mitchell 2011's radial return restricted to one bond, as Chen's
// per-bond yield function eq. 13 is). Given the trial deviatoric force t_trial = k (e^d - e^p_n) with
// k = 15 G omega / m, returns e^p_{n+1}:
//  - f(t_trial) <= 0: e^p_n unchanged (elastic, also when unloading);
//  - otherwise the increment that puts t_dev exactly on the yield surface t_c sign(t_trial) (eq. 14):
//    delta e^p = (t_trial - t_c sign(t_trial)) / k (eq. 15). Chen prints 1 / (2 b); with A = 2 t and k = 2 b omega
//    the projection onto the surface is (A - A^c) / (4 b omega), which is what we use;
//  - then the cap of eq. 16, |e^p| <= gamma (gamma = 0: no plasticity; Chen's Table 1 gives gamma / |xi|).
// yieldForce: psYieldForce(psi0), which the solver forms once per particle and step (psEndConstants).
FRAC_HD inline float psReturnMapAt(float trialDeviatoricForce, float deviatoricStiffness, float plasticExtension,
                                   float yieldForce, float gamma) {
  const float limit = yieldForce;
  float ep = plasticExtension;
  if (fabsf(trialDeviatoricForce) > limit) {
    const float surface = trialDeviatoricForce > 0.0f ? limit : -limit;
    ep += (trialDeviatoricForce - surface) / deviatoricStiffness;
  }
  return clampBetween(ep, -gamma, gamma);  // eq. 16: (e^p) min(1, gamma / |e^p|)
}

FRAC_HD inline float psReturnMap(float trialDeviatoricForce, float deviatoricStiffness, float plasticExtension,
                                 float psi0, float gamma) {
  return psReturnMapAt(trialDeviatoricForce, deviatoricStiffness, plasticExtension, psYieldForce(psi0), gamma);
}

// What every bond end of one particle shares in a step: its dilatational force per unit omega |xi|, (3 K / m) theta
// (eq. 4), its deviatoric modulus 15 G / m (eq. 8) and its yield force sqrt(Psi0 / 2) (eq. 14). Formed once per
// particle after pass 1 (the divisions and the root cost a bond end more than the rest of its force), with the same
// operations in the same order as per bond end, so the forces keep their bits.
struct PsEndConstants {
  float dilatationalForce;  // (3 K / m) theta
  float deviatoricModulus;  // 15 G / m
  float yieldForce;         // sqrt(Psi0 / 2)
};

FRAC_HD inline PsEndConstants psEndConstants(float theta, float weightedVolume, float bulkModulus, float shearModulus,
                                             float psi0) {
  return {psDilatationalModulus(bulkModulus, weightedVolume) * theta,
          psDeviatoricModulus(shearModulus, weightedVolume), psYieldForce(psi0)};
}

// Force scalar t of one bond end (pass 2): t = t_dil + t_dev (eq. 3-4, 12) with the return mapping (eq. 13-16).
// plasticExtension: in, the bond end's e^p_n; out, e^p_{n+1} (the solver stores it for the next step).
// theta, weightedVolume, the material constants and omega are those of the particle that owns this end.
// Psi0 = infinity or gamma = 0 gives the elastic model of sec. 4.1.
// The solver's form: the particle's constants of this step (psEndConstants) in place of K, G, Psi0 and m.
FRAC_HD inline float psBondEndForce(const PsEndConstants& particle, float omega, float xiLength, float extension,
                                    float theta, float gamma, float& plasticExtension) {
  const float ed = psDeviatoricExtension(extension, theta, xiLength);
  const float k = particle.deviatoricModulus * omega;
  const float trial = k * (ed - plasticExtension);
  plasticExtension = psReturnMapAt(trial, k, plasticExtension, particle.yieldForce, gamma);
  return particle.dilatationalForce * omega * xiLength + k * (ed - plasticExtension);
}

FRAC_HD inline float psBondEndForce(float omega, float xiLength, float extension, float theta, float weightedVolume,
                                    float bulkModulus, float shearModulus, float psi0, float gamma,
                                    float& plasticExtension) {
  return psBondEndForce(psEndConstants(theta, weightedVolume, bulkModulus, shearModulus, psi0), omega, xiLength,
                        extension, theta, gamma, plasticExtension);
}

// Force density on particle i from the bond (eq. 1-3): (t_ij + t_ji) V_j along the current bond y = xi + eta (towards
// j when positive); on j the same with V_i and the opposite sign.
FRAC_HD inline vec3 psBondForceDensity(const vec3& y, float length, float tij, float tji, float volumeJ) {
  return length > 0.0f ? ((tij + tji) * volumeJ / length) * y : vec3(0.0f);
}

// ---- strain energy (diagnostics) -------------------------------------------------------------------------------

// One bond's share of the deviatoric energy sum: omega (e^d - e^p)^2 V_j.
FRAC_HD inline float psDeviatoricEnergyTerm(float omega, float deviatoricExtension, float plasticExtension,
                                            float volumeJ) {
  const float ee = deviatoricExtension - plasticExtension;
  return omega * ee * ee * volumeJ;
}

// Elastic strain energy density of the LPS (Silling 2007 eq. 91; Mitchell 2011 with e^p):
// W = K theta^2 / 2 + (15 G / (2 m)) sum_j omega (e^d - e^p)^2 V_j.
FRAC_HD inline float psStrainEnergyDensity(float bulkModulus, float shearModulus, float weightedVolume, float theta,
                                           float deviatoricEnergySum) {
  return 0.5f * bulkModulus * theta * theta + 0.5f * psDeviatoricModulus(shearModulus, weightedVolume) *
                                                  deviatoricEnergySum;
}

// ---- fracture (eq. 18-19) --------------------------------------------------------------------------------------

// Elastic stretch of eq. 18: s^e = (e - e^p) / |xi|. Plastic flow does not bring a bond closer to breaking.
FRAC_HD inline float psElasticStretch(float extension, float plasticExtension, float xiLength) {
  return (extension - plasticExtension) / xiLength;
}

// The stretch measure of eq. 19, s^e / omega: (e - e^p) / delta for the isotropic omega of eq. 5, so short bonds
// are not the first to break.
FRAC_HD inline float psFractureStretch(float extension, float plasticExtension, float xiLength, float omega) {
  return psElasticStretch(extension, plasticExtension, xiLength) / omega;
}

// Damage of eq. 19: phi = 1 - n_i / N_i (intact over initial bonds of particle i).
FRAC_HD inline float psDamage(int activeBonds, int initialBonds) {
  return initialBonds > 0 ? 1.0f - float(activeBonds) / float(initialBonds) : 0.0f;
}

// Fracture criterion of eq. 19: the bond end breaks when s^e / omega exceeds (1 + alpha phi) s_crit (s_crit: Chen's
// Table 1 s^w). Eq. 19 prints the factor (1 + alpha phi) on the measure, but the text says the threshold rises
// as the material gets damaged (to stop shattering into dust), so the factor multiplies the threshold here.
FRAC_HD inline bool psBondBreaks(float fractureStretch, float criticalStretch, float alpha, float damage) {
  return fractureStretch > (1.0f + alpha * damage) * criticalStretch;
}

}  // namespace frac
