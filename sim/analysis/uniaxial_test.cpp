#include "analysis/uniaxial_test.h"

#include <algorithm>
#include <cmath>

#include "analysis/load_curve.h"
#include "io/json_validate.h"

namespace frac {

namespace {

double meanAlong(const Solver& solver, const std::vector<int>& elements, const vec3& axis) {
  double sum = 0.0;
  for (const vec3& d : solver.displacementsOf(elements)) sum += glm::dot(d, axis);
  return elements.empty() ? 0.0 : sum / double(elements.size());
}

}  // namespace

UniaxialProbe::UniaxialProbe(const ProbeDesc& desc, const Solver& solver, const std::string& scenePath,
                             int probeIndex, std::vector<std::string> grips)
    : desc_(desc) {
  for (std::string& name : grips) {
    const KinematicLoad load = solver.kinematicLoad(name);
    grips_.push_back({std::move(name), load.displacement, load.force});
  }
  const std::string where = "/probes/" + std::to_string(probeIndex);
  const ReferenceElements& body = solver.referenceElements();
  if (body.index.empty()) throwSceneError(scenePath, where, "the scene has no body elements to measure");
  const vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  double extent[3];
  for (int a = 0; a < 3; ++a) extent[a] = body.extent(axes[a]);
  const int along = int(std::max_element(extent, extent + 3) - extent);
  const int across1 = (along + 1) % 3, across2 = (along + 2) % 3;
  axis_ = axes[along];
  gauge_ = desc.gaugeLength;
  if (gauge_ >= extent[along])
    throwSceneError(scenePath, where + "/gauge_length",
                    "the gauge (" + std::to_string(gauge_) + " m) must be shorter than the bar (" +
                        std::to_string(extent[along]) + " m along its long axis)");
  // The bar's middle, from the element centres; the lateral gauge and the section are read in the middle third of
  // the gauge, so that a dog-bone (a gauge narrower than its gripped ends) is measured by its gauge.
  double lo = 1e30, hi = -1e30, radius = 0.0;
  for (size_t k = 0; k < body.index.size(); ++k) {
    lo = std::min(lo, double(body.position[k][along]));
    hi = std::max(hi, double(body.position[k][along]));
    radius = std::max(radius, double(body.radius[k]));
  }
  const double middle = 0.5 * (lo + hi);
  double sideLo[3] = {1e30, 1e30, 1e30}, sideHi[3] = {-1e30, -1e30, -1e30};
  for (size_t k = 0; k < body.index.size(); ++k) {
    if (std::abs(body.position[k][along] - middle) > gauge_ / 6.0) continue;
    for (int a = 0; a < 3; ++a) {
      sideLo[a] = std::min(sideLo[a], double(body.position[k][a]));
      sideHi[a] = std::max(sideHi[a], double(body.position[k][a]));
    }
  }
  const int side = sideHi[across1] - sideLo[across1] >= sideHi[across2] - sideLo[across2] ? across1 : across2;
  side_ = axes[side];
  area_ = desc.section == ProbeSection::Cells
              ? body.sectionArea(axes[along], axes[across1], axes[across2], gauge_ / 3.0)
              : extent[across1] * extent[across2];
  // A cross-section: the elements within one radius of the plane (one layer of any packing).
  std::vector<double> lowSideY, highSideY;  // the side faces' element centres, across
  for (size_t k = 0; k < body.index.size(); ++k) {
    const double x = body.position[k][along], y = body.position[k][side];
    if (std::abs(x - (middle - 0.5 * gauge_)) <= radius) lowEnd_.push_back(body.index[k]);
    if (std::abs(x - (middle + 0.5 * gauge_)) <= radius) highEnd_.push_back(body.index[k]);
    if (std::abs(x - middle) > gauge_ / 6.0) continue;
    if (y <= sideLo[side] + radius) lowSide_.push_back(body.index[k]), lowSideY.push_back(y);
    if (y >= sideHi[side] - radius) highSide_.push_back(body.index[k]), highSideY.push_back(y);
  }
  if (lowEnd_.empty() || highEnd_.empty() || lowSide_.empty() || highSide_.empty())
    throwSceneError(scenePath, where + "/gauge_length", "no body elements at the gauge's cross-sections");
  // The lateral gauge: the distance between the two side faces' element centres, whose change the lateral strain is
  // (not the bar's width over the spheres: that, 2 r wider, read Poisson's ratio 2 r / width low, 13% for a bar
  // 8 elements across and 6% for 16, so that a lattice's nu seemed to grow with the bar).
  auto mean = [](const std::vector<double>& values) {
    double sum = 0.0;
    for (double v : values) sum += v / double(values.size());
    return sum;
  };
  width_ = mean(highSideY) - mean(lowSideY);
}

void UniaxialProbe::sample(double time, const Solver& solver) {
  const KinematicLoad load = solver.kinematicLoad(desc_.kinematic);
  Sample s;
  s.time = time;
  s.axial = (meanAlong(solver, highEnd_, axis_) - meanAlong(solver, lowEnd_, axis_)) / gauge_;
  s.lateral = (meanAlong(solver, highSide_, side_) - meanAlong(solver, lowSide_, side_)) / width_;
  s.stress = load.force / area_;
  curve_.push_back(s);
  for (Grip& g : grips_) {  // trapezoids of each grip's load over its travel
    const KinematicLoad now = solver.kinematicLoad(g.name);
    work_ += 0.5 * (g.force + now.force) * (now.displacement - g.displacement);
    g.displacement = now.displacement;
    g.force = now.force;
  }
}

UniaxialResult UniaxialProbe::result() const {
  UniaxialResult r;
  if (curve_.empty()) return r;
  // Smoothed as the bending probe's curve: the explicit runs vibrate about the quasi-static one.
  const size_t half = curve_.size() / 200;
  const std::vector<double> stress = movingAverage(curve_, &Sample::stress, half);
  const std::vector<double> axial = movingAverage(curve_, &Sample::axial, half);
  const size_t peak = peakIndex(stress);
  r.strength = stress[peak];
  r.strainAtPeak = std::abs(axial[peak]);
  // E and nu over the stretch of the run from 0.2 to fitFraction of the strength, smoothed over a share of it
  // (FitRange: a band on the stress would bias both slopes).
  const FitRange range = fitRange(stress, peak, 0.2, desc_.fitFraction);
  LineFit stiffness, contraction;
  if (!range.empty) {
    const size_t wide = range.smoothing(half);
    const std::vector<double> s = movingAverage(curve_, &Sample::stress, wide);
    const std::vector<double> a = movingAverage(curve_, &Sample::axial, wide);
    const std::vector<double> l = movingAverage(curve_, &Sample::lateral, wide);
    for (size_t k = range.first; k <= range.last; ++k) {
      stiffness.add(std::abs(a[k]), s[k]);
      contraction.add(a[k], l[k]);
    }
  }
  r.fitSamples = stiffness.count();
  r.work = work_;
  r.separated = std::abs(stress.back()) < kSeparated * std::abs(r.strength);
  r.young = stiffness.slope();
  r.poisson = -contraction.slope();
  return r;
}

}  // namespace frac
