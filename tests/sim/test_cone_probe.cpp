// The cone probe (analysis/cone_probe.h) on damage of a known shape: every bond of the elements inside a cone of a
// given flank angle broken by hand in a bdem block, the probe must read that angle back, and the damage's depth.
#include <doctest/doctest.h>

#include <cmath>

#include "analysis/cone_probe.h"
#include "bdem_test_scenes.h"
#include "solvers/bdem/bdem_solver.h"

using namespace frac;

namespace {

struct BreakableBdem : BdemSolver {
  BdemBondArrays& editBonds() { return arrays_.edit().bonds; }
};

}  // namespace

TEST_CASE("cone probe: reads back the flank angle and the depth of a cone of broken elements (30, 60 degrees)") {
  const float r = 0.0025f;
  SceneDesc scene = test::blockScene(vec3(0.16f, 0.05f, 0.16f), r, test::testMaterial());
  scene.bodies[0].packing = Packing::SimpleCubic;
  ProbeDesc probe = defaultsOf<ProbeDesc>();
  probe.type = ProbeType::Cone;
  probe.apex = vec3(0.0f, 0.025f, 0.0f);  // the block's top face, centred
  probe.axis = vec3(0.0f, -1.0f, 0.0f);
  for (const double angle : {30.0, 60.0}) {
    CAPTURE(angle);
    BreakableBdem solver;
    solver.load(scene, SolverOptions{1});
    const double cotangent = 1.0 / std::tan(angle * M_PI / 180.0), deepest = 0.03;
    const auto inside = [&](const vec3& p) {  // the cone: radius 2 r at the surface, widening by cot(angle) a metre
      const double depth = 0.025 - p.y, radial = std::hypot(double(p.x), double(p.z));
      return depth >= 0.0 && depth <= deepest && radial <= 2.0 * r + cotangent * depth;
    };
    BdemBondArrays& bonds = solver.editBonds();
    const std::vector<vec3>& position = solver.elements().position;
    int brokenElements = 0;
    for (const vec3& p : position) brokenElements += inside(p);
    for (size_t b = 0; b < bonds.first.size(); ++b)
      if (inside(position[size_t(bonds.first[b])]) || inside(position[size_t(bonds.second[b])]))
        bonds.broken[b] = kBondBroken;
    const ConeProbe cone(probe, solver, "cone.json", 0);
    const ConeResult result = cone.result(solver);
    MESSAGE(angle << " deg: measured " << result.angleToSurface << " deg over " << result.fittedBins << " bins, "
                  << result.damagedElements << " damaged elements (" << brokenElements << " inside), depth "
                  << result.damageDepth << " m of " << result.bodyDepth << " m");
    // 3 degrees: the 90th-percentile edge of each one-diameter bin on a lattice of spacing 2 r
    CHECK(std::abs(result.angleToSurface - angle) < 3.0);
    CHECK(result.damagedElements >= brokenElements);  // the cone, and neighbours with half their bonds gone
    CHECK(std::abs(result.damageDepth - deepest) < 2.0 * r);
    CHECK(std::abs(result.bodyDepth - (0.05 - r)) < 0.5 * r);  // the deepest layer's centres
  }
}

TEST_CASE("cone probe: a zero axis is refused with the probe's key named") {
  SceneDesc scene = test::blockScene(vec3(0.02f, 0.02f, 0.02f), 0.0025f, test::testMaterial());
  BdemSolver solver;
  solver.load(scene, SolverOptions{1});
  ProbeDesc probe = defaultsOf<ProbeDesc>();
  probe.type = ProbeType::Cone;
  probe.axis = vec3(0.0f);
  try {
    ConeProbe cone(probe, solver, "cone.json", 2);
    FAIL("a zero axis was accepted");
  } catch (const std::exception& e) {
    const std::string what = e.what();
    CHECK(what.find("cone.json") != std::string::npos);
    CHECK(what.find("/probes/2/axis") != std::string::npos);
  }
}
