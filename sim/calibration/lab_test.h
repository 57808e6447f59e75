#pragma once
// Virtual lab tests (issue "Real materials, calibrated", item 2): specimens built for any method, material, element
// radius and packing, run quasi-statically, with their measured macro values. The specimens are sized in element
// diameters (a tension bar 24 x 8 x 8, a bending beam 42 x 6.8 x 6.8 on a span of 36 after Lu's), so a lab run costs
// the same at every radius; the load is applied slowly against the material's wave speed (its peak strain reached
// after 20-60 crossings of the wave, and a beam's after 12 periods of its first flexural mode), so a run costs the
// same for soft and stiff materials.
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

namespace frac {

enum class LabTest { Tension, Compression, Bending, NotchedBending, NotchedTension };

struct LabSetup {
  LabTest test = LabTest::Tension;
  std::string method = "bdem";
  nlohmann::json material = nlohmann::json::object();  // scene material keys, e.g. {"library": "glass", "young": 7e10}
  float elementRadius = 0.001f;                        // m
  std::string packing = "hcp";
  bool toFailure = true;   // false: stop at the expected peak (moduli only)
  bool toSeparation = true;  // softening bonds: run until the specimen has come apart (its work of fracture);
                             // false: until the load has fallen to half its peak (E, nu and the strength only)
  int across = 8;          // tension/compression: element diameters across the bar (its length is 3x); bending:
                           // the beam is across / 8 times Lu's (8: 13.6 r deep, 84 r long)
  int threads = 0;         // 0 = all cores
  unsigned long long seed = 1;  // the scene's seed: the draws of a Weibull-scattered material's bond strengths
  std::string libraryHint; // a scene file path whose library folders are searched (empty: the defaults)
  double centre[3] = {0.0, 0.0, 0.0};  // m: where the specimen stands (every body, grip and the camera moved by it)
  // Called once the specimen is built, before the first step: the most steps the run may take and the simulated
  // time they cover (a run to failure stops earlier, when the load has fallen). Empty: not called.
  std::function<void(long long steps, double seconds)> planned;
};

struct LabMeasurement {
  double young = 0.0;          // Pa: tension/compression E from the gauge; bending eq. 29
  double poisson = 0.0;        // uniaxial tests only
  double strength = 0.0;       // Pa: peak stress (bending: eq. 29's flexural strength)
  double fractureEnergy = 0.0; // J/m^2: the work of fracture over the ligament (notched bending) or the section
                               // (a tension bar that came apart)
  double dissipatedEnergy = 0.0;  // J/m^2: what softening bonds dissipated over the same area (bdem; else 0)
  bool failed = false;         // the load fell past its peak within the run
  long long steps = 0;
  double seconds = 0.0;
  nlohmann::json summary;      // what Simulation::measurements() gave
};

const char* labTestName(LabTest test);

// The lab scene as a scene document (what a user could save and open), validated when run.
nlohmann::json labSceneJson(const LabSetup& setup);

// Runs the test; a SceneError for a material or method the scene cannot take.
LabMeasurement runLabTest(const LabSetup& setup);

}  // namespace frac
