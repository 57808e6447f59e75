// Rod-Bonded DEM solver (Zhang et al.): a cantilever's static deflection against beam theory, a body at rest, the
// implicit and explicit variants, determinism across thread counts, and the CPU's vector product against CUDA's form.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "bdem_test_scenes.h"
#include "solvers/rbdem/rbdem_solver.h"
#include "solvers/rbdem/rbdem_step.h"

using namespace frac;

namespace {

// A straight chain of n + 1 elements of radius r along x, element 0 clamped (kinematic, at rest), gravity -y: a
// cantilever rod made of n rod bonds of length 2r. Returns the solver after `steps` implicit steps of `dt`.
struct Cantilever {
  int n = 40;
  float r = 0.005f, young = 1e10f, shear = 4e9f, density = 2500.0f, g = 9.81f;
  RbdemSolver solver;
  void build(RodIntegration integration, float kappa, RodPreconditioner preconditioner = RodPreconditioner::Block) {
    MaterialDesc m = test::testMaterial("rod");
    m.young = young;
    m.shear = shear;
    m.density = density;
    m.tensileStrength = m.shearStrength = std::numeric_limits<float>::infinity();
    solver.initEmpty({m}, vec3(0, -g, 0), false);
    for (int k = 0; k <= n; ++k) solver.addElement(vec3(2.0f * r * k, 0, 0), r, 0);
    for (int k = 0; k < n; ++k) solver.addBond(k, k + 1, 0);
    solver.finalizeBonds();
    solver.addKinematicBody("clamp", {0}, vec3(0.0f), vec3(0.0f), vec3(0.0f));
    solver.prepare();
    RbdemStepParams p;
    p.kappa = kappa;
    p.tolerance = 1e-6f;
    p.maxIterations = 2000;
    p.preconditioner = preconditioner;
    solver.prepareRods(p, integration);
  }
  // Timoshenko beam with point loads P = m g at x_k = 2 r k (k = 1..n): bending sum_k P x_k^2 (3L - x_k) / (6 E I)
  // plus shear sum_k P x_k / (kappa G S).
  double expectedTip(float kappa) const {
    const double l = 2.0 * r, length = n * l, mass = density * 4.0 / 3.0 * M_PI * r * r * r, load = mass * g;
    const double inertia = M_PI * std::pow(r, 4) / 4, area = M_PI * r * r;
    double bending = 0.0, shearPart = 0.0;
    for (int k = 1; k <= n; ++k) {
      const double x = k * l;
      bending += load * x * x * (3 * length - x) / (6 * young * inertia);
      shearPart += load * x / (kappa * shear * area);
    }
    return bending + shearPart;
  }
  double tip() const { return -solver.elements().position[n].y; }
};

}  // namespace

TEST_CASE("rbdem cantilever under its own weight: static tip deflection within 5% of Timoshenko beam theory") {
  // every preconditioner (the element blocks, Zhang's Jacobi, the blocks with the aggregates' coarse solve) and both
  // kappas
  for (int run = 0; run < 4; ++run) {
    const float kappa = run == 1 ? 1.0f : 5.0f / 6.0f;
    const RodPreconditioner kind = run == 2   ? RodPreconditioner::Jacobi
                                   : run == 3 ? RodPreconditioner::TwoLevel
                                              : RodPreconditioner::Block;
    const char* name = run == 2 ? "jacobi" : run == 3 ? "two_level" : "block";
    Cantilever c;
    c.build(RodIntegration::Implicit, kappa, kind);
    const double dt = 1e-3;  // ~100x the explicit step of this rod (Lu eq. 28)
    CHECK(dt > 50 * c.solver.stableDt() / c.solver.implicitStep());
    for (int s = 0; s < 1500; ++s) c.solver.step(dt);
    const double expected = c.expectedTip(kappa);
    MESSAGE(std::string(name) << ", kappa " << kappa << ": tip " << c.tip() << " m, beam theory " << expected << " m, CG iterations "
                     << c.solver.lastIterations());
    CHECK(expected / (2.0 * c.r * c.n) < 0.01);  // small deflection: linear theory applies
    CHECK(c.tip() == RelApprox(expected).epsilon(0.05));
    CHECK(std::abs(c.solver.elements().velocity[c.n].y) < 1e-3 * expected);  // settled
  }
}

TEST_CASE("rbdem two_level with no element in an aggregate (every bonded element held) steps as the blocks alone") {
  // a bonded pair held by a kinematic body and a free ball falling beside it: no coarse space, the same bits as block
  std::vector<vec3> fallen;
  for (const RodPreconditioner kind : {RodPreconditioner::Block, RodPreconditioner::TwoLevel}) {
    MaterialDesc m = test::testMaterial("rod");
    RbdemSolver solver;
    solver.initEmpty({m}, vec3(0, -9.81f, 0), false);
    solver.addElement(vec3(0.0f), 0.005f, 0);
    solver.addElement(vec3(0.01f, 0.0f, 0.0f), 0.005f, 0);
    solver.addElement(vec3(0.1f, 0.0f, 0.0f), 0.005f, 0);
    solver.addBond(0, 1, 0);
    solver.finalizeBonds();
    solver.addKinematicBody("clamp", {0, 1}, vec3(0.0f), vec3(0.0f), vec3(0.0f));
    solver.prepare();
    RbdemStepParams p;
    p.preconditioner = kind;
    solver.prepareRods(p, RodIntegration::Implicit);
    for (int s = 0; s < 20; ++s) solver.step(1e-3);
    fallen.push_back(solver.elements().position[2]);
  }
  CHECK(fallen[0].y == RelApprox(-0.5 * 9.81 * 0.02 * 0.021).epsilon(0.01));  // implicit Euler: g h^2 n (n + 1) / 2
  CHECK(std::memcmp(&fallen[0], &fallen[1], sizeof(vec3)) == 0);
}

TEST_CASE("rbdem explicit (Ours_exp) cantilever swings about the same static deflection") {
  Cantilever c;
  c.n = 20;
  c.young = 1e9f;
  c.shear = 4e8f;
  c.build(RodIntegration::Explicit, 5.0f / 6.0f);
  const double dt = 0.5 * c.solver.stableDt();
  // time-average the tip over whole swings: undamped, it oscillates about the static deflection
  const int steps = int(0.3 / dt);
  double sum = 0.0;
  for (int s = 0; s < steps; ++s) {
    c.solver.step(dt);
    sum += c.tip();
  }
  const double expected = c.expectedTip(5.0f / 6.0f);
  MESSAGE("explicit: mean tip " << sum / steps << " m, beam theory " << expected << " m (" << steps << " steps)");
  CHECK(sum / steps == RelApprox(expected).epsilon(0.1));
}

TEST_CASE("rbdem: a free block at rest stays at rest (implicit), lattice and random packing") {
  for (int run = 0; run < 3; ++run) {
    const Packing packing = run == 1 ? Packing::Random : Packing::Hcp;
    SceneDesc s = test::blockScene(vec3(0.06f, 0.03f, 0.03f), 0.003f, test::testMaterial());
    s.solver.method = "rbdem";
    s.solver.pcgPreconditioner = run == 2 ? RodPreconditioner::TwoLevel : RodPreconditioner::Block;
    s.bodies[0].packing = packing;
    RbdemSolver solver;
    solver.load(s, {});
    const std::vector<vec3> start = solver.elements().position;
    for (int k = 0; k < 50; ++k) solver.step(1e-3);
    float moved = 0.0f, speed = 0.0f, spin = 0.0f;
    const auto& e = solver.elements();
    for (int i = 0; i < e.size(); ++i) {
      moved = std::max(moved, glm::length(e.position[i] - start[i]));
      speed = std::max(speed, glm::length(e.velocity[i]));
      spin = std::max(spin, glm::length(e.angularVelocity[i]));
    }
    MESSAGE(std::string(packing == Packing::Random ? "random: " : run == 2 ? "hcp, two_level: " : "hcp: ")
            << e.size() << " elements, " << solver.bonds().size() << " bonds: largest move " << moved
            << " m, speed " << speed << " m/s, spin " << spin << " rad/s");
    // A random packing's overlapping pairs are all bonded at their measured length: no contact pre-stress.
    CHECK(moved < 1e-7f);  // float rounding of positions about 0.03 m is 2e-9
    CHECK(speed < 1e-5f);
    CHECK(spin < 1e-3f);
    CHECK(solver.stats().bondsBroken == 0);
  }
}

// Eq. 32 on a block stretched (or squeezed) isotropically by strain eps: an interior HCP element's 12 rods each carry
// E S eps along their axis (S = pi r^2, length 2r), so its hydrostatic stress (1 / 4V) tr sum (x F + F x) / 3 is
// 12 * 2r * E pi r^2 eps / (6 * 4/3 pi r^3) = 3 E eps: tension positive. One implicit step of 1e-12 s (the state does
// not move) checks the threshold at 0.97 and 1.03 of it: the interior elements' rods break below and none above,
// and none at all when the block is squeezed.
TEST_CASE("rbdem eq. 32: an isotropically stretched block's interior hydrostatic stress is 3 E eps, tension positive") {
  const float eps = 1e-4f;
  MaterialDesc m = test::testMaterial();
  m.young = 1e9f;
  m.shear = 4e8f;
  m.tensileStrength = std::numeric_limits<float>::infinity();
  m.shearStrength = std::numeric_limits<float>::infinity();
  const double expected = 3.0 * double(m.young) * eps;
  auto broken = [&](float strain, double threshold) {
    SceneDesc s = test::blockScene(vec3(0.042f), 0.003f, m);
    s.solver.method = "rbdem";
    s.solver.rodFracture = RodFracture::Hydrostatic;
    s.solver.hydrostaticStrength = float(threshold);
    RbdemSolver solver;
    solver.load(s, {1});
    BdemElementArrays& e = solver.elements();
    for (vec3& x : e.position) x *= 1.0f + strain;  // the block is centred on the origin
    solver.step(1e-12);
    return solver.stats().bondsBroken;
  };
  const long long below = broken(eps, 0.97 * expected), above = broken(eps, 1.03 * expected);
  MESSAGE("3 E eps = " << expected << " Pa: " << below << " rods broken at 0.97 of it, " << above << " at 1.03");
  CHECK(below >= 12);
  CHECK(above == 0);
  CHECK(broken(-eps, 0.97 * expected) == 0);  // squeezed: compression never breaks
}

namespace {

SceneDesc rbdemImpact(int threads, RodPreconditioner preconditioner = RodPreconditioner::Block) {
  SceneDesc s = test::plateImpactScene(threads, 0.04f, 0.0f);
  s.solver.method = "rbdem";
  s.solver.pcgPreconditioner = preconditioner;
  s.solver.implicitStep = 10.0f;  // the step these cases were written for (stableDt() x 0.5: 5 explicit steps)
  return s;
}

}  // namespace

TEST_CASE("rbdem: the same impact with 1 and 2 threads gives bit-identical states") {
  for (const RodPreconditioner kind : {RodPreconditioner::Block, RodPreconditioner::TwoLevel}) {
  CAPTURE(int(kind));
  RbdemSolver one, two;
  one.load(rbdemImpact(1, kind), {1});
  two.load(rbdemImpact(2, kind), {2});
  const double dt = one.stableDt() * 0.5;
  for (int s = 0; s < 60; ++s) {
    one.step(dt);
    two.step(dt);
  }
  const SimStats st = one.stats();
  MESSAGE(st.bondsBroken << " bonds broken of " << st.bonds << ", CG iterations of the last step "
                         << one.lastIterations());
  CHECK(st.bondsBroken > 0);  // the case exercises fracture and contact
  const auto& a = one.elements();
  const auto& b = two.elements();
  CHECK(std::memcmp(a.position.data(), b.position.data(), a.position.size() * sizeof(vec3)) == 0);
  CHECK(std::memcmp(a.orientation.data(), b.orientation.data(), a.orientation.size() * sizeof(quat)) == 0);
  CHECK(one.bonds().broken == two.bonds().broken);
  }
}

namespace {

// The solver's arrays, for driving one stage by hand.
struct OpenRbdemSolver : RbdemSolver {
  BdemArrays& arrays() { return arrays_.edit(); }
};
// A CPU exec that is not CpuExec: rbdem::rodProducts takes its one-bond-per-index form, the one CUDA runs.
struct OneBondPerIndex : CpuExec {};

}  // namespace

TEST_CASE("rbdem: the CG's bond products 8 bonds a vector (CPU) equal the one-bond float form (CUDA's) bit for bit") {
  OpenRbdemSolver solver;
  solver.load(rbdemImpact(1), {1});
  const double dt = solver.stableDt() * 0.5;
  for (int s = 0; s < 60; ++s) solver.step(dt);  // some bonds broken: their lanes are computed and left unwritten
  BdemArrays& a = solver.arrays();
  const BdemViews v = hostViews(a);
  const int bonds = v.bonds.count, n = v.elements.count;
  for (int i = 0; i < n; ++i) {  // a direction with every component non-zero
    const float s = float(i % 97) / 97.0f - 0.5f;
    v.solve.directionX[i] = vec3(s, 0.3f - s, 0.1f + 0.5f * s);
    v.solve.directionQ[i] = glm::vec4(0.2f * s, -0.7f + s, 0.4f, s * s - 0.1f);
  }
  v.solve.cg[0].running = 1;
  CpuExec threads;
  threads.threads = 2;
  threads.minParallel = 1;
  rbdem::rodProducts(threads, v, v.solve.cg);
  const std::vector<RodDofs> lanes(v.rods.out, v.rods.out + bonds);
  for (int b = 0; b < bonds; ++b) v.rods.out[b] = RodDofs{vec3(7.0f), glm::vec4(7.0f), vec3(7.0f), glm::vec4(7.0f)};
  rbdem::rodProducts(OneBondPerIndex{}, v, v.solve.cg);
  int intact = 0, differ = 0;
  for (int b = 0; b < bonds; ++b) {
    if (v.bonds.broken[b]) continue;
    ++intact;
    differ += std::memcmp(&lanes[b], &v.rods.out[b], sizeof(RodDofs)) != 0;
  }
  MESSAGE(intact << " intact bonds of " << bonds << " (" << bonds % kRodWordLanes << " in the last block)");
  CHECK(intact > 0);
  CHECK(intact < bonds);
  CHECK(bonds % kRodWordLanes != 0);  // a short last block is exercised
  CHECK(differ == 0);
}
