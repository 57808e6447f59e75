#pragma once
// Explicit BDEM bond model (Lu et al. 2021, sec. 3.1-3.2): pure functions of plain data, host and device.
// Convention: n points from element i to element j (the same sense as the rest direction d0 of eq. 2), so a bond at
// rest has d_i = d_j = n. Forces are reported as the force on j; i receives the opposite force.
#include <cmath>

#include "core/math.h"

namespace frac {

// Rest data of one bond (eq. 2), stored once per bond.
struct BondRest {
  vec3 d0;   // initial direction i -> j, in the frame where both elements had identity orientation
  float r0;  // cross-section radius (r_i + r_j) / 2
  float l0;  // relaxed length r_i + r_j
  float unused[3] = {0.0f, 0.0f, 0.0f};  // 8 floats: a power of two, so the bond loop vectorises (AVX2 gathers)
};

// Stiffnesses from the bond's Young's and shear modulus (eq. 3, 11, 16), with the section factors eq. 17-18 need.
struct BondStiffness {
  float area;       // S = pi r0^2
  float inertia;    // I = pi r0^4 / 4 (bending)
  float polar;      // J = pi r0^4 / 2 (twisting)
  float kn;         // E S / l0              (eq. 3)
  float ks;         // G S                   (eq. 11), multiplies sin(theta): a force
  float kt;         // G J / l0              (eq. 16)
  float kb;         // E I / l0              (eq. 16)
  float invArea;    // 1 / S
  float bendModulus;   // r0 / I  (section modulus inverse, eq. 17)
  float twistModulus;  // r0 / J  (eq. 18)
};

FRAC_HD inline BondStiffness bondStiffness(float young, float shear, float r0, float l0) {
  BondStiffness s;
  const float invL0 = 1.0f / l0, invR0 = 1.0f / r0;
  s.area = kPi * r0 * r0;
  s.inertia = 0.25f * kPi * r0 * r0 * r0 * r0;
  s.polar = 2.0f * s.inertia;
  s.kn = young * s.area * invL0;
  s.ks = shear * s.area;
  s.kt = shear * s.polar * invL0;
  s.kb = young * s.inertia * invL0;
  s.invArea = (1.0f / kPi) * invR0 * invR0;
  s.bendModulus = (4.0f / kPi) * invR0 * invR0 * invR0;
  s.twistModulus = 0.5f * s.bendModulus;
  return s;
}

// Anisotropic stiffness factor of eq. 30: E_wood = (1 + lambda (d_g . d_b)^4) E.
FRAC_HD inline float anisotropyFactor(float lambda, const vec3& grain, const vec3& bondDirection) {
  const float c = glm::dot(grain, bondDirection);
  return 1.0f + lambda * (c * c) * (c * c);
}

// Unit direction and length of r. Bond creation and bondDeformation share it, so a bond at rest has no load.
FRAC_HD inline float directionAndLength(const vec3& r, vec3& direction) {
  const float length = sqrtf(glm::dot(r, r));
  direction = r * (1.0f / length);
  return length;
}

// Deformation of a bond measured from the element states.
struct BondDeformation {
  vec3 n;             // current direction i -> j
  float length;       // l
  vec3 t;             // tangential unit vector (eq. 7), zero when there is no shear
  float sinShear;     // sin(theta_ij) of eq. 8
  float cosShear;     // cos(theta_ij)
  vec3 rotation;      // theta * a of eq. 13: relative rotation q_j (x) conj(q_i), world frame
};

// kSeriesRotation: the relative rotation from toRotationVectorSeries (no branch, for vectorised loops); `accurate`
// then says whether it was exact (false: recompute with kSeriesRotation = false).
// r: x_j - x_i (BdemElementView's separation).
template <bool kSeriesRotation = false>
FRAC_HD inline BondDeformation bondDeformation(const vec3& r, const quat& qi, const quat& qj, const vec3& d0,
                                               bool* accurate = nullptr) {
  BondDeformation d;
  d.length = directionAndLength(r, d.n);
  d.n = select(d.length > 0.0f, d.n, d0);
  // eq. 5-6: rotated rest directions at both cross-sections and their mean.
  const vec3 dij = 0.5f * (rotate(qi, d0) + rotate(qj, d0));
  // eq. 7-8: tangential direction and shear angle between d_ij and n, from c = d_ij x n (exactly zero at rest):
  // d_ij - (d_ij . n) n = n x c, whose length is |c| for unit n.
  const vec3 c = glm::cross(dij, d.n);
  const float perp2 = glm::dot(c, c);
  const float along = glm::dot(dij, d.n);
  const float perpLen = sqrtf(perp2);
  const float invDij = 1.0f / sqrtf(perp2 + along * along);
  d.sinShear = perpLen * invDij;
  d.cosShear = along * invDij;
  d.t = perpLen > 0.0f ? glm::cross(d.n, c) * (1.0f / perpLen) : vec3(0.0f);
  // eq. 12-13: relative rotation as axis * angle.
  if constexpr (kSeriesRotation)
    d.rotation = toRotationVectorSeries(mul(qj, conjugate(qi)), *accurate);
  else
    d.rotation = toRotationVector(mul(qj, conjugate(qi)));
  return d;
}

// Loads in one bond. Element j receives forceOnJ and torqueShared - torqueRelative;
// element i receives -forceOnJ and torqueShared + torqueRelative.
struct BondLoad {
  vec3 forceOnJ;
  vec3 torqueShared;    // moment of the shear (and damping) force pair about each element (eq. 10)
  vec3 torqueRelative;  // bending + twisting moment (eq. 14-15) restoring the relative rotation
  float sigmaAxial;     // tension / S, the first term of sigma (eq. 17)
  float bendMoment2;    // |M_b|^2, for the second term |M_b| r0 / I
  float tau;            // shear stress (eq. 18)
};

FRAC_HD inline BondLoad bondLoad(const BondDeformation& d, const BondRest& rest, const BondStiffness& k) {
  BondLoad out;
  // eq. 4: stretch spring along n; positive stretchForce = tension (pulls j back towards i).
  const float stretchForce = k.kn * (d.length - rest.l0);
  // eq. 9: shear force on j, towards the sheared cross-section direction.
  const float shearMagnitude = k.ks * d.sinShear;
  const vec3 shearForce = shearMagnitude * d.t;
  out.forceOnJ = -stretchForce * d.n + shearForce;
  // eq. 10: the shear force pair acts at the bond midpoint; both elements get -(l/2) n x F_s.
  out.torqueShared = -(0.5f * d.length) * glm::cross(d.n, shearForce);
  // eq. 14-15: twisting about n and bending about the perpendicular axis.
  const float twistAngle = glm::dot(d.rotation, d.n);
  const vec3 twist = (k.kt * twistAngle) * d.n;
  const vec3 bend = k.kb * (d.rotation - twistAngle * d.n);
  out.torqueRelative = twist + bend;
  // eq. 17-18. Following the bonded-particle model the paper builds on (Potyondy & Cundall 2004), only tension
  // counts in sigma: a compressed bond does not break in tension. sigma keeps its two terms apart so that the
  // breakage test needs no square root (see exceedsStrength).
  const float tension = stretchForce > 0.0f ? stretchForce : 0.0f;
  out.sigmaAxial = tension * k.invArea;
  out.bendMoment2 = glm::dot(bend, bend);
  out.tau = shearMagnitude * k.invArea + fabsf(k.kt * twistAngle) * k.twistModulus;
  return out;
}

// sigma of eq. 17: F_n / S + |M_b| r0 / I.
FRAC_HD inline float bondSigma(const BondLoad& load, const BondStiffness& k) {
  return load.sigmaAxial + sqrtf(load.bendMoment2) * k.bendModulus;
}

// sigma > sigma_c or tau > tau_c (eq. 17-18), with the bending term compared squared (no square root, no branch).
FRAC_HD inline bool exceedsStrength(const BondLoad& load, const BondStiffness& k, float tensileStrength,
                                    float shearStrength) {
  const float margin = tensileStrength - load.sigmaAxial;  // sigma_c - F_n / S
  const bool shearFails = load.tau > shearStrength;
  const bool tensionFails = margin < 0.0f;
  const bool bendingFails = load.bendMoment2 * (k.bendModulus * k.bendModulus) > margin * margin;
  return shearFails | tensionFails | bendingFails;
}

// ---- Cohesive softening (material key "softening": "linear"; a departure from Lu, whose bonds are brittle) ----------
// A brittle bond spends about the elastic energy of its own stretch at its strength, sigma_c^2 l0 / (2 E) per unit of
// section, so a lattice holds a material's strength and modulus but not its fracture energy G_f wherever Hillerborg's
// length l_ch = E G_f / f_t^2 exceeds the element (concrete: 0.55 m; docs/materials.md). A softening bond follows
// Hillerborg's linear law past its strength instead: in pure tension its force falls linearly from sigma_c S at the
// elongation delta_p = sigma_c l0 / E to zero at delta_p + w_c, with w_c = 2 G_f / sigma_c, so that it spends G_f
// per unit of its section S beyond the peak (the fictitious crack of Hillerborg, Modeer & Petersson 1976).
// Under any load the law runs in the undamaged bond's stress ratio rho = max(sigma / sigma_c, tau / tau_c) of
// eq. 17-18, which in pure tension is the elongation over delta_p: with kappa the largest rho so far (the history:
// unloading and reloading follow the secant to the origin, as in damage mechanics) and the ductility chi, the bond
// carries keep = (1 - (kappa - 1) / chi) / kappa of its undamaged loads and breaks at kappa = 1 + chi. Past its peak
// such a bond spends chi times U_1, its elastic energy at rho = 1, so chi = G_f S / U_1 makes it spend G_f S whatever
// mix of stretch, shear, bending and twist broke it: chi is set when the bond first passes its strength, from the
// energy it holds then (pure tension: U_1 = sigma_c S delta_p / 2 and chi = w_c / delta_p). A compressed bond keeps
// its whole normal force (the crack closes).

// The elastic energy of a bond (eq. 4, 9, 14, 15), in floats, with the shear term ks l sin^2(theta) / 2 (bondEnergy
// in double is the diagnostics'): what a softening bond holds when it first passes its strength.
FRAC_HD inline float bondEnergyAtPeak(const BondDeformation& d, const BondRest& rest, const BondStiffness& k) {
  const float stretch = d.length - rest.l0;
  const float twist = glm::dot(d.rotation, d.n);
  const vec3 bend = d.rotation - twist * d.n;
  return 0.5f * (k.kn * stretch * stretch + k.ks * d.length * d.sinShear * d.sinShear + k.kt * twist * twist +
                 k.kb * glm::dot(bend, bend));
}

// chi of a bond that first passes its strength at stress ratio rho >= 1 holding `energy` (bondEnergyAtPeak): its
// energy at rho = 1 is energy / rho^2 (the loads are linear in the deformation), and fractureWork = G_f S.
FRAC_HD inline float softeningDuctility(float fractureWork, float energy, float rho) {
  return energy > 0.0f ? fractureWork * rho * rho / energy : 0.0f;
}

// rho = max(sigma / sigma_c, tau / tau_c) of the undamaged bond (eq. 17-18).
FRAC_HD inline float undamagedRatio(const BondLoad& load, const BondStiffness& k, float tensileStrength,
                                    float shearStrength) {
  const float sigmaRatio = bondSigma(load, k) / tensileStrength, tauRatio = load.tau / shearStrength;
  return sigmaRatio > tauRatio ? sigmaRatio : tauRatio;
}

// What a softening bond of fracture work G_f S and ductility chi has dissipated at history kappa: along its law, the
// work done on it less what it stores on its secant, U_1 (kappa - 1) (1 + 1 / chi) with U_1 = G_f S / chi its energy
// at its strength; U_1 + G_f S once broken (kappa = 1 + chi).
FRAC_HD inline double softeningDissipated(float fractureWork, float kappa, float chi) {
  if (!(kappa > 1.0f) || !(chi > 0.0f)) return 0.0;
  const double k = kappa < 1.0f + chi ? double(kappa) : 1.0 + double(chi), c = chi;
  return double(fractureWork) / c * (k - 1.0) * (1.0 + 1.0 / c);
}

// The share of its undamaged loads a bond carries at history kappa with ductility chi (1 before its strength).
FRAC_HD inline float softeningKeep(float kappa, float chi) {
  const float keep = (1.0f - (kappa - 1.0f) / chi) / kappa;
  return kappa > 1.0f && chi > 0.0f ? (keep > 0.0f ? keep : 0.0f) : 1.0f;
}

// The share of its undamaged loads a bond carries now: its history's keep while its material softens (fractureWork
// > 0); a material edited back to brittle carries its bonds' whole loads again (the bond pass), and they read whole.
FRAC_HD inline float carriedShare(float fractureWork, float kappa, float chi) {
  return fractureWork > 0.0f ? softeningKeep(kappa, chi) : 1.0f;
}

// Scales the bond's loads by keep, all but a compressive normal force (the closed crack bears it whole); keep = 1
// leaves every bit as it was.
FRAC_HD inline void softenLoad(BondLoad& load, const BondDeformation& d, const BondRest& rest, const BondStiffness& k,
                               float keep) {
  const float stretchForce = k.kn * (d.length - rest.l0);
  const float compression = stretchForce < 0.0f ? stretchForce : 0.0f;
  // forceOnJ = -stretchForce n + shear: the compressive part -compression n is kept whole.
  const bool softened = keep < 1.0f;
  load.forceOnJ = select(softened, keep * load.forceOnJ - ((1.0f - keep) * compression) * d.n, load.forceOnJ);
  load.torqueShared = select(softened, keep * load.torqueShared, load.torqueShared);
  load.torqueRelative = select(softened, keep * load.torqueRelative, load.torqueRelative);
}

// Linear viscous damping of the bond (Lu sec. 4.2): force proportional to the relative velocity of the two elements
// with the rigid-rotation part removed, and a moment proportional to the relative angular velocity.
// forceCoefficient = 2 zeta sqrt(k_n m_eff) and momentCoefficient = 2 zeta sqrt(k_b I_eff) (see dampingCoefficients).
FRAC_HD inline void addBondDamping(BondLoad& load, const BondDeformation& d, float forceCoefficient,
                                   float momentCoefficient, const vec3& vi, const vec3& vj, const vec3& wi,
                                   const vec3& wj) {
  const vec3 wMean = 0.5f * (wi + wj);
  const vec3 vRel = (vj - vi) - glm::cross(wMean, d.length * d.n);
  const vec3 dampForce = -forceCoefficient * vRel;
  load.forceOnJ += dampForce;
  load.torqueShared += -(0.5f * d.length) * glm::cross(d.n, dampForce);
  load.torqueRelative += momentCoefficient * (wj - wi);
}

// Reduced mass (or inertia) of a pair from inverse masses; an infinite-mass side (inverse 0) leaves the other's.
FRAC_HD inline float reducedFromInverse(float invA, float invB) {
  const float s = invA + invB;
  return s > 0.0f ? 1.0f / s : 0.0f;
}

// Stored elastic energy of a bond. Stretch, twist and bend are exact for eq. 4, 14, 15; the shear force of eq. 9 has
// no potential (it depends on rotations), so its term is the quadratic estimate (ks / l) (l theta)^2 / 2.
FRAC_HD inline double bondEnergy(const BondDeformation& d, const BondRest& rest, const BondStiffness& k) {
  const double stretch = d.length - rest.l0;
  const double twist = glm::dot(d.rotation, d.n);
  const vec3 bendVec = d.rotation - float(twist) * d.n;
  const double bend2 = glm::dot(bendVec, bendVec);
  const double shearAngle = atan2(double(d.sinShear), double(d.cosShear));
  return 0.5 * k.kn * stretch * stretch + 0.5 * k.kt * twist * twist + 0.5 * k.kb * bend2 +
         0.5 * double(k.ks) * d.length * shearAngle * shearAngle;
}

}  // namespace frac
