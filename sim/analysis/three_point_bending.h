#pragma once
// Three-point bending probe (Lu et al. 2021, sec. 5.1): records the load-displacement curve of the indenter and
// derives the macroscopic modulus and bending strength with eq. 29.
#include <vector>

#include "io/scene_desc.h"

namespace frac {

struct LoadSample {
  double time, displacement, force;
};

struct BendingResult {
  double peakForce = 0.0;     // F_top (N)
  double slope = 0.0;         // dF / d(delta) on the loading branch (N/m)
  double youngMacro = 0.0;    // E_macro = l^3 / (4 b h^3) dF/d(delta)
  double strengthMacro = 0.0; // sigma_macro = 3 l F_top / (2 b h^2)
  int fitSamples = 0;
};

class ThreePointBendingProbe {
 public:
  explicit ThreePointBendingProbe(const ProbeDesc& desc) : desc_(desc) {}
  void sample(double time, double displacement, double force) { curve_.push_back({time, displacement, force}); }
  const std::vector<LoadSample>& curve() const { return curve_; }
  const ProbeDesc& desc() const { return desc_; }
  // Slope by least squares over the loading branch before the peak, where 0.05 F_top <= F <= fitFraction F_top.
  BendingResult result() const;

 private:
  ProbeDesc desc_;
  std::vector<LoadSample> curve_;
};

}  // namespace frac
