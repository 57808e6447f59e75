// Lu et al. 2021 Table 3: three-point bending of the BDEM beam with E = 1e7, G = 4e6, sigma_c = 1.25e6 gives E_macro
// within 10% and sigma_macro within 28% of the bond parameters. We require 15% and 35% (issue bounds).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "../relative_approx.h"

#include "io/scene_loader.h"
#include "solvers/simulation.h"

using namespace frac;

TEST_CASE("three_point_bending: E_macro and sigma_macro of eq. 29 against the micro parameters (Table 3)") {
  // One thread, as below: beside ctest -j2's other test, two OpenMP threads on the two cores took 139 s (the state is
  // the same bits on any thread count).
  Simulation sim(loadScene(std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/three_point_bending.json",
                           {"solver.threads=1"}));
  for (int f = 0; f < sim.scene().frames; ++f) sim.advanceFrame();
  const nlohmann::json m = sim.measurements();
  const double young = m["E_macro"], strength = m["sigma_macro"];
  MESSAGE("E_macro = " << young << " Pa, sigma_macro = " << strength << " Pa, fitted on " << m["fit_samples"]
                       << " samples, peak force " << m["peak_force"] << " N, bonds broken "
                       << sim.stats().bondsBroken);
  CHECK(young == RelApprox(1e7).epsilon(0.15));
  CHECK(strength == RelApprox(1.25e6).epsilon(0.35));
  CHECK(sim.stats().bondsBroken > 0);  // the beam failed: the peak is a real peak
}

TEST_CASE("rbdem_three_point_bending at r 2 mm: implicit at dt 2e-4 gives E_macro within 10% and sigma_macro within "
          "30% of Zhang Table 3's 1.07e8 and 1.52e7") {
  // The paper's beam has r = 1.25 mm; the shipped scene 2.5 mm (38 s on one thread), where sigma_macro is 1.04e7
  // (-32%). The beam measured at three radii (2026-11-28, docs/methods/rbdem.md): r 2.5 mm E -7.5%, sigma -32%;
  // 2 mm E +5.3%, sigma -22% (107 s on one thread, 73 s to the failure); 1.25 mm E +17%, sigma -9.5% (9 minutes on
  // two). This test runs 2 mm, the coarsest at which the strength is within the bound.
  // One thread: the CG runs many short parallel loops, which crawl when ctest -j2 runs another test on the same two
  // cores (OpenMP threads spin at each loop's end); alone, 2 threads are 1.6x faster.
  Simulation sim(loadScene(std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/rbdem_three_point_bending.json",
                           {"solver.threads=1", "bodies.0.element_radius=0.002"}));
  REQUIRE(sim.dt() == RelApprox(2e-4));  // 50x the paper's explicit 4e-6
  // Until the beam has failed (bonds broken and the load down to a tenth of its peak: 0.24 s of the scene's 0.34 s).
  double peak = 0.0;
  for (int f = 0; f < sim.scene().frames; ++f) {
    sim.advanceFrame();
    const double force = sim.bendingProbe()->curve().back().force;
    peak = std::max(peak, force);
    if (sim.stats().bondsBroken > 0 && force < 0.1 * peak) break;
  }
  const nlohmann::json m = sim.measurements();
  const double young = m["E_macro"], strength = m["sigma_macro"];
  MESSAGE("rbdem: E_macro = " << young << " Pa, sigma_macro = " << strength << " Pa (paper 1.07e8, 1.52e7), fitted on "
                              << m["fit_samples"] << " samples, peak force " << m["peak_force"] << " N, bonds broken "
                              << sim.stats().bondsBroken << ", CG iterations per step " << sim.stats().iterationsPerStep);
  CHECK(young == RelApprox(1.07e8).epsilon(0.10));
  CHECK(strength == RelApprox(1.52e7).epsilon(0.30));
  CHECK(sim.stats().bondsBroken > 0);  // the beam failed at mid-span: the peak is a real peak
}

namespace {
// A three-point bending probe on a beam of square section `side` over `span`, its slope fitted up to 0.6 of the peak.
ProbeDesc squareBeamProbe(float span, float side) {
  ProbeDesc desc;
  desc.type = ProbeType::ThreePointBending;
  desc.span = span;
  desc.width = desc.height = side;
  desc.fitFraction = 0.6f;
  return desc;
}
}  // namespace

TEST_CASE("three_point_bending with supports: E_timoshenko and E_shear_free give E back from Timoshenko's beam "
          "read as the probe reads it (the mean over cylinders of diameter h), E_shear_free whatever the shear modulus") {
  // A simply supported beam under a central load F deflects at u <= l / 2 from a support by F u (3 l^2 - 4 u^2) /
  // (48 E I) in bending and F u / (2 kappa G A) in shear (Timoshenko); past a support it runs on straight, without
  // shear. The probe reads the mean over vertical cylinders of radius R = h / 2 (simulation.cpp): over a disc,
  // mean s^2 = R^2 / 4, mean |s| = 4 R / (3 pi), mean |s|^3 = 8 R^3 / (15 pi), so at mid-span, at a quarter span
  // (a = l / 4) and over a support the means are closed forms. Sampled so, net of the supports' means, the probe must
  // give E back (its own means are a 4,000-strip quadrature: 1e-5), and E_shear_free must with a shear modulus three
  // times the isotropic one too, where E_timoshenko (G from nu) must not.
  ProbeDesc desc = squareBeamProbe(0.5f, 0.08f);
  desc.poisson = 0.25f;
  desc.supports = "support_low,support_high";
  const double young = 7e10, nu = 0.25, pi = 3.14159265358979323846;
  const double l = desc.span, b = desc.width, h = desc.height, inertia = b * h * h * h / 12.0, area = b * h;
  const double kappa = 10.0 * (1.0 + nu) / (12.0 + 11.0 * nu), radius = 0.5 * h, a = 0.25 * l;
  const double bendingMid = l * l * l - 1.5 * l * radius * radius + 32.0 * radius * radius * radius / (15.0 * pi);
  const double bendingSupport = -16.0 * radius * radius * radius / (15.0 * pi);
  const double bendingQuarter = 3.0 * l * l * a - 4.0 * a * a * a - 3.0 * a * radius * radius;
  const double shearMid = 0.5 * l - 4.0 * radius / (3.0 * pi), shearSupport = 2.0 * radius / (3.0 * pi);
  const auto sampledResult = [&](double shear) {
    ThreePointBendingProbe probe(desc);
    const double bendingScale = 1.0 / (48.0 * young * inertia), shearScale = 1.0 / (2.0 * kappa * shear * area);
    const double mid = (bendingMid - bendingSupport) * bendingScale + (shearMid - shearSupport) * shearScale;
    const double quarter = (bendingQuarter - bendingSupport) * bendingScale + (a - shearSupport) * shearScale;
    const int rising = 4000;
    for (int k = 0; k <= 2 * rising; ++k) {  // the load up to 1 kN and down again: a peak
      const double force = 1000.0 * (k <= rising ? k : 2 * rising - k) / rising;
      probe.sample(1e-6 * k, force * mid, force, force * quarter);
    }
    return probe.result();
  };
  const BendingResult isotropic = sampledResult(young / (2.0 * (1.0 + nu)));
  const BendingResult stiffShear = sampledResult(3.0 * young / (2.0 * (1.0 + nu)));
  MESSAGE("isotropic: E_timoshenko " << isotropic.youngTimoshenko << ", E_shear_free " << isotropic.youngShearFree
                                     << "; G x 3: E_shear_free " << stiffShear.youngShearFree << ", E_timoshenko "
                                     << stiffShear.youngTimoshenko << " against " << young);
  CHECK(std::abs(isotropic.youngTimoshenko / young - 1.0) < 1e-4);
  CHECK(std::abs(isotropic.youngShearFree / young - 1.0) < 1e-4);
  CHECK(std::abs(stiffShear.youngShearFree / young - 1.0) < 1e-4);
  CHECK(stiffShear.youngTimoshenko / young - 1.0 > 0.02);  // the beam is l / h 6.25: its shear deflection is ~7%
  CHECK(isotropic.youngMacro < young);
}

TEST_CASE("three_point_bending: a load ringing about the quasi-static line is fitted to the line's slope (the fit "
          "over a stretch of the run, not over the samples whose load lies in a band)") {
  // An explicit beam pushed at a constant speed rings about its quasi-static curve: a peridynamic beam at the lab's
  // rate rang at its half-spans' flexural period, 1/40 of the loading, by about 4% of its peak (docs/materials.md).
  // Sampled so (the deflection exact, the force F = k delta plus that ringing), E_macro must be the line's within
  // 0.3%; the fit over the samples whose smoothed force lay within 0.2-0.6 of the peak read it 3.4% low.
  const ProbeDesc desc = squareBeamProbe(0.072f, 0.0136f);
  ThreePointBendingProbe probe(desc);
  const double stiffness = 1.2e7, peakDeflection = 3.8e-5, ringing = 0.04 * stiffness * peakDeflection;
  const int rising = 8000;
  const double period = rising / 40.0;
  for (int k = 0; k <= rising + 100; ++k) {  // up to the peak, then a crack: the load falls to nothing
    const double delta = peakDeflection * std::min(k, rising) / rising;
    const double quasiStatic = k <= rising ? stiffness * delta : stiffness * delta * (rising + 100 - k) / 100.0;
    probe.sample(1e-7 * k, delta, quasiStatic + ringing * std::sin(2.0 * M_PI * k / period));
  }
  const BendingResult r = probe.result();
  const double l = desc.span, b = desc.width, h = desc.height;
  const double expected = l * l * l / (4.0 * b * h * h * h) * stiffness;  // eq. 29
  MESSAGE("E_macro " << r.youngMacro << " against the line's " << expected << " on " << r.fitSamples << " samples");
  CHECK(r.youngMacro == RelApprox(expected).epsilon(0.003));
}
