// Weibull bond strengths (Lu sec. 3.2) against the distribution's closed-form moments, and every shipped scene loads
// and steps.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <cmath>
#include <algorithm>
#include <array>
#include <map>
#include <filesystem>
#include <string>
#include <vector>

#include "bdem_test_scenes.h"
#include "core/rng.h"
#include "geometry/packing.h"
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

TEST_CASE("flaw cells (weibull_cell): the bonds in one cube share their draw, and the cubes' draws follow the same "
          "Weibull law") {
  // One draw per cube of the material's flaw size instead of one per bond (core/rng.h strengthDrawIndex): a finer
  // lattice then has the same flaws, more bonds in each. bdem's two draws (tensile, shear) and pd-bond's one.
  const float m = 5.0f, cell = 0.003f;
  MaterialDesc mat = test::testMaterial();
  mat.weibullM = m;
  mat.weibullCell = cell;
  const auto cubeOf = [cell](const vec3& p) {
    const auto at = [cell](float x) { return long(std::floor(double(x) / double(cell))); };
    return std::array<long, 3>{at(p.x), at(p.y), at(p.z)};
  };
  // Each cube's draw, checking that every bond in it has that one; then the cubes' draws against Weibull's moments.
  const auto perCube = [&](const std::vector<int>& first, const std::vector<int>& second,
                           const std::vector<vec3>& position, const std::vector<float>& scale) {
    std::map<std::array<long, 3>, float> draw;
    int mismatches = 0;
    for (size_t b = 0; b < scale.size(); ++b) {
      const auto [it, fresh] = draw.emplace(cubeOf(0.5f * (position[first[b]] + position[second[b]])), scale[b]);
      if (!fresh && it->second != scale[b]) ++mismatches;
    }
    CHECK(mismatches == 0);
    CHECK(draw.size() < scale.size() / 2);  // several bonds to a cube, so the draws are shared
    std::vector<float> draws;
    for (const auto& [cube, value] : draw) draws.push_back(value);
    checkWeibullMoments(draws, m);
  };
  BdemSolver bdem;
  bdem.load(test::blockScene(vec3(0.1f), 0.002f, mat), {});
  const BdemBondArrays& bonds = bdem.bonds();
  perCube(bonds.first, bonds.second, bdem.elements().position, bonds.tensileScale);
  perCube(bonds.first, bonds.second, bdem.elements().position, bonds.shearScale);
  SceneDesc scene = test::blockScene(vec3(0.1f), 0.002f, mat);
  scene.solver.method = "pd-bond";
  PeridynamicsSolver pd;
  pd.load(scene, {});
  perCube(pd.bonds().first, pd.bonds().second, pd.referencePositions(), pd.bonds().thresholdScale);
}

TEST_CASE("a beam's elements are listed in slabs across its length, and its bonds keep the Weibull draws of "
          "packShape's order") {
  // The solvers' threads take contiguous ranges of elements. In packShape's order (y layers slowest) the two halves of
  // a beam along x meet across a whole layer; in longAxisOrder's slabs across x, across the beam's section. The bonds'
  // draws stay numbered as packShape lists the elements (each element's partners of higher rank, in rank order), so
  // the calibrated strengths, fitted on lab beams like this one, do not move with the listing.
  MaterialDesc mat = test::testMaterial();
  mat.weibullM = 5.0f;
  const float r = 0.002f;
  const SceneDesc scene = test::blockScene(vec3(0.16f, 0.024f, 0.024f), r, mat);
  BdemSolver solver;
  solver.load(scene, {});
  const std::vector<vec3> packed = packShape(*makeShape(scene.bodies[0].shape, ""), r, Packing::Hcp);
  const std::vector<vec3>& position = solver.elements().position;
  REQUIRE(position.size() == packed.size());
  std::map<std::array<float, 3>, int> rankAt;  // the body sits at the origin unrotated: positions are packShape's
  for (size_t k = 0; k < packed.size(); ++k) rankAt[{packed[k].x, packed[k].y, packed[k].z}] = int(k);
  std::vector<int> rank;
  for (const vec3& p : position) {
    const auto it = rankAt.find({p.x, p.y, p.z});
    REQUIRE(it != rankAt.end());
    rank.push_back(it->second);
  }
  const BdemBondArrays& bonds = solver.bonds();
  std::vector<std::array<int, 3>> byRank;  // lower rank, higher rank, bond
  const int half = int(position.size()) / 2;
  int crossingListed = 0, crossingPacked = 0;
  for (int b = 0; b < int(bonds.size()); ++b) {
    const int i = bonds.first[b], j = bonds.second[b];
    byRank.push_back({std::min(rank[i], rank[j]), std::max(rank[i], rank[j]), b});
    crossingListed += (i < half) != (j < half);
    crossingPacked += (rank[i] < half) != (rank[j] < half);
  }
  std::sort(byRank.begin(), byRank.end());
  int mismatches = 0;
  for (size_t k = 0; k < byRank.size(); ++k) {
    const float drawn = weibullFactor(mat.weibullM, scene.seed, kStreamTensileStrength, k);
    mismatches += bonds.tensileScale[byRank[k][2]] != drawn;
  }
  CHECK(mismatches == 0);
  const std::string crossing = "bonds between the halves: " + std::to_string(crossingListed) + " listed in slabs, " +
                               std::to_string(crossingPacked) + " in packShape's order, of " +
                               std::to_string(bonds.size());
  MESSAGE(crossing);
  CHECK(crossingListed * 4 < crossingPacked);
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
