// The family slots' layout (pd_arrays.h): on the CPU each particle's slots are one run of memory, on the device a
// warp's 32 families are interleaved entry by entry. The forces in the slots and the order each particle sums them are
// the same in both, so a run is bit-identical whatever the layout; and a checkpoint keeps its arrays in the layout it
// was written in, so a restore must lay them out again for where the passes run.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "io/checkpoint_file.h"
#include "io/scene_loader.h"
#include "solvers/peridynamics/pd_solver.h"
#include "solvers/simulation.h"

using namespace frac;

namespace {

PeridynamicsSolver& pdSolver(Simulation& sim) { return dynamic_cast<PeridynamicsSolver&>(sim.solver()); }

}  // namespace

TEST_CASE("pd-state and pd-bond: the family slots in the device's layout give the CPU's layout's bits, and a "
          "checkpoint written in the device's layout resumes in the CPU's with the same bits") {
  // pd_sheet_tear: Chen's sheet torn by two grips, its cracks growing from step 1000 or so (pd-state, its state
  // passes); lammps_peri_pmb: LAMMPS' example breaking thousands of bonds in 300 steps (pd-bond, the bond pass and
  // gather).
  const struct {
    const char* name;
    int steps;
  } cases[] = {{"pd_sheet_tear", 1200}, {"lammps_peri_pmb", 300}};
  for (const auto& c : cases) {
    const std::string name = c.name;
    CAPTURE(name);
    const std::string scene = std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/" + name + ".json";
    const std::vector<std::string> over = {"solver.backend=cpu", "solver.threads=2"};
    Simulation particleRuns(loadScene(scene, over), 0);
    Simulation warpRuns(loadScene(scene, over), 0);
    pdSolver(warpRuns).setSlotLayout(kDeviceSlotGroupShift);
    const PdBondArrays& cpu = pdSolver(particleRuns).bonds();
    const PdBondArrays& warp = pdSolver(warpRuns).bonds();
    REQUIRE(cpu.slotGroupShift == kCpuSlotGroupShift);
    REQUIRE(warp.slotGroupShift == kDeviceSlotGroupShift);
    // One slot per family entry on the CPU; the warp's blocks padded to their longest family.
    CHECK(cpu.slotCount() == 2 * cpu.size());
    CHECK(warp.slotCount() > cpu.slotCount());
    CHECK(cpu.slotOfFirst != warp.slotOfFirst);
    const long long brokenAtLoad = pdSolver(particleRuns).stats().bondsBroken;
    for (int step = 1; step <= c.steps; ++step) {
      particleRuns.step();
      warpRuns.step();
    }
    CHECK(warpRuns.solver().stateDigest() == particleRuns.solver().stateDigest());
    CHECK(pdSolver(particleRuns).stats().bondsBroken > brokenAtLoad);

    CheckpointWriter out;
    warpRuns.saveState(out);
    Simulation resumed(loadScene(scene, over), 0);
    resumed.restoreState(CheckpointReader(out.bytes(), name + ".ckpt"));
    CHECK(pdSolver(resumed).bonds().slotGroupShift == kCpuSlotGroupShift);
    CHECK(pdSolver(resumed).bonds().slotOfFirst == cpu.slotOfFirst);
    for (int step = 1; step <= 100; ++step) {
      particleRuns.step();
      resumed.step();
    }
    CHECK(resumed.solver().stateDigest() == particleRuns.solver().stateDigest());
  }
}
