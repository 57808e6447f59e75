// The PMB bond kernel (sim/kernels/pd_bond.h) against LAMMPS `pair_style peri/pmb` (the peer: Levine's model with
// Silling & Askari's constants) and against closed-form mechanics.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/pd_bond.h"
#include "lammps_dump.h"

using namespace frac;

namespace {

using test::DumpAtom;
const auto readDump = test::readLammpsDump;

}  // namespace

TEST_CASE("PMB forces agree with LAMMPS peri/pmb within 1e-3 of the largest force (prescribed displacements)") {
  const std::string dir = std::string(FRACTURE_SOURCE_DIR) + "/tests/data/lammps_pmb/";
  const std::map<int, DumpAtom> reference = readDump(dir + "reference.txt", false);
  const std::map<int, DumpAtom> deformed = readDump(dir + "deformed.txt", true);
  REQUIRE(reference.size() == 1331);
  REQUIRE(deformed.size() == reference.size());
  // LAMMPS' constants (in.peri.pmb): c = 1.6863e22, horizon 0.0015001, volume 1.25e-10, lattice 0.5 mm.
  const float c = 1.6863e22f, horizon = 0.0015001f, volume = 1.25e-10f, spacing = 0.0005f;
  std::vector<vec3> x0, u;
  std::vector<glm::dvec3> fLammps;
  for (const auto& [id, r] : reference) {
    const DumpAtom& d = deformed.at(id);
    x0.emplace_back(float(r.x), float(r.y), float(r.z));
    u.emplace_back(float(d.x - r.x), float(d.y - r.y), float(d.z - r.z));  // displacements: small, exact in float
    fLammps.emplace_back(d.fx, d.fy, d.fz);
  }
  double largest = 0.0, worst = 0.0;
  int bonds = 0;
  for (size_t i = 0; i < x0.size(); ++i) {
    glm::dvec3 f(0.0);
    for (size_t j = 0; j < x0.size(); ++j) {
      if (j == i) continue;
      const vec3 xi = x0[j] - x0[i];
      const float xiLength = std::sqrt(glm::dot(xi, xi));
      if (xiLength > horizon) continue;  // the family: every particle within the horizon
      ++bonds;
      float stretch;
      f += glm::dvec3(pmbForceDensity(xi, xiLength, u[j] - u[i], c, volume,
                                      pmbPartialVolume(xiLength, horizon, spacing), stretch));
    }
    largest = std::max(largest, glm::length(fLammps[i]));
    worst = std::max(worst, glm::length(f - fLammps[i]));
  }
  MESSAGE(bonds << " bond ends; largest LAMMPS force density " << largest << ", largest difference " << worst << " ("
                << worst / largest << " of it)");
  CHECK(bonds > 100000);
  CHECK(worst <= 1e-3 * largest);
}

TEST_CASE("PMB closed forms: micromodulus (eq. 4), stretch (eq. 2), critical stretch, compression strengthening") {
  CHECK(pmbMicromodulus(1.0e10f, 0.01f) == RelApprox(18.0 * 1e10 / (M_PI * 1e-8)).epsilon(1e-6));
  // LAMMPS' example: c = 1.6863e22 with delta = 0.0015001 is K = c pi delta^4 / 18 = 14.9 GPa.
  CHECK(pmbMicromodulus(14.9e9f, 0.0015001f) == RelApprox(1.6863e22).epsilon(2e-3));
  float length;
  const vec3 xi(0.001f, 0.0f, 0.0f);
  CHECK(pmbStretch(xi, 0.001f, vec3(1e-7f, 0.0f, 0.0f), length) == RelApprox(1e-4).epsilon(1e-5));
  CHECK(length == RelApprox(0.0010001).epsilon(1e-6));
  // A rigid rotation does not stretch a bond. The linearised stretch xi.eta / |xi|^2 would give cos(angle) - 1 =
  // -5e-7 here; what remains is the float rounding of the rotated vector.
  const float angle = 1e-3f;
  const vec3 rotated(0.001f * std::cos(angle), 0.001f * std::sin(angle), 0.0f);
  CHECK(std::abs(pmbStretch(xi, 0.001f, rotated - xi, length)) < 1e-7f);
  // s0 = sqrt(5 G0 / (9 K delta)); Levine's tau (eq. 4) is three times it.
  const float s0 = pmbCriticalStretch(100.0f, 1e10f, 0.003f);
  CHECK(s0 == RelApprox(std::sqrt(5.0 * 100.0 / (9.0 * 1e10 * 0.003))).epsilon(1e-6));
  CHECK(3.0f * s0 == RelApprox(std::sqrt(5.0 * 100.0 / (1e10 * 0.003))).epsilon(1e-6));
  // eq. 5: compressed particles get stronger bonds; stretched ones keep s0.
  CHECK(pmbStrengthenedStretch(5e-4f, 0.25f, -2e-4f) == RelApprox(5.5e-4f));
  CHECK(pmbStrengthenedStretch(5e-4f, 0.25f, 1e-4f) == RelApprox(5e-4f));
  // The partial-volume factor: 1 well inside, 1/2 at the horizon, linear across delta +- h/2 (families end at delta).
  CHECK(pmbPartialVolume(0.001f, 0.0015f, 0.0005f) == 1.0f);
  CHECK(pmbPartialVolume(0.0015f, 0.0015f, 0.0005f) == RelApprox(0.5f));
  CHECK(pmbPartialVolume(0.0014f, 0.0015f, 0.0005f) == RelApprox(0.7f));
}

TEST_CASE("PMB: uniform stretch s gives the strain energy density 9/2 K s^2 deep inside a lattice (within 15%)") {
  // Energy density at a particle: 1/2 sum_j 1/2 c s^2 |xi| V_j beta (the pair potential w = c s^2 |xi| / 2, split
  // between the two ends). Silling & Askari: for the continuum integral this is exactly 9/2 K s^2.
  const float K = 1.0e10f, h = 0.001f, horizon = 3.0001f * h, volume = h * h * h, s = 1e-4f;
  const float c = pmbMicromodulus(K, horizon);
  double energy = 0.0;
  const int n = 4;
  for (int a = -n; a <= n; ++a)
    for (int b = -n; b <= n; ++b)
      for (int d = -n; d <= n; ++d) {
        if (a == 0 && b == 0 && d == 0) continue;
        const vec3 xi(a * h, b * h, d * h);
        const float xiLength = std::sqrt(glm::dot(xi, xi));
        if (xiLength > horizon) continue;
        float length;
        const float stretch = pmbStretch(xi, xiLength, s * xi, length);  // uniform expansion: eta = s xi
        CHECK(stretch == RelApprox(s).epsilon(1e-4));
        energy += 0.25 * c * stretch * stretch * xiLength * volume * pmbPartialVolume(xiLength, horizon, h);
      }
  const double expected = 4.5 * K * s * s;
  MESSAGE("energy density " << energy << " J/m^3, 9/2 K s^2 = " << expected);
  CHECK(energy == RelApprox(expected).epsilon(0.15));
}

TEST_CASE("cubeRoot (eq. 7's 2/3 power without libm) agrees with std::cbrt within 2e-7 relative") {
  double worst = 0.0;
  for (double a = 1e-30; a < 1e30; a *= 1.37) {
    const double exact = std::cbrt(double(float(a)));
    worst = std::max(worst, std::abs(double(cubeRoot(float(a))) - exact) / exact);
  }
  MESSAGE("largest relative error " << worst);
  CHECK(worst < 2e-7);
  CHECK(cubeRoot(0.0f) == 0.0f);
  CHECK(cubeRoot(27.0f) == RelApprox(3.0f).epsilon(1e-7));
}
