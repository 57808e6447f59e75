// Explicit BDEM solver behaviour: rest state, energy of conservative cases, determinism across thread counts.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <cmath>
#include <cstring>

#include "analysis/fragments.h"
#include "bdem_test_scenes.h"
#include "io/scene_loader.h"
#include "kernels/bdem_bond.h"
#include "solvers/simulation.h"
#include "core/rng.h"
#include "solvers/bdem/bdem_solver.h"

using namespace frac;

TEST_CASE("a body at rest without gravity stays at rest and unbroken for 10000 steps") {
  SceneDesc scene = test::blockScene(vec3(0.08f, 0.05f, 0.05f), 0.004f, test::testMaterial());
  BdemSolver solver;
  solver.load(scene, {});
  const std::vector<vec3> start = solver.elements().position;
  REQUIRE(solver.bonds().size() > 1000);
  for (int s = 0; s < 10000; ++s) solver.step(0.5 * solver.stableDt());
  const SimStats st = solver.stats();
  CHECK(st.bondsBroken == 0);
  float maxMove = 0.0f;
  for (size_t i = 0; i < start.size(); ++i) maxMove = std::max(maxMove, glm::length(solver.elements().position[i] - start[i]));
  CHECK(maxMove < 1e-7f);
  CHECK(st.kineticEnergy < 1e-12);
}

namespace {

// An undamped chain along x whose elements move only along x: only the stretch spring (eq. 4) works, which has the
// potential k_n (l - l0)^2 / 2, so kinetic + stretch energy is conserved up to the Verlet error O(dt^2). Speeds of
// 2 m/s keep the stretch (~0.5 mm) far above the float resolution of the positions.
double chainEnergyError(double dt, double duration) {
  MaterialDesc m = test::testMaterial();
  BdemSolver solver;
  solver.initEmpty({m}, vec3(0.0f), false);
  const float r = 0.01f;
  const int n = 12;
  for (int i = 0; i < n; ++i) solver.addElement(vec3(2 * r * (i - n / 2), 0, 0), r, 0);  // centred: finer floats
  for (int i = 0; i + 1 < n; ++i) solver.addBond(i, i + 1, 0);
  solver.finalizeBonds();
  for (int i = 0; i < n; ++i) solver.elements().velocity[i] = vec3(2.0f * std::sin(0.9f * i), 0, 0);
  solver.prepare();
  const double e0 = solver.stats().kineticEnergy + solver.stats().elasticEnergy;
  double worst = 0.0;
  const int steps = int(std::lround(duration / dt));
  for (int s = 0; s < steps; ++s) {
    solver.step(dt);
    const SimStats st = solver.stats();
    worst = std::max(worst, std::abs(st.kineticEnergy + st.elasticEnergy - e0) / e0);
  }
  return worst;
}

}  // namespace

TEST_CASE("undamped chain: energy error shrinks about 4x when dt halves (velocity Verlet is second order)") {
  const float r = 0.01f;
  const double mass = 2500.0 * 4.0 / 3.0 * M_PI * r * r * r;
  const double kn = 0.5 * M_PI * 1e7 * r;
  const double period = 2 * M_PI * std::sqrt(mass / kn);
  const double dt = 0.02 * period;
  const double coarse = chainEnergyError(dt, 4 * period);
  const double fine = chainEnergyError(dt / 2, 4 * period);
  MESSAGE("relative energy error " << coarse << " at dt, " << fine << " at dt/2");
  CHECK(coarse < 5e-3);
  CHECK(coarse / fine == RelApprox(4.0).epsilon(0.2));  // 3.2 .. 4.8
}

TEST_CASE("undamped free block with random velocities stays bounded at the auto time step") {
  // Lu's shear, bend and twist loads have no potential; the tracked energy is kinetic + bondEnergy (exact stretch,
  // twist and bend, quadratic estimate for shear). It must neither grow nor produce NaN over 10000 steps.
  MaterialDesc m = test::testMaterial();
  m.tensileStrength = m.shearStrength = 3e38f;
  SceneDesc scene = test::blockScene(vec3(0.05f, 0.03f, 0.03f), 0.004f, m);
  BdemSolver solver;
  solver.load(scene, {});
  auto& v = solver.elements().velocity;
  for (size_t i = 0; i < v.size(); ++i)
    for (int c = 0; c < 3; ++c) v[i][c] = float(0.02 * (uniform01(7, kStreamInitialVelocity, 3 * i + c) - 0.5));
  const double e0 = solver.stats().kineticEnergy + solver.stats().elasticEnergy;
  double worst = 0.0;
  const double dt = 0.5 * solver.stableDt();
  for (int s = 1; s <= 10000; ++s) {
    solver.step(dt);
    if (s % 100 == 0) {
      const SimStats st = solver.stats();
      const double e = st.kineticEnergy + st.elasticEnergy;
      REQUIRE(std::isfinite(e));
      worst = std::max(worst, e / e0);
    }
  }
  MESSAGE("largest energy / initial energy: " << worst);
  CHECK(worst < 1.2);
}

namespace {

SceneDesc impactScene(int threads) { return test::plateImpactScene(threads, 0.045f, 0.05f); }

}  // namespace

TEST_CASE("the same impact with 1 and 2 threads gives bit-identical states") {
  BdemSolver one, two;
  one.load(impactScene(1), {1});
  two.load(impactScene(2), {2});
  const double dt = 0.5 * one.stableDt();
  for (int s = 0; s < 400; ++s) {
    one.step(dt);
    two.step(dt);
  }
  const SimStats st = one.stats();
  MESSAGE(st.bondsBroken << " bonds broken of " << st.bonds);
  CHECK(st.bondsBroken > 0);  // the case exercises fracture and contact
  const auto& a = one.elements();
  const auto& b = two.elements();
  CHECK(std::memcmp(a.position.data(), b.position.data(), a.position.size() * sizeof(vec3)) == 0);
  CHECK(std::memcmp(a.orientation.data(), b.orientation.data(), a.orientation.size() * sizeof(quat)) == 0);
  CHECK(std::memcmp(a.velocity.data(), b.velocity.data(), a.velocity.size() * sizeof(vec3)) == 0);
  CHECK(one.bonds().broken == two.bonds().broken);
}

namespace {

constexpr float kPairRadius = 0.01f;

// Two elements of radius kPairRadius on the x axis joined by one bond, gravity and contact off.
void buildBondedPair(BdemSolver& solver, const MaterialDesc& m) {
  solver.initEmpty({m}, vec3(0.0f), false);
  solver.addElement(vec3(0.0f), kPairRadius, 0);
  solver.addElement(vec3(2 * kPairRadius, 0, 0), kPairRadius, 0);
  solver.addBond(0, 1, 0);
  solver.finalizeBonds();
  solver.prepare();
}

}  // namespace

TEST_CASE("stress ratios of a stretched bar: sigma / sigma_c = E strain / sigma_c on the axial bonds") {
  MaterialDesc m = test::testMaterial();
  m.tensileStrength = m.shearStrength = 1e6f;
  BdemSolver solver;
  buildBondedPair(solver, m);
  const float strain = 0.01f;
  solver.elements().position[1].x += 2 * kPairRadius * strain;
  CHECK(solver.stressRatios()[0] == RelApprox(1e7 * strain / 1e6).epsilon(1e-3));  // sigma = k_n dl / S = E strain
}

TEST_CASE("a live edit of Young's modulus changes the bond stiffness and the stable time step (eq. 3, 28)") {
  MaterialDesc m = test::testMaterial();
  BdemSolver solver;
  buildBondedPair(solver, m);
  solver.elements().position[1].x += 2e-4f;
  solver.step(1e-9);
  const float before = solver.bonds().forceOnJ[0].x;
  const double dtBefore = solver.stableDt();
  m.young *= 4.0f;
  solver.setMaterial(0, m);
  solver.step(1e-9);
  CHECK(solver.bonds().forceOnJ[0].x == RelApprox(4.0 * before).epsilon(1e-3));
  CHECK(solver.stableDt() == RelApprox(dtBefore / 2.0).epsilon(1e-6));  // T ~ 1 / sqrt(E)
}

TEST_CASE("BDEM statistics: counts equal a union-find over the bonds, energies serial double sums, any thread count") {
  // stats() sums where the state is (bdem_stats.h: strided partial sums, parallel fragment keys), so that a device
  // sends back partial sums instead of its state. A ball through the wall of wall_impact breaks it into pieces.
  Simulation sim(loadScene(std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/wall_impact.json",
                           {"solver.backend=cpu", "solver.threads=2", "projectiles.0.position=[0.02,0.1,0.051]",
                            "projectiles.0.velocity=[0,0,-20]"}),
                 0);
  for (int s = 0; s < 300; ++s) sim.step();
  auto& solver = dynamic_cast<BdemSolver&>(sim.solver());
  const SimStats stats = solver.stats();
  const BdemElementArrays& e = solver.elements();
  const BdemBondArrays& bonds = solver.bonds();
  long long broken = 0;
  double bondsElastic = 0.0;
  for (long long b = 0; b < bonds.size(); ++b) {
    broken += bonds.broken[b] != 0;
    if (bonds.broken[b]) continue;
    const int i = bonds.first[b], j = bonds.second[b];
    const BondDeformation d =
        bondDeformation(separation(e, i, j), e.orientation[i], e.orientation[j], bonds.rest[b].d0);
    bondsElastic += bondEnergy(d, bonds.rest[b], bonds.coefficients[b].stiffness);
  }
  std::vector<uint8_t> member(size_t(e.size()), 0);
  double kinetic = 0.0;
  for (int i = 0; i < e.size(); ++i) {
    member[i] = e.body[i] >= 0 && !(e.flags[i] & kFlagKinematic);
    if (e.invMass[i] > 0.0f && !(e.flags[i] & kFlagInactive))
      kinetic += 0.5 / e.invMass[i] * glm::dot(e.velocity[i], e.velocity[i]) +
                 0.5 / e.invInertia[i] * glm::dot(e.angularVelocity[i], e.angularVelocity[i]);
  }
  const int pieces =
      labelFragments(e.size(), member, bonds.first.data(), bonds.second.data(), bonds.broken.data(), bonds.size())
          .count;
  MESSAGE(broken << " bonds broken, " << pieces << " pieces");
  CHECK(broken > 100);
  CHECK(pieces > 1);
  CHECK(stats.bondsBroken == broken);
  CHECK(stats.fragments == pieces);
  CHECK(stats.kineticEnergy == RelApprox(kinetic).epsilon(1e-6));
  double contacts = 0.0;
  for (float c : solver.contactEnergies()) contacts += c;
  CHECK(stats.elasticEnergy == RelApprox(bondsElastic + contacts).epsilon(1e-9));
  solver.setThreads(1);
  const SimStats oneThread = solver.stats();
  CHECK(oneThread.kineticEnergy == stats.kineticEnergy);
  CHECK(oneThread.elasticEnergy == stats.elasticEnergy);
  CHECK(oneThread.fragments == stats.fragments);
}
