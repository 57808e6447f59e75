#pragma once
// The material of Zhang et al.'s hybrid FEM (hybrid FEM / meshfree debris, eq. 7-16) at one element: Johnson-Cook
// flow stress and fracture strain, the return of the trial deviatoric stress to the flow surface, Lemaitre damage
// growing with the plastic strain past a threshold, the temperature from plastic work (eq. 9), the Mie-Grueneisen
// pressure (eq. 11-13) and the artificial viscosity (eq. 14). Powers and logarithms use core/math.h's libm-free
// powBasic / logBasic / expBasic, so the CPU and CUDA compute the same bits.
//
// Departures, each the common reading of a compressed formula: eq. 8 is integrated by the radial return (the
// consistency condition of eq. 8 solved for the plastic strain increment of the step, Newton on the JC flow stress,
// a fixed number of iterations); the strain rate in the JC terms is the total deviatoric rate sqrt(2/3 D':D');
// the damage grows as d phi = d eps / (eps_F - eps_D) past eps_D (the Heaviside term of H^tvpd); eq. 14's linear
// term is written with the sound speed, alpha2 dx rho c |D_H| (as printed it has no speed and changes sign).
#include "core/math.h"
#include "kernels/fem_tet.h"

namespace frac::fem {

// Johnson-Cook and EOS constants of a material (scene keys jc_*, damage_strain, heat_capacity, ...).
struct JohnsonCook {
  float A = 3e38f, B = 0.0f, n = 1.0f, C = 0.0f, m = 1.0f;  // flow: (A + B eps^n)(1 + C ln eps*)(1 - T*^m)
  float D1 = 3e38f, D2 = 0.0f, D3 = 0.0f, D4 = 0.0f, D5 = 0.0f;  // fracture strain eps_F
  float damageStrain = 0.0f;  // eps_D: damage grows past it
  float roomTemperature = 293.0f, meltTemperature = 3e38f;
  float heatCapacity = 900.0f;  // c of eq. 9, J/(kg K)
};
constexpr float kTaylorQuinney = 0.9f;  // eta_e of eq. 9

struct MieGruneisen {
  float a0 = 1e10f, b0 = 0.0f, c0 = 0.0f;  // eq. 13 (a0 = the bulk modulus)
  float gamma0 = 0.0f;                     // eq. 12
};

// T* = (T - T_room) / (T_melt - T_room), in [0, 1].
FRAC_HD inline float homologousTemperature(const JohnsonCook& jc, float temperature) {
  const float t = (temperature - jc.roomTemperature) / (jc.meltTemperature - jc.roomTemperature);
  return clampBetween(t, 0.0f, 1.0f);
}

// The rate and temperature factors of the JC flow stress: (1 + C ln max(rate / 1 s^-1, 1)) (1 - T*^m).
FRAC_HD inline float flowFactor(const JohnsonCook& jc, float strainRate, float homologous) {
  const float rate = jc.C != 0.0f && strainRate > 1.0f ? 1.0f + jc.C * logBasic(strainRate) : 1.0f;
  const float thermal = homologous > 0.0f ? 1.0f - powBasic(homologous, jc.m) : 1.0f;
  return rate * thermal;
}

// (A + B eps^n) times the factor, and its slope in eps.
FRAC_HD inline float flowStress(const JohnsonCook& jc, float plastic, float factor) {
  return (jc.A + (plastic > 0.0f ? jc.B * powBasic(plastic, jc.n) : 0.0f)) * factor;
}
FRAC_HD inline float flowSlope(const JohnsonCook& jc, float plastic, float factor) {
  const float e = plastic > 1e-6f ? plastic : 1e-6f;  // eps^(n-1) is infinite at 0 for n < 1
  return jc.B * jc.n * powBasic(e, jc.n - 1.0f) * factor;
}

// The radial return: the trial deviatoric stress (von Mises trialEq) outside the flow surface is brought back to it
// with the plastic strain increment dEps solving trialEq - 3 G dEps = R(eps + dEps) (safeguarded Newton, fixed
// iteration count). Returns dEps (0 when elastic), scales `s` onto the surface and sets `equivalent` to the von Mises
// stress of the result.
FRAC_HD inline float radialReturn(Sym3& s, float plastic, float shearModulus, const JohnsonCook& jc, float factor,
                                  float& equivalent) {
  const float trialEq = vonMises(s);
  equivalent = trialEq;
  if (!(trialEq > flowStress(jc, plastic, factor))) return 0.0f;
  float lo = 0.0f, hi = trialEq / (3.0f * shearModulus), d = 0.5f * hi;
  for (int k = 0; k < 12; ++k) {
    const float f = trialEq - 3.0f * shearModulus * d - flowStress(jc, plastic + d, factor);
    if (f > 0.0f) lo = d; else hi = d;
    const float next = d + f / (3.0f * shearModulus + flowSlope(jc, plastic + d, factor));
    d = (next > lo && next < hi) ? next : 0.5f * (lo + hi);
  }
  equivalent = trialEq - 3.0f * shearModulus * d;
  const float scale = equivalent / trialEq;
  s.xx *= scale;
  s.yy *= scale;
  s.zz *= scale;
  s.xy *= scale;
  s.yz *= scale;
  s.zx *= scale;
  return d;
}

// eps_F of the JC fracture model at stress triaxiality sigma_H / sigma_eq, rate and temperature.
FRAC_HD inline float fractureStrain(const JohnsonCook& jc, float triaxiality, float strainRate, float homologous) {
  const float base = jc.D1 + jc.D2 * expBasic(jc.D3 * triaxiality);
  const float rate = jc.D4 != 0.0f && strainRate > 1.0f ? 1.0f + jc.D4 * logBasic(strainRate) : 1.0f;
  return base * rate * (1.0f + jc.D5 * homologous);
}

// The Mie-Grueneisen pressure of eq. 11-13 at mu = rho / rho0 - 1 and the internal energy per unit mass e (J/kg).
FRAC_HD inline float mieGruneisenPressure(const MieGruneisen& eos, float restDensity, float mu, float energy) {
  const float eta = 1.0f + mu, rho = restDensity * eta;
  const float hugoniot = mu > 0.0f ? mu * (eos.a0 + mu * (eos.b0 + mu * eos.c0)) : eos.a0 * mu;  // eq. 13
  const float gamma = eta > 1.0f ? eos.gamma0 / eta : eos.gamma0;                                 // eq. 12
  return (1.0f - 0.5f * gamma * mu) * hugoniot + gamma * rho * energy;                            // eq. 11
}

// Whether the largest principal stress of sigma = s - p I exceeds `limit`: true unless limit I - sigma is positive
// semi-definite, which holds when all seven of its principal minors (three diagonal entries, three 2x2, the
// determinant) are >= 0 (Sylvester's criterion for semi-definite matrices). Basic operations only: no eigenvalue
// solve, the same bits on every backend.
FRAC_HD inline bool exceedsPrincipal(const Sym3& s, float p, float limit) {
  const float xx = limit - (s.xx - p), yy = limit - (s.yy - p), zz = limit - (s.zz - p);
  if (xx < 0.0f || yy < 0.0f || zz < 0.0f) return true;
  if (xx * yy - s.xy * s.xy < 0.0f || yy * zz - s.yz * s.yz < 0.0f || zz * xx - s.zx * s.zx < 0.0f) return true;
  // det of ((xx, -s.xy, -s.zx), (-s.xy, yy, -s.yz), (-s.zx, -s.yz, zz))
  const float det = xx * yy * zz - 2.0f * s.xy * s.yz * s.zx - xx * s.yz * s.yz - yy * s.zx * s.zx - zz * s.xy * s.xy;
  return det < 0.0f;
}

// The artificial viscosity of eq. 14 for a compressing element (D_H = tr D / 3 < 0), 0 otherwise.
FRAC_HD inline float artificialViscosity(float quadratic, float linear, float length, float density, float soundSpeed,
                                         float hydrostaticRate) {
  if (!(hydrostaticRate < 0.0f)) return 0.0f;
  return density * (quadratic * length * length * hydrostaticRate * hydrostaticRate -
                    linear * length * soundSpeed * hydrostaticRate);
}

}  // namespace frac::fem
