// Weibull bond strengths (Lu sec. 3.2) against the distribution's closed-form moments, and every shipped scene loads
// and steps.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <cmath>
#include <filesystem>

#include "bdem_test_scenes.h"
#include "io/scene_loader.h"
#include "solvers/bdem/bdem_solver.h"
#include "solvers/simulation.h"

using namespace frac;

TEST_CASE("bond strengths follow a Weibull law with unit scale: mean Gamma(1 + 1/m), median ln(2)^(1/m)") {
  for (float m : {3.0f, 8.0f}) {
    CAPTURE(m);
    MaterialDesc mat = test::testMaterial();
    mat.weibullM = m;
    BdemSolver solver;
    solver.load(test::blockScene(vec3(0.1f), 0.002f, mat), {});
    const auto& scale = solver.bonds().tensileScale;
    REQUIRE(scale.size() > 20000);
    double sum = 0.0;
    std::vector<float> sorted(scale);
    for (float s : scale) sum += s;
    std::sort(sorted.begin(), sorted.end());
    CHECK(sum / scale.size() == RelApprox(std::tgamma(1.0 + 1.0 / m)).epsilon(0.01));
    CHECK(sorted[sorted.size() / 2] == RelApprox(std::pow(std::log(2.0), 1.0 / m)).epsilon(0.01));
  }
}

TEST_CASE("every shipped scene loads and its first steps stay finite") {
  const std::string dir = std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes";
  int scenes = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    // The benchmark blocks (a million particles: two minutes of CI here) are loaded and stepped by ctest's
    // scene_digests, which checks their state bit for bit.
    if (entry.path().filename().string().rfind("bench_", 0) == 0) continue;
    CAPTURE(entry.path().string());
    Simulation sim(loadScene(entry.path().string(), {"solver.threads=1"}));  // one thread beside ctest -j2's other test
    for (int s = 0; s < 20; ++s) sim.step();
    const SimStats st = sim.stats();
    CHECK(st.elements > 0);
    CHECK(std::isfinite(st.kineticEnergy));
    CHECK(std::isfinite(st.elasticEnergy));
    ++scenes;
  }
  CHECK(scenes >= 8);
}
