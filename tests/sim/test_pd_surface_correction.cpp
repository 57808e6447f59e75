// The peridynamic surface correction (solvers/peridynamics/pd_surface_correction.h, after Madenci & Oterkus' energy
// method): the skin of a body stores the energy of its inside under a uniform strain, and a body's modulus stops
// depending on how many elements across it is.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "calibration/lab_test.h"
#include "io/scene_loader.h"
#include "solvers/peridynamics/pd_solver.h"

using namespace frac;

namespace {

// A glass box of HCP particles 2 mm apart (the horizon 3 spacings), pd-bond or pd-state, with or without the
// correction, unbreakable. The default, 48 x 32 x 32 mm (24 x 16 x 16 spacings), has particles two horizons deep.
PeridynamicsSolver correctionBox(PdModel model, bool correction, glm::dvec3 size = {0.048, 0.032, 0.032}) {
  const nlohmann::json doc = {
      {"name", "box"},
      {"solver", {{"method", model == PdModel::Bond ? "pd-bond" : "pd-state"}, {"dt", 1e-7}, {"gravity", {0, 0, 0}},
                  {"surface_correction", correction}}},
      {"materials", {{"glass", {{"density", 2500}, {"bulk_modulus", 3.89e10}, {"shear_modulus", 2.92e10},
                                {"critical_stretch", 10}}}}},
      {"bodies", {{{"shape", {{"type", "box"}, {"size", {size.x, size.y, size.z}}}}, {"element_radius", 0.001},
                   {"packing", "hcp"}, {"material", "glass"}}}}};
  PeridynamicsSolver solver(model);
  solver.load(parseScene(doc, "box.json"), SolverOptions{});
  return solver;
}

// Per particle, its family's sums (pd_surface_correction.h: |xi| beta V weighted; V is the same for every particle).
std::vector<FamilyStretchSums> familySums(const PeridynamicsSolver& solver) {
  const PdBondArrays& bonds = solver.bonds();
  const std::vector<vec3>& x = solver.referencePositions();
  std::vector<FamilyStretchSums> sums(x.size());
  for (long long b = 0; b < bonds.size(); ++b) {
    const int i = bonds.first[b], j = bonds.second[b];
    sums[i].add(x[j] - x[i], bonds.xiLength[b], bonds.beta[b]);
    sums[j].add(x[i] - x[j], bonds.xiLength[b], bonds.beta[b]);
  }
  return sums;
}

}  // namespace

TEST_CASE("surface correction, pd-bond and pd-state: the box's mean energy under a uniaxial strain along x, y and z "
          "is the inside's within 3 percent (without: pd-bond 16-20 percent below), a particle's within 3 percent on "
          "average for pd-state (without: 10 percent) and 10 for pd-bond (without: 16-20), and pd-bond's bonds two "
          "horizons inside are untouched") {
  // The energy of a particle under a uniaxial strain along an axis: pd-bond's PMB micropotential sums to c eps^2 / 4
  // sum n_a^4 |xi| beta V; pd-state's LPS energy K theta^2 / 2 + 15 G / (2 m) sum omega (e^d)^2 beta V (Silling 2007
  // eq. 92; Chen eq. 8-10), both from the family's sums (FamilyStretchSums::energy). A continuum's energy density
  // does not depend on where in the body a point is.
  for (const PdModel model : {PdModel::Bond, PdModel::State}) {
    const bool state = model == PdModel::State;
    CAPTURE(state);
    const PeridynamicsSolver plain = correctionBox(model, false), corrected = correctionBox(model, true);
    const PdBondArrays &before = plain.bonds(), &after = corrected.bonds();
    REQUIRE(before.size() == after.size());
    const std::vector<FamilyStretchSums> sumsBefore = familySums(plain), sumsAfter = familySums(corrected);
    const int n = plain.particleCount();
    // Whole families (every site within the horizon), and the particles whose family holds only whole ones.
    int largest = 0;
    for (int i = 0; i < n; ++i) largest = std::max(largest, before.particleStart[i + 1] - before.particleStart[i]);
    auto whole = [&](int i) { return before.particleStart[i + 1] - before.particleStart[i] == largest; };
    std::vector<uint8_t> deep(size_t(n), 0);
    int inside = -1, deepCount = 0;
    for (int i = 0; i < n; ++i) {
      if (!whole(i)) continue;
      inside = i;
      bool all = true;
      for (int k = before.particleStart[i]; k < before.particleStart[i + 1]; ++k)
        all = all && whole(before.particleNeighbor[k]);
      deep[size_t(i)] = all;
      deepCount += all;
    }
    REQUIRE(inside >= 0);
    long long deepBonds = 0;
    double largestChange = 0.0;
    for (long long b = 0; b < before.size(); ++b) {
      if (!deep[size_t(before.first[b])] || !deep[size_t(before.second[b])]) continue;
      ++deepBonds;
      largestChange = std::max(largestChange, std::abs(double(after.beta[b]) / double(before.beta[b]) - 1.0));
    }
    MESSAGE(deepCount << " particles two horizons deep, " << deepBonds << " bonds between them, changed by at most "
                      << largestChange);
    CHECK(deepBonds > 0);
    if (!state) CHECK(largestChange < 1e-5);  // pd-bond's two passes reach a horizon in; pd-state's eight, further
    const double k = 3.89e10, g = 2.92e10;
    const glm::dvec3 bulk = sumsBefore[size_t(inside)].energy(state, k, g);
    glm::dvec3 meanBefore(0.0), meanAfter(0.0), offBefore(0.0), offAfter(0.0);
    for (int i = 0; i < n; ++i) {
      const glm::dvec3 b = sumsBefore[size_t(i)].energy(state, k, g) / bulk;
      const glm::dvec3 a = sumsAfter[size_t(i)].energy(state, k, g) / bulk;
      meanBefore += b / double(n), meanAfter += a / double(n);
      offBefore += glm::abs(b - 1.0) / double(n), offAfter += glm::abs(a - 1.0) / double(n);
    }
    MESSAGE("over the box / inside, x, y, z: without: mean " << meanBefore.x << ", " << meanBefore.y << ", "
            << meanBefore.z << ", mean |off| " << offBefore.x << ", " << offBefore.y << ", " << offBefore.z
            << "; with: mean " << meanAfter.x << ", " << meanAfter.y << ", " << meanAfter.z << ", mean |off| "
            << offAfter.x << ", " << offAfter.y << ", " << offAfter.z);
    for (int a = 0; a < 3; ++a) {
      CHECK(std::abs(meanAfter[a] - 1.0) < 0.03);
      // pd-bond's two passes even out the mean, pd-state's eight each particle too (surfaceCorrectionFactors)
      CHECK(offAfter[a] < (state ? 0.03 : 0.10));
      CHECK(offBefore[a] > (state ? 0.09 : 0.15));
    }
  }
}

// A pane three elements thick is all skin: no particle's family reaches the inside's energy, and LPS's energy does not
// change when all of a particle's bonds are scaled alike. A correction that let such factors drift (2026-12-05: all
// down to 0.03 together) kept the forces and grew the step estimated from them 4.6x, and the pane exploded. Explicit
// central differences (velocity Verlet) are stable for dt < 2 / omega_max, and the solver's stableDt bounds omega_max
// from above by the row sums of the stiffness (Gerschgorin): at the estimate itself the pane's energy stays bounded.
// Measured (HCP, r = 1 mm, 6 mm thick): 0.88-1 of its start over 4000 steps at 1x the estimate, 0.76-0.83 at
// 1.5x, 1e5-1e6 times at 2x (the start's dip is Verlet's shadow energy of the displacement's short waves). With the
// step estimated as for PMB (without each bond end's m over its particle's), the uncorrected pane grew 5e5 times at
// 1x, and the corrected one, its factors unbounded, 1e12 times.
TEST_CASE("surface correction: a pd-state pane three elements thick, stepped at its stable-step estimate, keeps its "
          "energy (kinetic + LPS strain) within 15 percent of its start over 4000 steps, with and without the "
          "correction") {
  for (const bool correction : {true, false}) {
    CAPTURE(correction);
    PeridynamicsSolver pane = correctionBox(PdModel::State, correction, {0.048, 0.048, 0.006});
    // A sag of 1 um in the first plate mode, with in-plane ripples of 0.1 um near the lattice's shortest waves.
    std::vector<vec3>& u = pane.displacements();
    for (int i = 0; i < pane.particleCount(); ++i) {
      const vec3 x = pane.referencePositions()[i];
      u[i] = vec3(1e-7f * std::sin(1e4f * x.x * x.y), 1e-7f * std::sin(3e3f * x.z + 7e3f * x.y),
                  1e-6f * std::cos(x.x / 0.048f * 3.14159f) * std::cos(x.y / 0.048f * 3.14159f));
    }
    pane.computeForces();
    const double start = pane.stats().kineticEnergy + pane.bondEnergy();
    REQUIRE(start > 0.0);
    double lowest = 1.0, highest = 1.0;
    for (int k = 1; k <= 4000; ++k) {
      pane.step(pane.stableDt());
      if (k % 250 != 0) continue;
      const double ratio = (pane.stats().kineticEnergy + pane.bondEnergy()) / start;
      lowest = std::min(lowest, ratio), highest = std::max(highest, ratio);
    }
    MESSAGE("pane's energy over its start: " << lowest << " to " << highest);
    CHECK(lowest > 0.85);
    CHECK(highest < 1.15);
  }
}

namespace {

// Calibrated glass (assets/calibration) in the tension bar 16 elements across, elastic: its E and nu.
LabMeasurement glassBar16(const char* method) {
  LabSetup lab;
  lab.method = method;
  lab.material = {{"library", "glass"}};
  lab.libraryHint = std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/lab_tension.json";
  lab.toFailure = false;
  lab.threads = 1;
  lab.across = 16;
  const LabMeasurement m = runLabTest(lab);
  MESSAGE(std::string(method) << " glass, bar 16 across: E " << m.young << ", nu " << m.poisson);
  return m;
}

}  // namespace

// A continuum's modulus does not depend on the specimen's thickness, nor does the default specimen at half the element
// radius, which is this bar. The calibration fits the moduli on the 8-across bar, whose skin (a horizon, 3 spacings,
// from each face) is most of it. Measured by the bars' cells (2026-12-05): without the correction pd-state's 16-across
// bar read 9.6% softer than its 8-across one; pd-bond's, after the book's single pass, 5.6% (before that pass
// existed, 2026-11-29, by the spheres' extent: 31% stiffer). nu: pd-bond's PMB holds 1/4 (Silling 2000), pd-state
// the library's 0.2. pd-bond's bar 16 across is checked to failure, with its strength, in test_calibration.cpp
// ("concrete in a bar twice as many elements across ... (pd-bond)").
TEST_CASE("surface correction: calibrated glass measures the same E in a bar 16 elements across as in the "
          "calibration's bar, 8 across, within 3 percent, and Poisson's ratio 0.2 within 10 percent (pd-state)") {
  const LabMeasurement m = glassBar16("pd-state");
  CHECK(std::abs(m.young / 7.0e10 - 1.0) < 0.03);
  CHECK(std::abs(m.poisson / 0.2 - 1.0) < 0.10);
}
