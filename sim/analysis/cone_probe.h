#pragma once
// The `cone` probe: where the broken bonds lie below an indentation, as a Hertzian cone crack is described (Zhang
// et al. sec. 5.4, Fig. 12-13: a sphere driven into a thick glass plate). The damaged elements (half or more of their
// bonds broken) are binned by depth below `apex` along `axis`; in each bin the outer radius of the damage (its 90th
// percentile distance from the axis) gives the flank, whose line fitted over depth gives the cone's angle to the
// surface. Also reported: how deep the damage reaches and how deep the body is there, so that a crack through the
// whole thickness under the indenter shows as such.
#include <string>

#include "io/scene_desc.h"
#include "solvers/solver.h"

namespace frac {

struct ConeResult {
  int damagedElements = 0;
  int fittedBins = 0;           // depth bins with at least kConeMinPerBin damaged elements
  double angleToSurface = 0.0;  // degrees: 90 a column, below 90 a cone widening downwards, above 90 narrowing
  double damageDepth = 0.0;     // m below the apex: the deepest damaged element's centre
  double bodyDepth = 0.0;       // m below the apex: the deepest body element's centre within the damage's reach
};

class ConeProbe {
 public:
  // Throws a SceneError naming the probe when the scene has no body elements or the axis is zero.
  ConeProbe(const ProbeDesc& desc, const Solver& solver, const std::string& scenePath, int probeIndex);
  ConeResult result(const Solver& solver) const;

 private:
  vec3 apex_{0.0f}, axis_{0.0f, -1.0f, 0.0f};
  double binWidth_ = 0.0;  // one element diameter
};

}  // namespace frac
