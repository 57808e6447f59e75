// Peridynamics (pd-bond and pd-state) on CUDA against the CPU path (the same step source, pd_bond_step.h), with
// issue 6's bounds.
#include <doctest/doctest.h>

#include "gpu_compare.h"

using namespace frac;
using namespace frac::test;

TEST_CASE("pd-bond on CUDA: LAMMPS' indenter shattering the cylinder gives the CPU's positions, bonds and energies") {
  const RunResult cpu = runScene("lammps_peri_pmb.json", {}, "cpu", 300);
  const RunResult cuda = runScene("lammps_peri_pmb.json", {}, "cuda", 300);
  REQUIRE(cpu.stats.bondsBroken > 0);
  compareRuns(cpu, cuda);
}

TEST_CASE("pd-bond on CUDA: the vase on the floor (Levine contact, restitution, gravity) matches the CPU") {
  const std::vector<std::string> falling = {"bodies.0.velocity=[0,-8,0]"};
  const RunResult cpu = runScene("pd_vase_drop.json", falling, "cpu", 2500);
  const RunResult cuda = runScene("pd_vase_drop.json", falling, "cuda", 2500);
  compareRuns(cpu, cuda);
}

TEST_CASE("pd-bond on CUDA: live edits (material, thrown balls) and backend switches continue the same run") {
  auto edits = [](bool switchBackends) {
    return [switchBackends](Simulation& sim, int step) {
      if (step == 50) {
        MaterialDesc glass = sim.scene().materials[0];
        glass.criticalStretch *= 0.8f;
        sim.editableScene().materials[0] = glass;
        sim.solver().applyLiveSettings(sim.scene());
      }
      if (step == 80) sim.solver().launchProjectile(vec3(0.004f, -0.002f, 0.008f), vec3(0, 0, -150), 0.0015f, 1);
      if (step == 90)
        sim.solver().launchBreakableProjectile(vec3(-0.008f, -0.002f, 0.0f), vec3(120, 0, 0), 0.0015f, 0.00025f, 0);
      if (switchBackends && step == 120) sim.solver().setBackend(Backend::Cpu);
      if (switchBackends && step == 160) sim.solver().setBackend(Backend::Cuda);
      if (step % 70 == 0) (void)sim.stats();  // a host read in the middle of a device run
    };
  };
  const RunResult cpu = runScene("lammps_peri_pmb.json", {}, "cpu", 250, edits(false));
  SUBCASE("edits while on CUDA") { compareRuns(cpu, runScene("lammps_peri_pmb.json", {}, "cuda", 250, edits(false))); }
  SUBCASE("CUDA -> CPU at step 120 -> CUDA at step 160") {
    compareRuns(cpu, runScene("lammps_peri_pmb.json", {}, "cuda", 250, edits(true)));
  }
}

TEST_CASE("pd-state on CUDA: the torn sheet (grips, initial cracks, fracture) matches the CPU") {
  const RunResult cpu = runScene("pd_sheet_tear.json", {}, "cpu", 300);
  const RunResult cuda = runScene("pd_sheet_tear.json", {}, "cuda", 300);
  compareRuns(cpu, cuda);
}

TEST_CASE("pd-state on CUDA: the plastic wall hit by a dynamic ball (plasticity, damping) matches the CPU") {
  const RunResult cpu = runScene("pd_wall_plastic.json", {}, "cpu", 400);
  const RunResult cuda = runScene("pd_wall_plastic.json", {}, "cuda", 400);
  compareRuns(cpu, cuda);
}

TEST_CASE("pd-bond on CUDA: Levine's glass plate (eq. 7 projectile, Levine contact, 2% scatter) matches the CPU") {
  const RunResult cpu = runScene("pd_glass_plate.json", {}, "cpu", 600);
  const RunResult cuda = runScene("pd_glass_plate.json", {}, "cuda", 600);
  REQUIRE(cpu.stats.bondsBroken > 0);
  compareRuns(cpu, cuda);
}
