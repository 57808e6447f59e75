// Explicit BDEM on CUDA against the CPU path (the same step source, bdem_step.h): after 200 steps positions agree
// within 1e-4 of the scene size, the broken-bond sets are identical and energies agree within 1e-3 (issue 6).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <utility>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "gpu_compare.h"
#include "io/scene_loader.h"
#include "solvers/bdem/bdem_solver.h"
#include "solvers/simulation.h"

namespace {

using namespace frac;
using namespace frac::test;

// The wall of wall_impact.json with the ball starting against it at 20 m/s: bonds break within the 200 steps.
const std::vector<std::string> kWallHit = {"projectiles.0.position=[0.02,0.1,0.051]", "projectiles.0.velocity=[0,0,-20]"};

}  // namespace

TEST_CASE("BDEM on CUDA: a ball breaking a wall gives the CPU's positions, broken bonds and energies") {
  const RunResult cpu = runScene("wall_impact.json", kWallHit, "cpu", 200);
  const RunResult cuda = runScene("wall_impact.json", kWallHit, "cuda", 200);
  REQUIRE(cpu.stats.bondsBroken > 0);  // the case exercises breakage
  compareRuns(cpu, cuda);
}

TEST_CASE("BDEM on CUDA: kinematic supports and indenter (three-point bending) match the CPU") {
  const std::vector<std::string> fast = {"kinematics.2.velocity=[0,-5,0]"};  // the indenter presses within 400 steps
  const RunResult cpu = runScene("three_point_bending.json", fast, "cpu", 400);
  const RunResult cuda = runScene("three_point_bending.json", fast, "cuda", 400);
  REQUIRE(cpu.stats.kineticEnergy > 0.0);
  compareRuns(cpu, cuda);
}

TEST_CASE("BDEM on CUDA: live edits (material, thrown balls) and backend switches continue the same run") {
  auto edits = [](bool switchBackends) {
    return [switchBackends](Simulation& sim, int step) {
      if (step == 40) {
        MaterialDesc brick = sim.scene().materials[0];
        brick.young *= 2.0f;
        brick.tensileStrength *= 0.5f;
        sim.editableScene().materials[0] = brick;
        sim.solver().applyLiveSettings(sim.scene());
        sim.updateTimeStep();
      }
      if (step == 60) sim.solver().launchProjectile(vec3(-0.1f, 0.12f, 0.05f), vec3(0, 0, -15), 0.02f, 1);
      if (step == 80)
        sim.solver().launchBreakableProjectile(vec3(0.1f, 0.15f, 0.06f), vec3(0, -2, -12), 0.02f, 0.004f, 0);
      if (switchBackends && step == 100) sim.solver().setBackend(Backend::Cpu);
      if (switchBackends && step == 130) sim.solver().setBackend(Backend::Cuda);
      if (step % 50 == 0) (void)sim.stats();  // a host read in the middle of a device run
    };
  };
  const RunResult cpu = runScene("wall_impact.json", kWallHit, "cpu", 200, edits(false));
  SUBCASE("edits while on CUDA") { compareRuns(cpu, runScene("wall_impact.json", kWallHit, "cuda", 200, edits(false))); }
  SUBCASE("CUDA -> CPU at step 100 -> CUDA at step 130") {
    compareRuns(cpu, runScene("wall_impact.json", kWallHit, "cuda", 200, edits(true)));
  }
}

namespace {

// Steps a CPU and a CUDA simulation in lockstep and reports the first step where their states differ in any bit
// (element, quantity, both values): where the two backends part, if they do.
void reportFirstDifference(const std::string& scene, const std::vector<std::string>& overrides, int steps) {
  std::vector<std::string> cpuSet = overrides, cudaSet = overrides;
  cpuSet.push_back("solver.backend=cpu");
  cudaSet.push_back("solver.backend=cuda");
  const std::string path = std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/" + scene;
  Simulation cpu(loadScene(path, cpuSet), 0), cuda(loadScene(path, cudaSet), 0);
  auto& a = dynamic_cast<BdemSolver&>(cpu.solver());
  auto& b = dynamic_cast<BdemSolver&>(cuda.solver());
  for (int s = 1; s <= steps; ++s) {
    cpu.step();
    cuda.step();
    const BdemElementArrays& x = std::as_const(a).elements();
    const BdemElementArrays& y = std::as_const(b).elements();
    auto differs = [](const auto& u, const auto& v) { return std::memcmp(&u, &v, sizeof(u)) != 0; };
    for (int i = 0; i < x.size(); ++i) {
      const char* what = differs(x.force[i], y.force[i])         ? "force"
                         : differs(x.torque[i], y.torque[i])     ? "torque"
                         : differs(x.position[i], y.position[i]) ? "position"
                         : differs(x.orientation[i], y.orientation[i]) ? "orientation"
                         : differs(x.velocity[i], y.velocity[i]) ? "velocity"
                                                                 : nullptr;
      if (!what) continue;
      const vec3 fa = x.force[i], fb = y.force[i];
      MESSAGE(scene << ": first difference at step " << s << ", element " << i << " (flags " << int(x.flags[i])
                    << ", body " << x.body[i] << "): " << what << "; force CPU (" << fa.x << ", " << fa.y << ", "
                    << fa.z << ") CUDA (" << fb.x << ", " << fb.y << ", " << fb.z << ")");
      return;
    }
    const BdemBondArrays& bondsA = std::as_const(a).bonds();
    const BdemBondArrays& bondsB = std::as_const(b).bonds();
    for (size_t k = 0; k < bondsA.broken.size(); ++k)
      if (bondsA.broken[k] != bondsB.broken[k]) {
        MESSAGE(scene << ": first difference at step " << s << ": bond " << k << " broken CPU "
                      << int(bondsA.broken[k]) << " CUDA " << int(bondsB.broken[k]));
        return;
      }
  }
  MESSAGE(scene << ": CPU and CUDA bit-identical for " << steps << " steps");
}

}  // namespace

TEST_CASE("BDEM on CUDA: where CPU and CUDA part, step by step (diagnostic)") {
  reportFirstDifference("three_point_bending.json", {"kinematics.2.velocity=[0,-5,0]"}, 400);
  reportFirstDifference("wall_impact.json", kWallHit, 200);
}
