// The divergence watch (analysis/divergence_watch.h): a body in free fall stays inside its bound, 10 x 1/2 M (g t)^2
// (closed form: a free fall from rest gains 1/2 M (g t)^2); a run whose energies stop being finite is reported with
// the first element that is not finite.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <cmath>
#include <limits>

#include "analysis/divergence_watch.h"
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
