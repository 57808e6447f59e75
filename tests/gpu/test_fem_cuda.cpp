// fem-debris on CUDA against the CPU path (the same stages, fem_step.h, instantiated in fem_device.cu): the rubber
// vase's drop and bounce, a rigid ball thrown through a block, and the stone plate shattering into debris give the
// CPU's node positions and energies; so do a tetrahedral ball breaking a stone wall and a breakable throw.
#include <doctest/doctest.h>

#include "gpu_compare.h"

using namespace frac;
using namespace frac::test;

TEST_CASE("fem-debris on CUDA: the rubber vase's impact gives the CPU's state") {
  // The vase reaches the floor after about 900 steps and is squashed by 1500.
  const RunResult cpu = runScene("fem_rubber_vase_bounce.json", {}, "cpu", 1500);
  const RunResult cuda = runScene("fem_rubber_vase_bounce.json", {}, "cuda", 1500);
  compareRuns(cpu, cuda);
}

TEST_CASE("fem-debris on CUDA: a ball thrown into the vase in the middle of the run gives the CPU's state") {
  auto throwBall = [](Simulation& sim, int step) {
    if (step == 50) sim.solver().launchProjectile(vec3(0.08f, 0.06f, 0.0f), vec3(-20.0f, 0.0f, 0.0f), 0.02f, 0);
  };  // it reaches the vase about 100 steps later
  const RunResult cpu = runScene("fem_rubber_vase_bounce.json", {}, "cpu", 600, throwBall);
  const RunResult cuda = runScene("fem_rubber_vase_bounce.json", {}, "cuda", 600, throwBall);
  compareRuns(cpu, cuda);
}

TEST_CASE("fem-debris on CUDA: the stone plate's impact (plasticity, failure, debris particles) gives the CPU's state") {
  // The plate's edge reaches the floor after ~90 steps; by 1200 hundreds of tetrahedra have failed and their nodes
  // are debris particles under eq. 19 (the material, failure, debris and pair stages all run).
  const RunResult cpu = runScene("fem_stone_plate_drop.json", {}, "cpu", 1200);
  const RunResult cuda = runScene("fem_stone_plate_drop.json", {}, "cuda", 1200);
  compareRuns(cpu, cuda);
}

TEST_CASE("fem-debris on CUDA: a tetrahedral steel ball breaking a stone wall (contact between bodies) gives the CPU's state") {
  // The ball reaches the wall after ~1700 steps; by 2600 the contact between bodies, failure and debris all run.
  const RunResult cpu = runScene("fem_wall_throw.json", {}, "cpu", 2600);
  const RunResult cuda = runScene("fem_wall_throw.json", {}, "cuda", 2600);
  compareRuns(cpu, cuda);
}

TEST_CASE("fem-debris on CUDA: a breakable (tetrahedral) ball thrown mid-run gives the CPU's state") {
  auto throwBall = [](Simulation& sim, int step) {
    if (step != 50) return;
    sim.solver().launchBreakableProjectile(vec3(0.0515f, 0.06f, 0.0f), vec3(-20.0f, 0.0f, 0.0f), 0.02f, 0.005f, 0);
    sim.updateTimeStep();  // the ball's small tetrahedra need a 17x shorter step (the session does this after a throw)
  };
  const RunResult cpu = runScene("fem_rubber_vase_bounce.json", {}, "cpu", 600, throwBall);
  const RunResult cuda = runScene("fem_rubber_vase_bounce.json", {}, "cuda", 600, throwBall);
  compareRuns(cpu, cuda);
}
