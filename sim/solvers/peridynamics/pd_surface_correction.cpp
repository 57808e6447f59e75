#include "solvers/peridynamics/pd_surface_correction.h"

#include <cmath>

namespace frac {

std::vector<float> surfaceCorrectionFactors(const PdParticleArrays& particles, const PdBondArrays& bonds,
                                            long long firstBond, const std::vector<vec3>& bulkSums) {
  const std::vector<vec3>& x = particles.reference;
  const long long count = bonds.size();
  // Each particle's own sums over its (new) bonds, both ends.
  std::vector<FamilyStretchSums> own(x.size());
  for (long long b = firstBond; b < count; ++b) {
    const int i = bonds.first[b], j = bonds.second[b];
    const vec3 xi = x[j] - x[i];
    own[i].add(xi, bonds.xiLength[b], bonds.beta[b] * particles.volume[j]);
    own[j].add(-xi, bonds.xiLength[b], bonds.beta[b] * particles.volume[i]);
  }
  // lambda_i per axis: the bulk's sum over this particle's (1 where either is zero: no bonds, or no bulk given)
  std::vector<vec3> ratio(x.size(), vec3(1.0f));
  for (size_t i = 0; i < x.size(); ++i) {
    const int body = particles.body[i];
    if (body < 0 || size_t(body) >= bulkSums.size()) continue;
    const vec3 bulk = bulkSums[size_t(body)], mine = own[i].sum;
    for (int a = 0; a < 3; ++a)
      if (bulk[a] > 0.0f && mine[a] > 0.0f) ratio[i][a] = bulk[a] / mine[a];
  }
  std::vector<float> factor(size_t(count - firstBond), 1.0f);
  for (long long b = firstBond; b < count; ++b) {
    const int i = bonds.first[b], j = bonds.second[b];
    const vec3 g = 0.5f * (ratio[i] + ratio[j]);
    const vec3 q = (x[j] - x[i]) / bonds.xiLength[b] / g;  // the bond's direction over the ellipsoid's axes
    factor[size_t(b - firstBond)] = float(1.0 / std::sqrt(double(glm::dot(q, q))));
  }
  return factor;
}

}  // namespace frac
