// Lu et al. 2021 Table 3: three-point bending of the BDEM beam with E = 1e7, G = 4e6, sigma_c = 1.25e6 gives E_macro
// within 10% and sigma_macro within 28% of the bond parameters. We require 15% and 35% (issue bounds).
#include <doctest/doctest.h>

#include <algorithm>

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
