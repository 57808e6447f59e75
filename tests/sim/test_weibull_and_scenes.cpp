// Weibull bond strengths (Lu sec. 3.2) against the distribution's closed-form moments, and every shipped scene loads
// and steps.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <cmath>
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "bdem_test_scenes.h"
#include "io/scene_loader.h"
#include "solvers/bdem/bdem_solver.h"
#include "solvers/peridynamics/pd_solver.h"
#include "solvers/simulation.h"

using namespace frac;

namespace {

// Mean and median of the draws against Weibull's closed forms for unit scale (1%).
void checkWeibullMoments(std::vector<float> scale, float m) {
  REQUIRE(scale.size() > 20000);
  double sum = 0.0;
  for (float s : scale) sum += s;
  std::sort(scale.begin(), scale.end());
  CHECK(sum / scale.size() == RelApprox(std::tgamma(1.0 + 1.0 / m)).epsilon(0.01));
  CHECK(scale[scale.size() / 2] == RelApprox(std::pow(std::log(2.0), 1.0 / m)).epsilon(0.01));
}

}  // namespace

TEST_CASE("bond strengths follow a Weibull law with unit scale: mean Gamma(1 + 1/m), median ln(2)^(1/m)") {
  for (float m : {3.0f, 8.0f}) {
    CAPTURE(m);
    MaterialDesc mat = test::testMaterial();
    mat.weibullM = m;
    BdemSolver solver;
    solver.load(test::blockScene(vec3(0.1f), 0.002f, mat), {});
    checkWeibullMoments(solver.bonds().tensileScale, m);
  }
}


TEST_CASE("peridynamic breaking stretches follow the same Weibull law where weibull_m is set (pd-bond, pd-state), "
          "Levine's normal scatter otherwise") {
  // One material, one meaning: a scene's weibull_m scatters bdem's and rbdem's bond strengths and the peridynamic
  // methods' breaking stretches alike (their bonds are linear, so the stretch's scatter is the strength's).
  for (const std::string method : {"pd-bond", "pd-state"})
    for (float m : {3.0f, 8.0f}) {
      CAPTURE(method);
      CAPTURE(m);
      MaterialDesc mat = test::testMaterial();
      mat.weibullM = m;
      mat.stretchScatter = 0.02f;  // not read where weibull_m > 0
      SceneDesc scene = test::blockScene(vec3(0.06f), 0.002f, mat);
      scene.solver.method = method;
      PeridynamicsSolver solver;
      solver.load(scene, {});
      checkWeibullMoments(solver.bonds().thresholdScale, m);
    }
  MaterialDesc normal = test::testMaterial();
  normal.stretchScatter = 0.02f;
  SceneDesc scene = test::blockScene(vec3(0.06f), 0.002f, normal);
  scene.solver.method = "pd-bond";
  PeridynamicsSolver solver;
  solver.load(scene, {});
  const std::vector<float>& scale = solver.bonds().thresholdScale;
  double sum = 0.0, squares = 0.0;
  for (float s : scale) sum += s, squares += double(s) * s;
  const double mean = sum / scale.size();
  CHECK(mean == RelApprox(1.0).epsilon(0.001));
  CHECK(std::sqrt(squares / scale.size() - mean * mean) == RelApprox(0.02).epsilon(0.03));
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
