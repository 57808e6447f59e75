// Solver::writeInstances (issue 6 interop: the instances a CUDA solver writes into the renderer's buffer) against
// writeFrame, run here on the CPU through the same templates the device instantiates: every field bit-equal to the
// RenderFrame's, for each colour scalar, on scenes whose bonds are breaking; and the parallel fragment keys against
// the union-find of analysis/fragments.h.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "analysis/fragments.h"
#include "backend/exec.h"
#include "io/scene_loader.h"
#include "solvers/element_instances.h"
#include "solvers/frame_parts.h"
#include "solvers/simulation.h"

namespace {

using namespace frac;

struct MemberFlags {
  const uint8_t* member;
  bool operator()(int i) const { return member[i] != 0; }
};

void requireSameBits(float a, float b, const char* what, size_t i) {
  INFO(what << " of element " << i << ": " << a << " vs " << b);
  REQUIRE(std::memcmp(&a, &b, sizeof(float)) == 0);
}

// Every instance field against the frame's, for one scalar.
void compareWithFrame(Solver& solver, ElementScalar scalar) {
  RenderFrame frame;
  solver.writeFrame(frame, false);
  const size_t n = frame.elementCount();
  std::vector<SphereInstance> instances(n + 3);
  REQUIRE(solver.writeInstances(instances.data(), int(n) - 1, scalar).count == -1);  // too small: nothing written
  const InstanceSummary summary = solver.writeInstances(instances.data(), int(instances.size()), scalar);
  REQUIRE(summary.count == int(n));
  vec3 lo(3e38f), hi(-3e38f);
  float maxRadius = 0.0f, maxSpeed = 0.0f;
  for (size_t i = 0; i < n; ++i) {
    const SphereInstance& s = instances[i];
    for (int k = 0; k < 4; ++k) requireSameBits(s.sphere[k], frame.spheres[i][k], "sphere", i);
    const float expected = scalar == ElementScalar::StressRatio ? frame.stressRatio[i]
                           : scalar == ElementScalar::Damage    ? frame.damage[i]
                           : scalar == ElementScalar::Speed     ? frame.speed[i]
                                                                : 0.0f;
    requireSameBits(s.scalar, expected, "scalar", i);
    requireSameBits(s.speed, frame.speed[i], "speed", i);
    REQUIRE(s.fragment == frame.fragment[i]);
    REQUIRE(s.materialKind == packMaterialKind(frame.material[i], uint32_t(frame.kind[i])));
    if (frame.spheres[i].w > 0.0f) {
      lo = glm::min(lo, vec3(frame.spheres[i]));
      hi = glm::max(hi, vec3(frame.spheres[i]));
      maxRadius = std::max(maxRadius, frame.spheres[i].w);
      if (frame.kind[i] == ElementKind::Body) maxSpeed = std::max(maxSpeed, frame.speed[i]);
    }
  }
  for (int k = 0; k < 3; ++k) {
    requireSameBits(summary.lo[k], lo[k], "summary lo", k);
    requireSameBits(summary.hi[k], hi[k], "summary hi", k);
  }
  requireSameBits(summary.maxRadius, maxRadius, "summary radius", 0);
  requireSameBits(summary.maxBodySpeed, maxSpeed, "summary speed", 0);
  // The frame without elements has the same ground planes and materials.
  RenderFrame header;
  solver.writeFrameWithoutElements(header, summary);
  REQUIRE(header.elementCount() == 0);
  REQUIRE(header.time == frame.time);
  REQUIRE(header.materialColors == frame.materialColors);
  REQUIRE(header.meshes.size() == frame.meshes.size());
  for (size_t m = 0; m < frame.meshes.size(); ++m) REQUIRE(header.meshes[m].positions == frame.meshes[m].positions);
}

void checkScene(const std::string& scene, const std::vector<std::string>& overrides, int steps) {
  Simulation sim(loadScene(std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/" + scene, overrides), 2);
  for (int s = 0; s < steps; ++s) sim.step();
  INFO(scene << " after " << steps << " steps: " << sim.stats().bondsBroken << " bonds broken, "
             << sim.stats().fragments << " fragments");
  REQUIRE(sim.stats().bondsBroken > 0);  // the damage and fragment paths see broken bonds
  for (ElementScalar scalar :
       {ElementScalar::None, ElementScalar::StressRatio, ElementScalar::Damage, ElementScalar::Speed}) {
    CAPTURE(int(scalar));
    compareWithFrame(sim.solver(), scalar);
  }
}

}  // namespace

TEST_CASE("parallel fragment keys equal the union-find's smallest index per piece") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    const int n = 200 + 300 * trial;
    const int bonds = n * (1 + trial % 3);
    std::vector<int32_t> first(bonds), second(bonds);
    std::vector<uint8_t> broken(bonds), member(n);
    std::uniform_int_distribution<int> element(0, n - 1), percent(0, 99);
    for (int b = 0; b < bonds; ++b) {
      first[b] = element(rng);
      // Mostly short-range bonds (long chains: many rounds), some long ones (large pieces at once).
      second[b] = percent(rng) < 90 ? std::min(n - 1, first[b] + 1 + percent(rng) % 3) : element(rng);
      broken[b] = percent(rng) < 30;
    }
    for (int i = 0; i < n; ++i) member[i] = percent(rng) < 95;
    const std::vector<uint32_t> expected =
        fragmentKeys(labelFragments(n, member, first.data(), second.data(), broken.data(), bonds));
    CpuExec exec;
    exec.threads = 2;
    exec.minParallel = 1;  // run every loop on both threads
    std::vector<int32_t> key(n);
    int32_t changed = 0;
    fragmentKeysParallel(exec, n, MemberFlags{member.data()}, bonds, first.data(), second.data(), broken.data(),
                         key.data(), &changed);
    for (int i = 0; i < n; ++i) {
      INFO("trial " << trial << " element " << i);
      REQUIRE(uint32_t(key[i]) == expected[i]);
    }
  }
}

TEST_CASE("BDEM instances equal the RenderFrame while a ball breaks a wall") {
  checkScene("wall_impact.json", {"projectiles.0.position=[0.02,0.1,0.051]", "projectiles.0.velocity=[0,0,-20]"},
             150);
}

TEST_CASE("pd-bond instances equal the RenderFrame in LAMMPS' in.peri.pmb run") {
  checkScene("lammps_peri_pmb.json", {}, 280);
}

TEST_CASE("pd-state instances equal the RenderFrame while a sheet tears") { checkScene("pd_sheet_tear.json", {}, 300); }
