#include "analysis/three_point_bending.h"

#include <algorithm>

namespace frac {

namespace {

// Centred moving average with `half` samples on each side (fewer at the ends).
std::vector<double> movingAverage(const std::vector<LoadSample>& curve, double LoadSample::*field, size_t half) {
  const size_t n = curve.size();
  std::vector<double> prefix(n + 1, 0.0), out(n);
  for (size_t k = 0; k < n; ++k) prefix[k + 1] = prefix[k] + curve[k].*field;
  for (size_t k = 0; k < n; ++k) {
    const size_t lo = k >= half ? k - half : 0, hi = std::min(n, k + half + 1);
    out[k] = (prefix[hi] - prefix[lo]) / double(hi - lo);
  }
  return out;
}

}  // namespace

BendingResult ThreePointBendingProbe::result() const {
  BendingResult r;
  if (curve_.empty()) return r;
  // The explicit run vibrates about the quasi-static curve (and regressing on a vibrating delta would bias the slope
  // low): force and deflection are both smoothed over 1/100 of the run before F_top and the slope are taken.
  const size_t half = curve_.size() / 200;
  const std::vector<double> force = movingAverage(curve_, &LoadSample::force, half);
  const std::vector<double> deflection = movingAverage(curve_, &LoadSample::displacement, half);
  size_t peak = 0;
  for (size_t k = 0; k < force.size(); ++k)
    if (force[k] > force[peak]) peak = k;
  r.peakForce = force[peak];
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t k = 0; k <= peak; ++k) {
    if (force[k] < 0.2 * r.peakForce || force[k] > desc_.fitFraction * r.peakForce) continue;
    sx += deflection[k];
    sy += force[k];
    sxx += deflection[k] * deflection[k];
    sxy += deflection[k] * force[k];
    ++r.fitSamples;
  }
  const double n = r.fitSamples;
  const double denominator = n * sxx - sx * sx;
  if (r.fitSamples >= 2 && denominator > 0.0) r.slope = (n * sxy - sx * sy) / denominator;
  const double l = desc_.span, b = width(), h = height();
  r.youngMacro = l * l * l / (4.0 * b * h * h * h) * r.slope;  // eq. 29
  r.strengthMacro = 3.0 * l * r.peakForce / (2.0 * b * h * h);  // eq. 29
  return r;
}

}  // namespace frac
