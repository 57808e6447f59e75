#pragma once
// Uniaxial lab test probe (scene probe "uniaxial"): a bar pulled or pushed along its long axis by a grip. It reads the
// grip's load and two gauges on the body, the way an extensometer does in a materials lab:
//  - axial strain: the change in distance between two cross-sections `gauge_length` apart about the bar's middle,
//    over gauge_length (free of the grips' end effects);
//  - lateral strain: the change in distance between the bar's two side faces across its wider side, over that distance
//    (between the faces' element centres), in the middle third of the gauge;
//  - stress: the grip's force over the bar's cross-section in the middle third of the gauge: by default the section
//    its lattice's cells fill there (ReferenceElements::sectionArea, as the bending probe's; without a lattice, the
//    extents across of the elements there; with `section` "spheres", the whole body's extents).
// The side faces and the section are the gauge's, so a dog-bone (a gauge narrower than its gripped ends) is measured
// by its gauge; the gauge must lie within its parallel length.
// From the curve: E = d(stress)/d(strain) and Poisson's ratio nu = -d(lateral)/d(axial), both fitted on the loading
// branch between 0.2 and fit_fraction of the peak stress, and the strength = the peak stress (tension or compression).
// The work of fracture: the work every grip did on the bar (the integral of its load over its travel, summed over the
// grips), which once the bar has come apart (its load below kSeparated of the peak) is all spent in the crack: over
// the section it is the fracture energy, as the uniaxial tension test of RILEM TC 162-TDF takes the area under the
// stress-opening curve.
#include <string>
#include <vector>

#include "io/scene_desc.h"
#include "solvers/solver.h"

namespace frac {

// One step of the uniaxial test: its gauges' strains and the stress.
struct UniaxialSample {
  double time, axial, lateral, stress;  // s; strains signed (tension > 0), stress > 0 while the bar resists
};

struct UniaxialResult {
  double young = 0.0;         // Pa, E_macro
  double poisson = 0.0;       // nu_macro
  double strength = 0.0;      // Pa, peak |stress|
  double strainAtPeak = 0.0;  // |axial strain| at the peak
  int fitSamples = 0;
  double work = 0.0;          // J: the grips' work on the bar
  bool separated = false;     // the last load below kSeparated of the peak: the work is the work of fracture
};

class UniaxialProbe {
 public:
  static constexpr double kSeparated = 0.02;
  // Picks the gauge elements from the solver's reference elements; a SceneError naming the probe's key when the
  // body is too short for the gauge or has no elements. `grips`: the scene's kinematic bodies, whose work it sums.
  UniaxialProbe(const ProbeDesc& desc, const Solver& solver, const std::string& scenePath, int probeIndex,
                std::vector<std::string> grips);
  void sample(double time, const Solver& solver);
  UniaxialResult result() const;
  double currentStress() const { return curve_.empty() ? 0.0 : curve_.back().stress; }
  const std::vector<UniaxialSample>& curve() const { return curve_; }
  const ProbeDesc& desc() const { return desc_; }
  double area() const { return area_; }
  double gaugeLength() const { return gauge_; }
  double width() const { return width_; }  // m: the lateral gauge, between the side faces' element centres

 private:
  using Sample = UniaxialSample;
  ProbeDesc desc_;
  vec3 axis_{1, 0, 0}, side_{0, 1, 0};
  std::vector<int> lowEnd_, highEnd_, lowSide_, highSide_;  // gauge cross-sections, side faces
  double gauge_ = 0.0, width_ = 0.0, area_ = 0.0;
  std::vector<Sample> curve_;
  struct Grip {
    std::string name;
    double displacement = 0.0, force = 0.0;  // at the last sample
  };
  std::vector<Grip> grips_;
  double work_ = 0.0;
};

}  // namespace frac
