#include "analysis/three_point_bending.h"

#include <algorithm>

#include "analysis/load_curve.h"

namespace frac {

BendingResult ThreePointBendingProbe::result() const {
  BendingResult r;
  if (curve_.empty()) return r;
  // The explicit run vibrates about the quasi-static curve (and regressing on a vibrating delta would bias the slope
  // low): force and deflection are both smoothed over 1/100 of the run before F_top and the slope are taken.
  const size_t half = curve_.size() / 200;
  const std::vector<double> force = movingAverage(curve_, &LoadSample::force, half);
  const std::vector<double> deflection = movingAverage(curve_, &LoadSample::displacement, half);
  const size_t peak = peakIndex(force);
  r.peakForce = force[peak];
  // The slope over the stretch of the run from 0.2 F_top to fitFraction F_top, smoothed over a share of it
  // (FitRange: a band on the force would bias it low).
  const FitRange range = fitRange(force, peak, 0.2, desc_.fitFraction);
  LineFit fit, fitQuarter;
  if (!range.empty) {
    const size_t wide = range.smoothing(half);
    const std::vector<double> f = movingAverage(curve_, &LoadSample::force, wide);
    const std::vector<double> d = movingAverage(curve_, &LoadSample::displacement, wide);
    const std::vector<double> q = movingAverage(curve_, &LoadSample::quarter, wide);
    for (size_t k = range.first; k <= range.last; ++k) {
      fit.add(d[k], f[k]);
      fitQuarter.add(q[k], f[k]);
    }
  }
  r.fitSamples = fit.count();
  r.slope = fit.slope();
  const double l = desc_.span, b = width(), h = height();
  r.youngMacro = l * l * l / (4.0 * b * h * h * h) * r.slope;  // eq. 29
  if (!desc_.supports.empty() && r.slope > 0.0 && fitQuarter.slope() > 0.0) {
    // A simply supported beam under a central load F deflects, at x <= l / 2 from a support, F x (3 l^2 - 4 x^2) /
    // (48 E I) in bending and F x / (2 kappa G A) in shear: at mid-span B + S, at the quarter span 11/16 B + S / 2.
    // So B = 8/3 (2 delta_quarter - delta_mid), and E = l^3 / (48 I) F / B whatever the shear modulus (a lattice
    // is not isotropic, so Timoshenko's kappa G from nu need not be its own; docs/materials.md).
    const double bendingCompliance = 8.0 / 3.0 * (2.0 / fitQuarter.slope() - 1.0 / r.slope);
    if (bendingCompliance > 0.0) r.youngShearFree = l * l * l / (4.0 * b * h * h * h) / bendingCompliance;
  }
  r.strengthMacro = 3.0 * l * r.peakForce / (2.0 * b * h * h);  // eq. 29
  if (desc_.poisson > 0.0f) {
    // Eq. 29 is Euler-Bernoulli's delta = F l^3 / (48 E I). A beam of l/h ~ 7 (Lu's) also deflects in shear,
    // delta_s = F l / (4 kappa G A) (Timoshenko), 5-6% of the total here: with G = E / (2 (1 + nu)) and Cowper's
    // kappa = 10 (1 + nu) / (12 + 11 nu) for a rectangle, E = dF/d(delta) (l^3 / (48 I) + l (1 + nu) / (2 kappa A)).
    const double nu = desc_.poisson, kappa = 10.0 * (1.0 + nu) / (12.0 + 11.0 * nu);
    const double inertia = b * h * h * h / 12.0, area = b * h;
    r.youngTimoshenko = r.slope * (l * l * l / (48.0 * inertia) + l * (1.0 + nu) / (2.0 * kappa * area));
  }
  if (desc_.ligament > 0.0f) {
    // Work of fracture (RILEM TC 50-FMC): the area under the load-deflection curve (smoothed, trapezoids; the load
    // only where it pushes) over the ligament's area b x ligament.
    for (size_t k = 1; k < force.size(); ++k)
      r.work += 0.5 * (std::max(0.0, force[k]) + std::max(0.0, force[k - 1])) * (deflection[k] - deflection[k - 1]);
    r.fractureEnergy = r.work / (b * desc_.ligament);
  }
  return r;
}

}  // namespace frac
