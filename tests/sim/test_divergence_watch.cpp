// The divergence watch (analysis/divergence_watch.h): a body in free fall stays inside its bound, 10 x 1/2 M (g t)^2
// (closed form: a free fall from rest gains 1/2 M (g t)^2); a run whose energies stop being finite is reported with
// the first element that is not finite.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>

#include "analysis/divergence_watch.h"
#include "core/diverged_error.h"
#include "core/grid.h"
#include "io/scene_loader.h"

namespace {

using json = nlohmann::json;

frac::SceneDesc fallingBox(const json& planes) {
  const json doc = {
      {"fps", 50},
      {"solver", {{"method", "bdem"}, {"gravity", {0, -9.81, 0}}}},
      {"materials", {{"stone", {{"density", 2000}, {"young", 1e7}, {"shear", 4e6}}}}},
      {"bodies", json::array({{{"shape", {{"type", "box"}, {"size", {0.05, 0.05, 0.05}}}},
                               {"position", {0, 1, 0}},
                               {"element_radius", 0.005},
                               {"material", "stone"}}})},
      {"planes", planes}};
  return frac::parseScene(doc, "falling_box.json");
}

}  // namespace

TEST_CASE("divergence watch: a free fall stays within 10 x 1/2 M (g t)^2 and is never reported") {
  frac::Simulation sim(fallingBox(json::array()), 1);
  frac::DivergenceWatch watch(sim);
  REQUIRE(watch.watchesEnergy());
  const double mass = sim.solver().freeMass();
  CHECK(mass > 0.0);
  for (int frame = 0; frame < 10; ++frame) {
    sim.advanceFrame();
    CHECK_FALSE(watch.check(sim).has_value());
    const double t = sim.time(), g = 9.81;
    const double fall = 0.5 * mass * (g * t) * (g * t);  // closed form, from rest
    CHECK(sim.stats().kineticEnergy == RelApprox(fall).epsilon(0.01));
    CHECK(watch.energyBound(t) == RelApprox(10.0 * fall).epsilon(1e-6));
  }
}

TEST_CASE("divergence watch: over a ground plane the bound is the fall's height, and a non-finite state is reported") {
  frac::Simulation sim(fallingBox(json::array({{{"point", {0, 0, 0}}, {"normal", {0, 1, 0}}, {"material", "stone"}}})),
                       1);
  frac::DivergenceWatch watch(sim);
  const double mass = sim.solver().freeMass();
  // The highest element centre sits at 1 + 0.025 - r (about 1.02 m) above the plane: 10 x M g h, within 3%.
  CHECK(watch.energyBound(5.0) == RelApprox(10.0 * mass * 9.81 * 1.02).epsilon(0.03));
  sim.advanceFrame();
  CHECK_FALSE(watch.check(sim).has_value());
  // A velocity that is not finite: the energies are not, and the message names the step and the element.
  sim.solver().setThreads(1);
  sim.editableScene().solver.gravity = frac::vec3(0.0f, -std::numeric_limits<float>::infinity(), 0.0f);
  sim.solver().applyLiveSettings(sim.editableScene());
  sim.advanceFrame();
  const std::optional<std::string> message = watch.check(sim);
  REQUIRE(message.has_value());
  CHECK(message->find("the run diverged at step") != std::string::npos);
  CHECK(message->find("not finite") != std::string::npos);
  CHECK(message->find("element 0 is the first") != std::string::npos);
}

TEST_CASE("a contact grid over positions flung apart or not finite: bounded, or the run reported diverged") {
  // Before: cell counts multiplied in int64 overflowed for positions ~1e21 m apart and the grid asked for a vector
  // beyond max_size (std::length_error out of a step); NaN positions gave a grid of one cell.
  for (const float width : {5e3f, 4e21f}) {  // 5 km at 1 mm: 1.25e20 cells, more than int64 holds
    const frac::GridWindow far = frac::gridWindow(frac::vec3(0.0f), frac::vec3(width), 1e-3f, 1 << 16);
    CHECK(far.nx >= 1);
    CHECK(far.cells() > 0);
    CHECK(far.cells() <= (1 << 16));
    CHECK(far.cell * float(far.nx) >= width);  // the window covers the box
  }
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_AS(frac::gridWindow(frac::vec3(0.0f, nan, 0.0f), frac::vec3(1.0f), 0.1f, 1 << 16), frac::DivergedError);
  // An ordinary window is unchanged: 1 m at 0.1 m cells.
  const frac::GridWindow unit = frac::gridWindow(frac::vec3(0.0f), frac::vec3(1.0f), 0.1f, 1 << 16);
  CHECK(unit.nx == 10);
  CHECK(unit.cells() == 1000);
}

TEST_CASE("fem-debris: a breakable ball thrown without shortening the step diverges and is reported as such") {
  // The rubber vase steps at 5.9e-6 s; the thrown ball's 5 mm tetrahedra need 2.8e-7 s. Stepped on at the vase's step
  // (what a caller that skips Simulation::updateTimeStep does), the ball blows up within ~10 steps: the step must say
  // so (DivergedError), not fail inside an allocation. With the step updated, the ball's contact with the vase keeps
  // the energy: at most the energy after the throw (kinetic + elastic), +1% (contact damping only takes energy).
  for (const bool update : {false, true}) {
    frac::Simulation sim(frac::loadScene(std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/fem_rubber_vase_bounce.json",
                                         {"solver.backend=cpu"}),
                         1);
    for (int s = 0; s < 50; ++s) sim.step();
    sim.solver().launchBreakableProjectile(frac::vec3(0.0515f, 0.06f, 0.0f), frac::vec3(-20.0f, 0.0f, 0.0f), 0.02f,
                                           0.005f, 0);
    if (!update) {
      CHECK_THROWS_AS(
          [&] {
            for (int s = 0; s < 100; ++s) sim.step();
          }(),
          frac::DivergedError);
      continue;
    }
    sim.updateTimeStep();
    const frac::SimStats thrown = sim.stats();
    const double start = thrown.kineticEnergy + thrown.elasticEnergy;
    double largest = 0.0, largestElastic = 0.0;
    for (int s = 0; s < 500; ++s) {  // the ball meets the vase after ~330 steps
      sim.step();
      const frac::SimStats now = sim.stats();
      largest = std::max(largest, now.kineticEnergy + now.elasticEnergy);
      largestElastic = std::max(largestElastic, now.elasticEnergy);
    }
    MESSAGE("energy after the throw " << start << " J, largest since " << largest << " J, largest elastic "
                                      << largestElastic << " J");
    CHECK(largestElastic > 0.01);  // they met
    CHECK(largest <= 1.01 * start);
  }
}

TEST_CASE("divergence watch: at 5x its stable step a wall tears its bonds in the first frame and is reported") {
  // wall_impact's wall coarsened (r 8 mm) resting on the ground. Central differences are stable for
  // dt < 2 / omega_max: at 5x the estimate the stiffest modes grow until the bonds tear (the energy released is
  // far below the bound: the rule of torn bonds reports it); at the estimate's own step nothing breaks. The wall is
  // lowered onto the ground (its coarse packing leaves its lowest elements 7.6 mm above the box's face): the contact
  // sets the modes off from the first step. In free fall nothing does, since compensated positions keep a lattice
  // that moves as one at rest to ~1e-15 (before them, float rounding of the falling positions did it).
  json doc = json::parse(std::ifstream(std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/wall_impact.json"));
  const float radius = 0.008f;
  doc["bodies"][0]["element_radius"] = radius;
  doc["projectiles"] = json::array();
  {
    const frac::Simulation packed(frac::parseScene(doc, "wall_impact.json"), 1);
    float lowest = 1e30f;
    for (const frac::vec3& p : packed.solver().referenceElements().position) lowest = std::min(lowest, p.y);
    doc["bodies"][0]["position"][1] = doc["bodies"][0]["position"][1].get<double>() - (lowest - radius);
  }
  for (const double factor : {1.0, 5.0}) {
    CAPTURE(factor);
    frac::SceneDesc desc = frac::parseScene(doc, "wall_impact.json");
    desc.solver.dt = factor * frac::Simulation(desc, 1).solver().stableDt();
    frac::Simulation sim(desc, 1);
    frac::DivergenceWatch watch(sim);
    const long long bonds = sim.stats().bondsIntact;
    REQUIRE(bonds > 2000);
    sim.advanceFrame();
    const std::optional<std::string> report = watch.check(sim);
    const long long torn = bonds - sim.stats().bondsIntact;
    MESSAGE(torn << " of " << bonds << " bonds torn in the first frame at " << factor << "x the stable step");
    if (factor == 1.0) {
      CHECK(torn == 0);
      CHECK_FALSE(report.has_value());
    } else {
      CHECK(torn > bonds / 2);
      REQUIRE(report.has_value());
      CHECK(report->find("the stiffest modes grew until they tore the bonds") != std::string::npos);
      CHECK(sim.stats().kineticEnergy < watch.energyBound(sim.time()) / 10.0);  // the energy rule alone is blind
    }
  }
}
