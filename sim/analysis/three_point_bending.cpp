#include "analysis/three_point_bending.h"

#include <algorithm>

namespace frac {

BendingResult ThreePointBendingProbe::result() const {
  BendingResult r;
  if (curve_.empty()) return r;
  size_t peak = 0;
  for (size_t k = 0; k < curve_.size(); ++k)
    if (curve_[k].force > curve_[peak].force) peak = k;
  r.peakForce = curve_[peak].force;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t k = 0; k <= peak; ++k) {
    const LoadSample& s = curve_[k];
    if (s.force < 0.05 * r.peakForce || s.force > desc_.fitFraction * r.peakForce) continue;
    sx += s.displacement;
    sy += s.force;
    sxx += s.displacement * s.displacement;
    sxy += s.displacement * s.force;
    ++r.fitSamples;
  }
  const double n = r.fitSamples;
  const double denominator = n * sxx - sx * sx;
  if (r.fitSamples >= 2 && denominator > 0.0) r.slope = (n * sxy - sx * sy) / denominator;
  const double l = desc_.span, b = desc_.width, h = desc_.height;
  r.youngMacro = l * l * l / (4.0 * b * h * h * h) * r.slope;  // eq. 29
  r.strengthMacro = 3.0 * l * r.peakForce / (2.0 * b * h * h);  // eq. 29
  return r;
}

}  // namespace frac
