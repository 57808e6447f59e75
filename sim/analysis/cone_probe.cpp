#include "analysis/cone_probe.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "io/json_validate.h"

namespace frac {

namespace {
constexpr int kConeMinPerBin = 3;
constexpr float kDamaged = 0.5f;  // an element counts as broken off with half of its bonds broken
}  // namespace

ConeProbe::ConeProbe(const ProbeDesc& desc, const Solver& solver, const std::string& scenePath, int probeIndex) {
  const std::string where = "/probes/" + std::to_string(probeIndex);
  const ReferenceElements& body = solver.referenceElements();
  if (body.index.empty()) throwSceneError(scenePath, where, "the scene has no body elements to measure");
  const double length = std::sqrt(double(glm::dot(desc.axis, desc.axis)));
  if (!(length > 0.0)) throwSceneError(scenePath, where + "/axis", "expected a nonzero direction into the body");
  apex_ = desc.apex;
  axis_ = desc.axis / float(length);
  double radius = 0.0;
  for (const float r : body.radius) radius = std::max(radius, double(r));
  binWidth_ = 2.0 * radius;
}

ConeResult ConeProbe::result(const Solver& solver) const {
  const ReferenceElements& body = solver.referenceElements();
  const std::vector<float> damage = solver.damage();
  // Element k's depth below the apex along the axis and its distance from the axis.
  const auto place = [&](size_t k, double& depth, double& radial) {
    const vec3 offset = body.position[k] - apex_;
    depth = glm::dot(offset, axis_);
    radial = glm::length(offset - float(depth) * axis_);
  };
  ConeResult out;
  std::map<int, std::vector<double>> radiiByBin;  // depth bin -> distances from the axis of its damaged elements
  double reach = 0.0, depth = 0.0, radial = 0.0;
  for (size_t k = 0; k < body.index.size(); ++k) {
    const float d = damage[size_t(body.index[k])];
    if (d == kNoBonds || d < kDamaged) continue;
    place(k, depth, radial);
    ++out.damagedElements;
    out.damageDepth = std::max(out.damageDepth, depth);
    reach = std::max(reach, radial);
    if (depth >= 0.0) radiiByBin[int(depth / binWidth_)].push_back(radial);
  }
  for (size_t k = 0; k < body.index.size(); ++k) {  // the body below the apex, within the damage's reach
    place(k, depth, radial);
    if (radial <= reach + binWidth_) out.bodyDepth = std::max(out.bodyDepth, depth);
  }
  // The flank: each bin's outer radius (90th percentile), a least-squares line radius(depth).
  double sd = 0.0, sr = 0.0, sdd = 0.0, sdr = 0.0;
  for (auto& [bin, radii] : radiiByBin) {
    if (int(radii.size()) < kConeMinPerBin) continue;
    std::sort(radii.begin(), radii.end());
    const double outer = radii[size_t(std::floor(0.9 * double(radii.size() - 1)))];
    const double depth = (bin + 0.5) * binWidth_;
    sd += depth, sr += outer, sdd += depth * depth, sdr += depth * outer;
    ++out.fittedBins;
  }
  if (out.fittedBins >= 2) {
    const double n = out.fittedBins, slope = (n * sdr - sd * sr) / (n * sdd - sd * sd);  // d(radius) / d(depth)
    out.angleToSurface = std::atan2(1.0, slope) * 180.0 / kPi;
  }
  return out;
}

}  // namespace frac
