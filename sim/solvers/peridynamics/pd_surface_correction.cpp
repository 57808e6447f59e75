#include "solvers/peridynamics/pd_surface_correction.h"

#include <cmath>

namespace frac {

std::vector<float> surfaceCorrectionFactors(const SurfaceCorrectionInput& in) {
  const std::vector<vec3>& x = *in.reference;
  const std::vector<int32_t>& first = *in.first;
  const std::vector<int32_t>& second = *in.second;
  const long long bonds = (long long)first.size();
  // Each particle's own sums over its (new) bonds, both ends.
  std::vector<FamilyStretchSums> own(x.size());
  for (long long b = in.firstBond; b < bonds; ++b) {
    const int i = first[b], j = second[b];
    const vec3 xi = x[j] - x[i];
    const float length = (*in.xiLength)[b], beta = (*in.beta)[b];
    own[i].add(xi, length, beta * (*in.volume)[j]);
    own[j].add(-xi, length, beta * (*in.volume)[i]);
  }
  // lambda_i per axis: the bulk's sum over this particle's (1 where either is zero: no bonds, or no bulk given)
  std::vector<vec3> ratio(x.size(), vec3(1.0f));
  for (size_t i = 0; i < x.size(); ++i) {
    const int body = (*in.body)[i];
    if (body < 0 || size_t(body) >= in.bulkSums->size()) continue;
    const vec3 bulk = (*in.bulkSums)[size_t(body)], mine = own[i].sum;
    for (int a = 0; a < 3; ++a)
      if (bulk[a] > 0.0f && mine[a] > 0.0f) ratio[i][a] = bulk[a] / mine[a];
  }
  std::vector<float> factor(size_t(bonds - in.firstBond), 1.0f);
  for (long long b = in.firstBond; b < bonds; ++b) {
    const int i = first[b], j = second[b];
    const vec3 g = 0.5f * (ratio[i] + ratio[j]);
    const vec3 n = (x[j] - x[i]) / (*in.xiLength)[b];
    const vec3 q = n / g;
    factor[size_t(b - in.firstBond)] = float(1.0 / std::sqrt(double(glm::dot(q, q))));
  }
  return factor;
}

}  // namespace frac
