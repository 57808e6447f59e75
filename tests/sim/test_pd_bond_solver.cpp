// The pd-bond solver (Levine 2014 / PMB) against LAMMPS peri/pmb and against what a body at rest must do.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/fragments.h"
#include "io/scene_loader.h"
#include "solvers/simulation.h"
#include "lammps_dump.h"
#include "solvers/peridynamics/pd_solver.h"

using namespace frac;

namespace {

// LAMMPS' block of tests/data/lammps_pmb (11^3 sites of a 0.5 mm simple cubic lattice from the origin) with the
// constants of in.peri.pmb: c = 1.6863e22 from K and delta = 3.0002 x 0.5 mm = 0.0015001, volume 1.25e-10.
SceneDesc lammpsBlock(float scatter) {
  nlohmann::json doc = {
      {"name", "lammps_block"},
      {"solver", {{"method", "pd-bond"}, {"dt", 1e-7}, {"gravity", {0, 0, 0}}, {"horizon_factor", 3.0002},
                  {"pd_contact", "lammps"}, {"strengthening", "lammps"}, {"partial_volume", true},
                  {"surface_correction", false}}},
      {"materials", {{"glass", {{"density", 2200}, {"bulk_modulus", 14903664031.154118}, {"critical_stretch", 0.0005},
                                {"compression_alpha", 0.25}, {"stretch_scatter", scatter}}}}},
      {"bodies", {{{"shape", {{"type", "box"}, {"size", {0.0055, 0.0055, 0.0055}}}},
                   {"position", {0.0025, 0.0025, 0.0025}},
                   {"element_radius", 0.00025},
                   {"packing", "cubic"},
                   {"material", "glass"}}}}};
  return parseScene(doc, "lammps_block.json");
}

// LAMMPS' atoms in id order.
std::vector<test::DumpAtom> readDumpInIdOrder(const std::string& path, bool withForces) {
  std::vector<test::DumpAtom> atoms;
  for (const auto& entry : test::readLammpsDump(path, withForces)) atoms.push_back(entry.second);
  return atoms;
}

}  // namespace

TEST_CASE("pd-bond solver: forces for a prescribed displacement field agree with LAMMPS peri/pmb within 1e-3") {
  PeridynamicsSolver solver;
  solver.load(lammpsBlock(0.0f), SolverOptions{});
  const std::string dir = std::string(FRACTURE_SOURCE_DIR) + "/tests/data/lammps_pmb/";
  const std::vector<test::DumpAtom> reference = readDumpInIdOrder(dir + "reference.txt", false);
  const std::vector<test::DumpAtom> deformed = readDumpInIdOrder(dir + "deformed.txt", true);
  REQUIRE(solver.particleCount() == int(reference.size()));
  CHECK(solver.horizon() == RelApprox(0.0015001).epsilon(1e-6));
  // Match LAMMPS' atoms to our particles by their lattice site.
  const std::vector<vec3>& sites = solver.referencePositions();
  std::vector<int> atomOf(sites.size(), -1);
  for (size_t a = 0; a < reference.size(); ++a) {
    const glm::ivec3 key(std::lround(reference[a].x / 0.0005), std::lround(reference[a].y / 0.0005),
                         std::lround(reference[a].z / 0.0005));
    for (size_t i = 0; i < sites.size(); ++i)
      if (glm::ivec3(std::lround(sites[i].x / 0.0005f), std::lround(sites[i].y / 0.0005f),
                     std::lround(sites[i].z / 0.0005f)) == key)
        atomOf[i] = int(a);
  }
  for (size_t i = 0; i < sites.size(); ++i) {
    REQUIRE(atomOf[i] >= 0);
    const test::DumpAtom& r = reference[atomOf[i]];
    const test::DumpAtom& d = deformed[atomOf[i]];
    // our sites are LAMMPS' to float precision; the displacement is LAMMPS' deformed minus its reference position
    CHECK(glm::length(glm::dvec3(sites[i]) - glm::dvec3(r.x, r.y, r.z)) < 1e-9);
    solver.displacements()[i] = vec3(float(d.x - r.x), float(d.y - r.y), float(d.z - r.z));
  }
  solver.computeForces();
  double largest = 0.0, worst = 0.0;
  for (size_t i = 0; i < sites.size(); ++i) {
    const test::DumpAtom& d = deformed[atomOf[i]];
    const glm::dvec3 lammps(d.fx, d.fy, d.fz);
    largest = std::max(largest, glm::length(lammps));
    worst = std::max(worst, glm::length(glm::dvec3(solver.forceDensities()[i]) - lammps));
  }
  MESSAGE(solver.bonds().size() << " bonds; largest LAMMPS force density " << largest << " N/m^3, largest difference "
                                << worst << " (" << worst / largest << " of it)");
  CHECK(solver.bonds().size() * 2 == 116294);  // LAMMPS' bond ends for this block (the kernel test counts them)
  CHECK(worst <= 1e-3 * largest);
}

TEST_CASE("pd-bond solver: a body at rest breaks no bond in step 1 (nor in 200 steps) and stays at rest") {
  PeridynamicsSolver solver;
  solver.load(lammpsBlock(0.02f), SolverOptions{});  // Levine's 2% threshold scatter
  solver.step(1e-7);
  CHECK(solver.stats().bondsBroken == 0);
  for (int s = 0; s < 199; ++s) solver.step(1e-7);
  const SimStats stats = solver.stats();
  CHECK(stats.bondsBroken == 0);
  float largest = 0.0f;
  for (int i = 0; i < solver.particleCount(); ++i)
    largest = std::max(largest, glm::length(solver.referencePositions()[i] + solver.displacements()[i] -
                                            solver.referencePositions()[i]));
  CHECK(largest == 0.0f);  // zero stretch gives exactly zero force: nothing moves
  CHECK(stats.kineticEnergy == 0.0);
}

TEST_CASE("pd-bond: LAMMPS' own example in.peri.pmb (lammps_peri_pmb scene): mean damage follows LAMMPS") {
  // LAMMPS' mean damage/atom every 250 steps (scripts/make_lammps_pmb_reference runs the example itself).
  std::ifstream in(std::string(FRACTURE_SOURCE_DIR) + "/tests/data/lammps_pmb/peri_pmb_damage.txt");
  REQUIRE(in);
  std::map<int, double> lammps;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream row(line);
    int step;
    double damage;
    row >> step >> damage;
    lammps[step] = damage;
  }
  REQUIRE(lammps.count(1000) == 1);
  Simulation sim(loadScene(std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/lammps_peri_pmb.json",
                           {"solver.backend=cpu"}),
                 0);
  REQUIRE(sim.stats().elements == 3487);  // LAMMPS creates 3487 atoms
  for (int step = 1; step <= 1000; ++step) {
    sim.step();
    if (step % 250 != 0) continue;
    const std::vector<float> damage = sim.solver().damage();
    double mean = 0.0;
    for (float d : damage) mean += d;
    mean /= double(damage.size());
    MESSAGE("step " << step << ": mean damage " << mean << ", LAMMPS " << lammps[step]);
    // Within 1% while the first cracks form (steps 250, 500), 5% once fragmentation (chaotic: the last bits of
    // float summation order decide which of two near-critical bonds goes first) has run for a while.
    CHECK(mean == RelApprox(lammps[step]).epsilon(step <= 500 ? 0.01 : 0.05));
  }
}

TEST_CASE("pd-bond: CUDA's family pass gives the CPU bond pass's bits, and both ends agree on every bond") {
  // The device computes each bond at both of its ends in one pass over the families (pd_bond_step.h familyBondPass);
  // the CPU computes it once and gathers. Run on the CPU both must give the same state, bit for bit, while LAMMPS'
  // example fragments (400 steps break several thousand bonds), and the two ends must agree on every bond, or the
  // body would heal on one side.
  // Also with the surface correction (off in LAMMPS' scene), whose per-bond beta the family pass streams (familyBeta).
  for (const std::string correction : {"false", "true"}) {
    CAPTURE(correction);
    const std::string scene = std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/lammps_peri_pmb.json";
    const std::vector<std::string> over = {"solver.backend=cpu", "solver.threads=2",
                                           "solver.surface_correction=" + correction};
    Simulation bondPass(loadScene(scene, over), 0);
    Simulation familyPass(loadScene(scene, over), 0);
    auto& solver = dynamic_cast<PeridynamicsSolver&>(familyPass.solver());
    solver.setFamilyPass(true);
    long long broken = 0, disagreeing = 0, stretchWrong = 0;
    for (int step = 1; step <= 400; ++step) {
      bondPass.step();
      familyPass.step();
      if (step % 100 != 0) continue;
      CHECK(familyPass.solver().stateDigest() == bondPass.solver().stateDigest());
      const PdBondArrays& bonds = solver.bonds();
      CHECK(bonds.familyBeta.empty() == (correction == "false"));
      const PdBondArrays& reference = dynamic_cast<PeridynamicsSolver&>(bondPass.solver()).bonds();
      const std::vector<vec3>& u = solver.displacements();
      const std::vector<vec3>& x = solver.referencePositions();
      broken = 0;
      for (long long b = 0; b < bonds.size(); ++b) {
        const uint8_t first = bonds.endBroken[bonds.slotOfFirst[b]], second = bonds.endBroken[bonds.slotOfSecond[b]];
        disagreeing += first != second || first != bonds.broken[b];
        broken += bonds.broken[b] != 0;
        // An intact bond's stretch as read (frames, energy): the bond pass's, and eq. 2 in double within 1e-4.
        if (bonds.broken[b]) continue;
        const int i = bonds.first[b], j = bonds.second[b];
        const glm::dvec3 y = glm::dvec3(x[j] + u[j]) - glm::dvec3(x[i] + u[i]);
        const double s = (glm::length(y) - bonds.xiLength[b]) / bonds.xiLength[b];
        stretchWrong +=
            bonds.stretch[b] != reference.stretch[b] || std::abs(bonds.stretch[b] - s) > 1e-6 + 1e-4 * std::abs(s);
      }
    }
    MESSAGE(broken << " bonds broken after 400 steps");
    CHECK(broken > 1000);
    CHECK(disagreeing == 0);
    CHECK(stretchWrong == 0);
  }
}

TEST_CASE("peridynamic statistics: counts equal a union-find over the bonds, energies serial double sums, any thread count") {
  // stats() sums where the state is (pd_stats.h: strided partial sums, parallel fragment keys), so that a device
  // sends back partial sums instead of its state. Checked against direct host computations on two fracturing runs.
  struct Case {
    const char* scene;
    int steps;
  };
  for (const Case c : {Case{"lammps_peri_pmb.json", 400}, Case{"pd_sheet_tear.json", 300}}) {
    const std::string scene = c.scene;
    CAPTURE(scene);
    Simulation sim(loadScene(std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/" + scene,
                             {"solver.backend=cpu", "solver.threads=2"}),
                   0);
    for (int s = 0; s < c.steps; ++s) sim.step();
    auto& solver = dynamic_cast<PeridynamicsSolver&>(sim.solver());
    const SimStats stats = solver.stats();
    const PdBondArrays& bonds = solver.bonds();
    const std::vector<vec3>& velocity = solver.velocities();
    long long broken = 0;
    for (uint8_t b : bonds.broken) broken += b != 0;
    const std::vector<uint8_t> everyone(size_t(solver.particleCount()), 1);
    const int pieces = labelFragments(solver.particleCount(), everyone, bonds.first.data(), bonds.second.data(),
                                      bonds.broken.data(), bonds.size())
                           .count;
    MESSAGE(broken << " bonds broken, " << pieces << " pieces");
    CHECK(broken > 1000);
    CHECK(stats.bondsBroken == broken);
    CHECK(stats.fragments == pieces);
    if (scene == "lammps_peri_pmb.json") CHECK(pieces > 1);  // the indenter has shattered the cylinder
    double kinetic = 0.0;
    const float density = sim.scene().materials.front().density;
    for (int i = 0; i < solver.particleCount(); ++i)
      kinetic += 0.5 * double(density) * solver.volumes()[i] * glm::dot(velocity[i], velocity[i]);
    CHECK(stats.kineticEnergy == RelApprox(kinetic).epsilon(1e-12));
    if (scene == "lammps_peri_pmb.json") {  // the PMB micropotential, bond by bond
      const double c0 =
          18.0 * sim.scene().materials.front().bulkModulus / (M_PI * std::pow(double(solver.horizon()), 4));
      double elastic = 0.0;
      for (long long b = 0; b < bonds.size(); ++b) {
        if (bonds.broken[b]) continue;
        const double s = bonds.stretch[b];
        elastic += 0.5 * c0 * s * s * bonds.xiLength[b] * bonds.beta[b] * solver.volumes()[bonds.first[b]] *
                   solver.volumes()[bonds.second[b]];
      }
      CHECK(stats.elasticEnergy == RelApprox(elastic).epsilon(1e-6));  // c in float in the solver
    }
    solver.setThreads(1);
    const SimStats oneThread = solver.stats();
    CHECK(oneThread.kineticEnergy == stats.kineticEnergy);
    CHECK(oneThread.elasticEnergy == stats.elasticEnergy);
    CHECK(oneThread.fragments == stats.fragments);
  }
}
