// The ordinary state-based elastoplastic kernel (sim/kernels/pd_state.h, Chen et al. 2018 eq. 3-19) against closed
// forms: one interior particle of a simple cubic lattice (spacing h, horizon 3.015 h, LAMMPS' linear partial-volume
// correction) with its full family under prescribed homogeneous deformations, and single bond ends for plasticity
// and fracture.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <cmath>
#include <vector>

#include "kernels/pd_bond.h"
#include "kernels/pd_state.h"

using namespace frac;

namespace {

constexpr float kH = 0.01f;              // lattice spacing (m)
constexpr float kHorizon = 3.015f * kH;  // delta
constexpr float kBulk = 2.0e9f;          // K (Pa)
constexpr float kShear = 1.0e9f;         // G (Pa): distinct from K so that swapping them fails

struct Family {
  std::vector<vec3> xi;
  std::vector<float> length, omega, volume;
  float m = 0.0f;
};

// The full family of the particle at the origin: lattice points within delta + h/2 (partial volumes beyond
// delta - h/2), omega of eq. 5 (or eq. 17 with `anisotropy`), m summed at rest.
Family cubicFamily(const glm::mat3& anisotropy = glm::mat3(1.0f)) {
  Family f;
  for (int i = -4; i <= 4; ++i)
    for (int j = -4; j <= 4; ++j)
      for (int k = -4; k <= 4; ++k) {
        if (i == 0 && j == 0 && k == 0) continue;
        const vec3 xi = kH * vec3(float(i), float(j), float(k));
        const float len = std::sqrt(glm::dot(xi, xi));
        if (len > kHorizon + 0.5f * kH) continue;
        f.xi.push_back(xi);
        f.length.push_back(len);
        f.omega.push_back(psInfluenceAnisotropic(anisotropy, xi, kHorizon));
        f.volume.push_back(kH * kH * kH * pmbPartialVolume(len, kHorizon, kH));
        f.m += psWeightedVolumeTerm(f.omega.back(), len, f.volume.back());
      }
  return f;
}

// Bond extensions under the homogeneous deformation y = F x (eta = (F - I) xi).
std::vector<float> extensions(const Family& f, const glm::mat3& deformation) {
  std::vector<float> e;
  for (size_t b = 0; b < f.xi.size(); ++b) {
    float len;
    e.push_back(psExtension(f.xi[b], f.length[b], deformation * f.xi[b] - f.xi[b], len));
  }
  return e;
}

// Pass 1 (eq. 6-7).
float dilatation(const Family& f, const std::vector<float>& e) {
  float sum = 0.0f;
  for (size_t b = 0; b < e.size(); ++b) sum += psDilatationTerm(f.omega[b], f.length[b], e[b], f.volume[b]);
  return psDilatation(sum, f.m);
}

// Energy density two ways: the LPS energy W (Silling 2007 eq. 91) and the work of the force scalars,
// 1/2 sum_j t_j e_j V_j (exact for a quadratic energy whose derivative the force scalar is).
struct Energy {
  double formula, work;
};
Energy energy(const Family& f, const std::vector<float>& e, float theta) {
  float devSum = 0.0f;
  double work = 0.0;
  for (size_t b = 0; b < e.size(); ++b) {
    devSum += psDeviatoricEnergyTerm(f.omega[b], psDeviatoricExtension(e[b], theta, f.length[b]), 0.0f, f.volume[b]);
    float ep = 0.0f;
    const float t = psBondEndForce(f.omega[b], f.length[b], e[b], theta, f.m, kBulk, kShear, INFINITY, 0.0f, ep);
    work += 0.5 * double(t) * double(e[b]) * double(f.volume[b]);
  }
  return {double(psStrainEnergyDensity(kBulk, kShear, f.m, theta, devSum)), work};
}

glm::mat3 stretchTensor(float s) { return glm::mat3(1.0f + s); }

}  // namespace

TEST_CASE("PD state kernel: constants of eq. 5, 10, 17 and the continuum weighted volume") {
  CHECK(psInfluence(0.03f, 0.02f) == RelApprox(1.5).epsilon(1e-6));
  // eq. 17: G = diag(2, 1, 1) halves the weight of a bond along x, leaves one along y alone.
  const glm::mat3 g(vec3(2, 0, 0), vec3(0, 1, 0), vec3(0, 0, 1));
  CHECK(psInfluenceAnisotropic(g, vec3(0.02f, 0, 0), 0.03f) == RelApprox(0.75).epsilon(1e-6));
  CHECK(psInfluenceAnisotropic(g, vec3(0, 0.02f, 0), 0.03f) == RelApprox(1.5).epsilon(1e-6));
  // eq. 10 with delta = 0.01: a = 9 K / (8 pi delta^4), b = 15 G / (2 pi delta^5).
  CHECK(psChenA(1.0e9f, 0.01f) == RelApprox(9.0e9 / (8.0 * M_PI * 1e-8)).epsilon(1e-5));
  CHECK(psChenB(1.0e9f, 0.01f) == RelApprox(15.0e9 / (2.0 * M_PI * 1e-10)).epsilon(1e-5));
  // With the continuum m = pi delta^5 the LPS coefficients are Chen's: 15 G / m = 2 b, (3 K / m)(3 delta / 4) = 2 a.
  const float mc = psWeightedVolumeContinuum(0.01f);
  CHECK(mc == RelApprox(M_PI * 1e-10).epsilon(1e-5));
  CHECK(psDeviatoricModulus(1.0e9f, mc) == RelApprox(2.0 * psChenB(1.0e9f, 0.01f)).epsilon(1e-5));
  CHECK(psDilatationalModulus(1.0e9f, mc) * 0.75f * 0.01f ==
        RelApprox(2.0 * psChenA(1.0e9f, 0.01f)).epsilon(1e-5));
  // The discrete m of the lattice family is the continuum one up to the lattice error (6%).
  const Family f = cubicFamily();
  MESSAGE(f.xi.size() << " bonds; m = " << f.m << ", pi delta^5 = " << psWeightedVolumeContinuum(kHorizon)
                      << " (ratio " << f.m / psWeightedVolumeContinuum(kHorizon) << ")");
  CHECK(f.xi.size() == 178);
  CHECK(f.m == RelApprox(psWeightedVolumeContinuum(kHorizon)).epsilon(0.08));
}

TEST_CASE("PD state kernel: a uniform stretch s gives theta = 3 s and no deviatoric extension (eq. 6-9)") {
  const Family f = cubicFamily();
  const float s = 1e-3f;
  const std::vector<float> e = extensions(f, stretchTensor(s));
  const float theta = dilatation(f, e);
  float worstDev = 0.0f;
  for (size_t b = 0; b < e.size(); ++b)
    worstDev = std::fmax(worstDev, std::fabs(psDeviatoricExtension(e[b], theta, f.length[b])));
  // Chen's literal eq. 6 (continuum constant 9 / (4 pi delta^4), Lambda factor) on the same family, for comparison.
  double chen = 0.0;
  for (size_t b = 0; b < e.size(); ++b) chen += f.omega[b] * (e[b] / f.length[b]) * f.length[b] * f.volume[b];
  chen *= 9.0 / (4.0 * M_PI * std::pow(double(kHorizon), 4));
  MESSAGE("theta = " << theta << " (3 s = " << 3.0f * s << "), Chen's eq. 6 literally: " << chen
                     << ", largest |e^d| = " << worstDev << " (s h = " << s * kH << ")");
  CHECK(theta == RelApprox(3.0 * s).epsilon(1e-4));  // exact up to float rounding with the discrete m
  CHECK(chen == RelApprox(3.0 * s).epsilon(0.10));   // the continuum constant: lattice error only
  CHECK(worstDev < 1e-4f * s * kH);
  // A rigid rotation (0.3 rad about z) neither dilates nor loads a bond.
  const float c = std::cos(0.3f), sn = std::sin(0.3f);
  const glm::mat3 rot(vec3(c, sn, 0), vec3(-sn, c, 0), vec3(0, 0, 1));
  const std::vector<float> er = extensions(f, rot);
  const float thetaRot = dilatation(f, er);
  float worstT = 0.0f, tStretch = 0.0f;
  for (size_t b = 0; b < er.size(); ++b) {
    float ep = 0.0f, ep2 = 0.0f;
    worstT = std::fmax(worstT, std::fabs(psBondEndForce(f.omega[b], f.length[b], er[b], thetaRot, f.m, kBulk,
                                                        kShear, INFINITY, 0.0f, ep)));
    tStretch = std::fmax(tStretch, std::fabs(psBondEndForce(f.omega[b], f.length[b], e[b], theta, f.m, kBulk,
                                                            kShear, INFINITY, 0.0f, ep2)));
  }
  MESSAGE("rigid rotation: theta = " << thetaRot << ", largest |t| = " << worstT << " (" << tStretch
                                     << " under the stretch)");
  CHECK(std::fabs(thetaRot) < 1e-3f * 3.0f * s);
  CHECK(worstT < 1e-3f * tStretch);
}

TEST_CASE("PD state kernel: strain energy density under uniform stretch is 9/2 K s^2 (eq. 3-4, 10)") {
  const Family f = cubicFamily();
  const float s = 1e-3f;
  const std::vector<float> e = extensions(f, stretchTensor(s));
  const Energy w = energy(f, e, dilatation(f, e));
  const double expected = 4.5 * kBulk * double(s) * double(s);
  MESSAGE("W = " << w.formula << ", 1/2 sum t e V = " << w.work << ", 9/2 K s^2 = " << expected);
  CHECK(w.formula == RelApprox(expected).epsilon(0.05));
  CHECK(w.work == RelApprox(expected).epsilon(0.05));
  // The same stretch in a material with another shear modulus: only K matters for a pure dilatation.
  float ep = 0.0f;
  const float theta = dilatation(f, e);
  const float t1 = psBondEndForce(f.omega[0], f.length[0], e[0], theta, f.m, kBulk, kShear, INFINITY, 0.0f, ep);
  const float t2 = psBondEndForce(f.omega[0], f.length[0], e[0], theta, f.m, kBulk, 3.0f * kShear, INFINITY, 0.0f, ep);
  CHECK(t2 == RelApprox(t1).epsilon(1e-3));
}

TEST_CASE("PD state kernel: pure shear has no dilatation and energy density G gamma^2 / 2 (eq. 8-9)") {
  const Family f = cubicFamily();
  const float gamma = 1e-3f;
  const double expected = 0.5 * kShear * double(gamma) * double(gamma);
  // Shear in the lattice's xy plane (eps_xy = gamma / 2) and the same shear rotated by 45 degrees about z
  // (eps = diag(gamma / 2, -gamma / 2, 0)): the cubic lattice's two extreme shear directions.
  const glm::mat3 shearXY(vec3(1, 0.5f * gamma, 0), vec3(0.5f * gamma, 1, 0), vec3(0, 0, 1));
  const glm::mat3 shearDiag(vec3(1 + 0.5f * gamma, 0, 0), vec3(0, 1 - 0.5f * gamma, 0), vec3(0, 0, 1));
  for (const glm::mat3& F : {shearXY, shearDiag}) {
    const std::vector<float> e = extensions(f, F);
    const float theta = dilatation(f, e);
    const Energy w = energy(f, e, theta);
    MESSAGE("theta = " << theta << "; W = " << w.formula << ", 1/2 sum t e V = " << w.work
                       << ", G gamma^2 / 2 = " << expected);
    CHECK(std::fabs(theta) < 1e-3f * gamma);  // second order in gamma only
    CHECK(w.formula == RelApprox(expected).epsilon(0.05));
    CHECK(w.work == RelApprox(expected).epsilon(0.05));
  }
}

TEST_CASE("PD state kernel: the force scalar is the derivative of the energy (state-based, theta included)") {
  // A generic small deformation; perturb one bond's extension and difference W (theta changes with it).
  const Family f = cubicFamily();
  const glm::mat3 F(vec3(1.0012f, 0.0004f, -0.0002f), vec3(0.0003f, 0.9993f, 0.0005f),
                    vec3(0.0001f, -0.0006f, 1.0004f));
  const std::vector<float> e = extensions(f, F);
  for (size_t b : {size_t(0), size_t(33), size_t(70)}) {
    const float de = 2e-7f;
    std::vector<float> plus = e, minus = e;
    plus[b] += de;
    minus[b] -= de;
    const double dW = (energy(f, plus, dilatation(f, plus)).formula - energy(f, minus, dilatation(f, minus)).formula) /
                      (2.0 * de);
    float ep = 0.0f;
    const float t =
        psBondEndForce(f.omega[b], f.length[b], e[b], dilatation(f, e), f.m, kBulk, kShear, INFINITY, 0.0f, ep);
    MESSAGE("bond " << b << ": dW/de = " << dW << ", t V = " << double(t) * f.volume[b]);
    CHECK(dW == RelApprox(double(t) * f.volume[b]).epsilon(0.02));
  }
}

TEST_CASE("PD state kernel: plasticity, return mapping and the gamma limit (eq. 11-16)") {
  const float horizon = 0.03f, xiLength = 0.02f, omega = psInfluence(horizon, xiLength);
  const float m = psWeightedVolumeContinuum(horizon);
  const float k = psDeviatoricModulus(kShear, m) * omega;  // deviatoric stiffness of this bond end
  const float ey = 1e-5f;                                   // yield extension
  const float tc = k * ey;
  const float psi0 = 2.0f * tc * tc;  // eq. 13-14: A^c = 2 t_c = sqrt(2 Psi0)
  CHECK(psYieldForce(psi0) == RelApprox(tc).epsilon(1e-6));
  CHECK(psYieldFunction(tc, psi0) == doctest::Approx(0.0).epsilon(1e-6 * psi0));
  // Drive the bond end through extensions (theta = 0, so e^d = e) in small steps; returns the last force.
  auto drive = [&](float from, float to, float gamma, float& ep) {
    float t = 0.0f;
    for (int n = 1; n <= 40; ++n) {
      const float ext = from + (to - from) * float(n) / 40.0f;
      t = psBondEndForce(omega, xiLength, ext, 0.0f, m, kBulk, kShear, psi0, gamma, ep);
    }
    return t;
  };
  const float noLimit = INFINITY;
  SUBCASE("below yield: load to e_y / 2 and back leaves no plastic extension") {
    float ep = 0.0f;
    const float tPeak = drive(0.0f, 0.5f * ey, noLimit, ep);
    CHECK(tPeak == RelApprox(0.5 * tc).epsilon(1e-4));
    const float t = drive(0.5f * ey, 0.0f, noLimit, ep);
    MESSAGE("below yield: e^p = " << ep << ", residual t = " << t);
    CHECK(ep == 0.0f);
    CHECK(std::fabs(t) < 1e-5f * tc);
  }
  SUBCASE("past yield: load to 3 e_y, unload") {
    float ep = 0.0f;
    const float tPeak = drive(0.0f, 3.0f * ey, noLimit, ep);
    MESSAGE("at 3 e_y: e^p = " << ep << " (2 e_y = " << 2.0f * ey << "), t = " << tPeak << " (t_c = " << tc << ")");
    CHECK(ep == RelApprox(2.0 * ey).epsilon(1e-4));  // perfect plasticity: e - e_y
    CHECK(tPeak == RelApprox(tc).epsilon(1e-4));     // on the yield surface (eq. 14)
    // Elastic unloading to 2 e_y: e^p unchanged, force zero.
    const float tMid = drive(3.0f * ey, 2.0f * ey, noLimit, ep);
    CHECK(ep == RelApprox(2.0 * ey).epsilon(1e-4));
    CHECK(std::fabs(tMid) < 1e-3f * tc);
    // Back to e = 0: the bond reaches -t_c at e = e_y and flows in reverse; e^p = e_y remains, force -t_c.
    const float tEnd = drive(2.0f * ey, 0.0f, noLimit, ep);
    MESSAGE("unloaded to e = 0: e^p = " << ep << ", residual t = " << tEnd);
    CHECK(ep == RelApprox(ey).epsilon(1e-3));
    CHECK(tEnd == RelApprox(-tc).epsilon(1e-3));
  }
  SUBCASE("eq. 15 in one step, the gamma cap of eq. 16, Psi0 = infinity and gamma = 0") {
    float ep = 0.0f;
    psBondEndForce(omega, xiLength, 3.0f * ey, 0.0f, m, kBulk, kShear, psi0, noLimit, ep);
    CHECK(ep == RelApprox(2.0 * ey).epsilon(1e-4));
    ep = 0.0f;
    const float t = drive(0.0f, 3.0f * ey, 1.5f * ey, ep);
    MESSAGE("gamma = 1.5 e_y: e^p = " << ep << ", t = " << t << " (1.5 t_c = " << 1.5f * tc << ")");
    CHECK(ep == RelApprox(1.5 * ey).epsilon(1e-5));
    CHECK(t == RelApprox(1.5 * tc).epsilon(1e-4));
    ep = 0.0f;
    drive(0.0f, 100.0f * ey, noLimit, ep);  // Psi0 stays finite: ep grows
    CHECK(ep == RelApprox(99.0 * ey).epsilon(1e-3));
    ep = 0.0f;
    const float tElastic = psBondEndForce(omega, xiLength, 100.0f * ey, 0.0f, m, kBulk, kShear, INFINITY, noLimit, ep);
    CHECK(ep == 0.0f);
    CHECK(tElastic == RelApprox(100.0 * tc).epsilon(1e-5));
    drive(0.0f, 100.0f * ey, 0.0f, ep);
    CHECK(ep == 0.0f);
    // Compression yields too (sign of eq. 14).
    drive(0.0f, -3.0f * ey, noLimit, ep);
    CHECK(ep == RelApprox(-2.0 * ey).epsilon(1e-4));
  }
  SUBCASE("yield is deviatoric: a pure dilatation does not flow") {
    float ep = 0.0f;
    const float theta = 0.05f;  // e = theta |xi| / 3: e^d = 0, far beyond e_y in total extension
    const float e = theta * xiLength / 3.0f;
    const float t = psBondEndForce(omega, xiLength, e, theta, m, kBulk, kShear, psi0, noLimit, ep);
    CHECK(ep == 0.0f);
    CHECK(t == RelApprox(psDilatationalForce(kBulk, m, theta, omega, xiLength)).epsilon(1e-6));
  }
}

TEST_CASE("PD state kernel: fracture criterion with plastic extension and damage-dependent alpha (eq. 18-19)") {
  const float horizon = 0.03f, xiLength = 0.02f, omega = psInfluence(horizon, xiLength);
  const float sCrit = 0.01f;
  const float eCrit = sCrit * horizon;  // eq. 19: (e - e^p) / delta = s_crit
  CHECK(psElasticStretch(4e-4f, 1e-4f, xiLength) == RelApprox(0.015).epsilon(1e-5));
  CHECK(psFractureStretch(4e-4f, 1e-4f, xiLength, omega) == RelApprox(3e-4 / 0.03).epsilon(1e-5));
  CHECK(psBondBreaks(psFractureStretch(1.01f * eCrit, 0.0f, xiLength, omega), sCrit, 0.0f, 0.0f));
  CHECK_FALSE(psBondBreaks(psFractureStretch(0.99f * eCrit, 0.0f, xiLength, omega), sCrit, 0.0f, 0.0f));
  // Every bond length breaks at the same extension (e - e^p) = s_crit delta: short bonds are not weaker.
  CHECK(psBondBreaks(psFractureStretch(1.01f * eCrit, 0.0f, 0.01f, psInfluence(horizon, 0.01f)), sCrit, 0.f, 0.f));
  CHECK_FALSE(
      psBondBreaks(psFractureStretch(0.99f * eCrit, 0.0f, 0.01f, psInfluence(horizon, 0.01f)), sCrit, 0.f, 0.f));
  // Ductile: twice the critical extension, 1.5 of it plastic, survives; without the plastic part it breaks.
  CHECK_FALSE(psBondBreaks(psFractureStretch(2.0f * eCrit, 1.5f * eCrit, xiLength, omega), sCrit, 0.0f, 0.0f));
  CHECK(psBondBreaks(psFractureStretch(2.0f * eCrit, 0.0f, xiLength, omega), sCrit, 0.0f, 0.0f));
  // Damage phi = 1 - 90 / 120 = 0.25; alpha = 2 raises the threshold to 1.5 s_crit.
  const float phi = psDamage(90, 120);
  CHECK(phi == RelApprox(0.25).epsilon(1e-6));
  CHECK(psDamage(0, 0) == 0.0f);
  const float s12 = psFractureStretch(1.2f * eCrit, 0.0f, xiLength, omega);
  CHECK(psBondBreaks(s12, sCrit, 2.0f, 0.0f));
  CHECK_FALSE(psBondBreaks(s12, sCrit, 2.0f, phi));
  CHECK(psBondBreaks(psFractureStretch(1.51f * eCrit, 0.0f, xiLength, omega), sCrit, 2.0f, phi));
  // Compression never breaks a bond.
  CHECK_FALSE(psBondBreaks(psFractureStretch(-10.0f * eCrit, 0.0f, xiLength, omega), sCrit, 0.0f, 0.0f));
  // Anisotropy (eq. 17): G = diag(2, 1, 1) halves omega along x, so an x bond needs half the extension.
  const glm::mat3 g(vec3(2, 0, 0), vec3(0, 1, 0), vec3(0, 0, 1));
  const float omegaX = psInfluenceAnisotropic(g, vec3(xiLength, 0, 0), horizon);
  CHECK(psBondBreaks(psFractureStretch(0.51f * eCrit, 0.0f, xiLength, omegaX), sCrit, 0.0f, 0.0f));
  CHECK_FALSE(psBondBreaks(psFractureStretch(0.49f * eCrit, 0.0f, xiLength, omegaX), sCrit, 0.0f, 0.0f));
}
