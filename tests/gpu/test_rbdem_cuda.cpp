// Rod-Bonded DEM on CUDA against the CPU path (the same stages, rbdem_step.h, instantiated in bdem_device.cu): the
// implicit step (its CG sums added in the same chunk order) and the explicit one give the CPU's positions, broken
// bonds and energies.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "gpu_compare.h"

namespace {

using namespace frac;
using namespace frac::test;

// wall_impact under rbdem, implicit at 5x BDEM's step, the ball starting against the wall at 20 m/s.
const std::vector<std::string> kRodWallHit = {"solver.method=rbdem", "solver.dt=2e-5",
                                             "projectiles.0.position=[0.02,0.1,0.051]",
                                             "projectiles.0.velocity=[0,0,-20]"};

}  // namespace

TEST_CASE("rbdem on CUDA: implicit steps of a ball breaking a wall give the CPU's state") {
  const RunResult cpu = runScene("wall_impact.json", kRodWallHit, "cpu", 60);
  const RunResult cuda = runScene("wall_impact.json", kRodWallHit, "cuda", 60);
  REQUIRE(cpu.stats.bondsBroken > 0);
  compareRuns(cpu, cuda);
}

TEST_CASE("rbdem on CUDA: explicit steps and the three-point-bending indenter give the CPU's state") {
  std::vector<std::string> over = {"solver.integration=explicit", "solver.dt=2e-6", "kinematics.2.velocity=[0,-5,0]"};
  const RunResult cpu = runScene("rbdem_three_point_bending.json", over, "cpu", 400);
  const RunResult cuda = runScene("rbdem_three_point_bending.json", over, "cuda", 400);
  compareRuns(cpu, cuda);
}
