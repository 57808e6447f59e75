#pragma once
// Three-point bending probe (Lu et al. 2021, sec. 5.1): records the load-displacement curve of the indenter and
// derives the macroscopic modulus and bending strength with eq. 29; on a notched beam (probe key "ligament") also
// the fracture energy from the work of fracture.
#include <vector>

#include "io/scene_desc.h"

namespace frac {

struct LoadSample {
  double time, displacement, force;
  double quarter = 0.0;  // with supports: the net deflection half-way between the load and the supports (m)
};

struct BendingResult {
  double peakForce = 0.0;     // F_top (N)
  double slope = 0.0;         // dF / d(delta) on the loading branch (N/m)
  double youngMacro = 0.0;    // E_macro = l^3 / (4 b h^3) dF/d(delta)
  // E_timoshenko and E_shear_free take the deflections as the probe measures them, the mean over vertical cylinders
  // of diameter h (sectionMean in three_point_bending.cpp), not a point's.
  double youngTimoshenko = 0.0;  // E with the shear deflection (probe key "poisson" > 0), see result()
  double youngShearFree = 0.0;   // with supports: E from the mid-span and quarter-span deflections, see result()
  double strengthMacro = 0.0; // sigma_macro = 3 l F_top / (2 b h^2)
  int fitSamples = 0;
  double work = 0.0;            // J: area under the load-deflection curve (with a ligament)
  double fractureEnergy = 0.0;  // J/m^2: work / (b x ligament), the work-of-fracture G_F of a notched beam
};

class ThreePointBendingProbe {
 public:
  explicit ThreePointBendingProbe(const ProbeDesc& desc) : desc_(desc) {}
  void sample(double time, double displacement, double force, double quarter = 0.0) {
    curve_.push_back({time, displacement, force, quarter});
  }
  const std::vector<LoadSample>& curve() const { return curve_; }
  const ProbeDesc& desc() const { return desc_; }
  // F_top is the peak of the smoothed force; the slope of smoothed force over smoothed deflection is fitted on the
  // loading branch before it, from where F first reaches 0.2 F_top (below it the supports and the indenter are still
  // seating) to where it first reaches fitFraction F_top (FitRange, load_curve.h).
  BendingResult result() const;
  // The packed beam's own height and width (the section its lattice's cells fill: ReferenceElements::depth and
  // sectionArea), used in eq. 29 instead of the nominal ones: a coarse lattice does not fill a box exactly, and I
  // grows with h^3.
  void setSection(double width, double height) {
    width_ = width;
    height_ = height;
  }
  double width() const { return width_ > 0.0 ? width_ : desc_.width; }
  double height() const { return height_ > 0.0 ? height_ : desc_.height; }
  // The beam's length along its axis, the load at its middle (0: long enough that no section reaches an end).
  void setLength(double length) { length_ = length; }

 private:
  ProbeDesc desc_;
  std::vector<LoadSample> curve_;
  double width_ = 0.0, height_ = 0.0, length_ = 0.0;
};

}  // namespace frac
