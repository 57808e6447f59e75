#include "analysis/three_point_bending.h"

#include <algorithm>
#include <cmath>

#include "analysis/load_curve.h"

namespace frac {

namespace {

// Timoshenko's simply supported beam of span l under a central load F = 1, at x from mid-span, u = l / 2 - |x| from
// the nearer support: F u (3 l^2 - 4 u^2) / (48 E I) in bending (E = 1 here) and F u / (2 kappa G A) in shear
// (kappa G A = 1 here). Past a support (u < 0) the beam runs on straight at the support's slope and carries no shear.
double bendingDeflection(double l, double inertia, double x) {
  const double u = 0.5 * l - std::abs(x);
  if (u < 0.0) return 3.0 * l * l * u / (48.0 * inertia);
  return u * (3.0 * l * l - 4.0 * u * u) / (48.0 * inertia);
}
double shearDeflection(double l, double x) { return 0.5 * std::max(0.0, 0.5 * l - std::abs(x)); }

// The mean of a deflection w(x) over one of the probe's vertical cylinders of `radius` about x = centre (its
// elements: simulation.cpp), which is what the probe samples: the cylinder's section by the beam's mid-plane is a disc
// cut to the beam's width and length, and w depends on x alone, so the mean is a 1-D integral weighted by the disc's
// chord (midpoint rule over 4,000 strips).
template <class Deflection>
double sectionMean(double centre, double radius, double halfWidth, double halfLength, Deflection w) {
  const int strips = 4000;
  double sum = 0.0, weight = 0.0;
  for (int k = 0; k < strips; ++k) {
    const double s = radius * (2.0 * (k + 0.5) / strips - 1.0), x = centre + s;
    if (halfLength > 0.0 && std::abs(x) > halfLength) continue;
    const double chord = std::min(std::sqrt(std::max(0.0, radius * radius - s * s)), halfWidth);
    sum += chord * w(x);
    weight += chord;
  }
  return weight > 0.0 ? sum / weight : w(centre);
}

// A measured deflection per unit load: its bending part times E and its shear part times kappa G A.
struct DeflectionParts {
  double bending = 0.0, shear = 0.0;
};

}  // namespace

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
  // What the probe's sections read of Timoshenko's beam (the deflections above): the mean over a cylinder of diameter
  // h_nominal about mid-span (and the quarter spans), net of those over the supports when it has them. Read at a
  // point, the formulas below are the textbook ones, which read a beam of Lu's proportions (l / h = 5.3) about 3%
  // stiff (the cylinder reaches onto the flanks of the bending curve and across the shear's kink; a 3-D continuum in
  // the lab's rig: docs/materials.md, "What the bending probe reads on a continuum").
  const double inertia = b * h * h * h / 12.0, area = b * h, radius = 0.5 * desc_.height;
  const auto measured = [&](double centre) {
    DeflectionParts p;
    const auto bending = [&](double x) { return bendingDeflection(l, inertia, x); };
    p.bending = sectionMean(centre, radius, 0.5 * b, 0.5 * length_, bending);
    p.shear = sectionMean(centre, radius, 0.5 * b, 0.5 * length_, [&](double x) { return shearDeflection(l, x); });
    return p;
  };
  DeflectionParts mid = measured(0.0), quarter = measured(0.25 * l);
  if (!desc_.supports.empty()) {
    const DeflectionParts support = measured(0.5 * l);
    mid = {mid.bending - support.bending, mid.shear - support.shear};
    quarter = {quarter.bending - support.bending, quarter.shear - support.shear};
  }
  if (!desc_.supports.empty() && r.slope > 0.0 && fitQuarter.slope() > 0.0) {
    // 1 / slope = B_mid / E + S_mid / (kappa G A) and 1 / slope_quarter = B_quarter / E + S_quarter / (kappa G A):
    // E without G (a lattice is not isotropic, so Timoshenko's kappa G from nu need not be its own;
    // docs/materials.md). At points: E = l^3 / (48 I) / (8/3 (2 / slope_quarter - 1 / slope)).
    const double denominator = quarter.shear / r.slope - mid.shear / fitQuarter.slope();
    const double young = (mid.bending * quarter.shear - quarter.bending * mid.shear) / denominator;
    if (denominator != 0.0 && young > 0.0) r.youngShearFree = young;
  }
  r.strengthMacro = 3.0 * l * r.peakForce / (2.0 * b * h * h);  // eq. 29
  if (desc_.poisson > 0.0f) {
    // Eq. 29 is Euler-Bernoulli's delta = F l^3 / (48 E I). A beam of l/h ~ 7 (Lu's) also deflects in shear,
    // F l / (4 kappa G A) at a point (Timoshenko), 5-6% of the total here: with G = E / (2 (1 + nu)) and Cowper's
    // kappa = 10 (1 + nu) / (12 + 11 nu) for a rectangle, E = dF/d(delta) (B_mid + S_mid 2 (1 + nu) / (kappa A)),
    // at a point (l^3 / (48 I) + l (1 + nu) / (2 kappa A)).
    const double nu = desc_.poisson, kappa = 10.0 * (1.0 + nu) / (12.0 + 11.0 * nu);
    r.youngTimoshenko = r.slope * (mid.bending + mid.shear * 2.0 * (1.0 + nu) / (kappa * area));
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
