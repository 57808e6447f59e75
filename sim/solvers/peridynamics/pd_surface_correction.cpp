#include "solvers/peridynamics/pd_surface_correction.h"

#include <cmath>

namespace frac {

namespace {

constexpr double kStateBound = 2.0;  // pd-state: a particle's ratio per axis within [1/2, 2] of their geometric mean

}  // namespace

glm::dvec3 FamilyStretchSums::energy(bool state, double k, double g) const {
  if (!state) return s4;
  if (!(m > 0.0)) return glm::dvec3(0.0);
  const glm::dvec3 theta = 3.0 * s2 / m;
  return 0.5 * k * theta * theta + (7.5 * g / m) * (s4 - (2.0 / 3.0) * theta * s2 + theta * theta * (m / 9.0));
}

std::vector<float> surfaceCorrectionFactors(const PdParticleArrays& particles, const PdBondArrays& bonds,
                                            long long firstBond, const SurfaceCorrectionInput& input) {
  const std::vector<vec3>& x = particles.reference;
  const long long count = bonds.size();
  const size_t n = x.size();
  std::vector<float> factor(size_t(count - firstBond), 1.0f);
  auto moduli = [&](size_t i, double& k, double& g) {
    k = input.state ? input.bulkModulus[i] : 0.0;
    g = input.state ? input.shearModulus[i] : 0.0;
  };
  // The inside's energy per particle (0 where its body has no bulk given: that particle keeps ratio 1).
  std::vector<glm::dvec3> inside(n, glm::dvec3(0.0));
  for (size_t i = 0; i < n; ++i) {
    const int body = particles.body[i];
    if (body < 0 || size_t(body) >= input.bulk.size()) continue;
    double k, g;
    moduli(i, k, g);
    inside[i] = input.bulk[size_t(body)].energy(input.state, k, g);
  }
  std::vector<glm::dvec3> ratio(n, glm::dvec3(1.0));
  std::vector<FamilyStretchSums> own(n);
  for (int pass = 0; pass < input.passes; ++pass) {
    // Each particle's own sums over its (new) bonds, both ends, with the factors so far.
    std::fill(own.begin(), own.end(), FamilyStretchSums{});
    for (long long b = firstBond; b < count; ++b) {
      const int i = bonds.first[b], j = bonds.second[b];
      const vec3 xi = x[j] - x[i];
      const float beta = bonds.beta[b] * factor[size_t(b - firstBond)];
      own[i].add(xi, bonds.xiLength[b], beta * particles.volume[j]);
      own[j].add(-xi, bonds.xiLength[b], beta * particles.volume[i]);
    }
    // lambda_i per axis, times the inside's energy over the particle's (unchanged where either is zero: no bonds, or
    // no bulk given)
    for (size_t i = 0; i < n; ++i) {
      double k, g;
      moduli(i, k, g);
      const glm::dvec3 mine = own[i].energy(input.state, k, g);
      for (int a = 0; a < 3; ++a)
        if (inside[i][a] > 0.0 && mine[a] > 0.0) ratio[i][a] *= inside[i][a] / mine[a];
      if (!input.state) continue;
      // LPS's energy does not change when all of a particle's bonds are scaled alike (m normalises it): only the
      // ratios' shape matters, so their geometric mean is held at 1, and each is bounded, where (a pane a few
      // particles thick) no shape reaches the inside's energy and the passes would drive them apart without end.
      const double mean = std::cbrt(ratio[i].x * ratio[i].y * ratio[i].z);
      if (mean > 0.0) ratio[i] = glm::clamp(ratio[i] / mean, glm::dvec3(1.0 / kStateBound), glm::dvec3(kStateBound));
    }
    for (long long b = firstBond; b < count; ++b) {
      const int i = bonds.first[b], j = bonds.second[b];
      const glm::dvec3 axes = 0.5 * (ratio[i] + ratio[j]);
      const glm::dvec3 q = glm::dvec3(x[j] - x[i]) / double(bonds.xiLength[b]) / axes;  // over the ellipsoid's axes
      factor[size_t(b - firstBond)] = float(1.0 / std::sqrt(glm::dot(q, q)));
    }
  }
  return factor;
}

}  // namespace frac
