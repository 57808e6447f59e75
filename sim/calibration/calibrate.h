#pragma once
// Calibration (issue "Real materials, calibrated", item 3): the micro parameters of a method for which the virtual
// tension test (calibration/lab_test.h) measures a library material's macro Young's modulus, Poisson's ratio and
// tensile strength. An outer iteration over lab runs, moduli first (with the strengths out of reach), then the
// strength, each started from the closed-form estimates:
//  - bdem, rbdem (Zhang's rod bond is Lu's): bond modulus E_b and the ratio q = G_b / E_b of Lu's bond shear modulus. A lattice of normal and
//    shear springs has nu = (1 - q) / (4 + q) (Liao et al. 1997), so q0 = (1 - 4 nu) / (1 + nu); then E_b is scaled
//    by E / E_measured (E_macro is linear in E_b at fixed q) and q follows nu by the secant rule.
//  - pd-bond: K of eq. 4 (Silling's micromodulus c = 18 K / (pi delta^4)); its nu is 1/4 whatever the material's
//    (Silling 2000), said in the result's notes; K0 = E / 1.5, then scaled by E / E_measured.
//  - pd-state: K and G (Chen eq. 10), K0 = E / (3 (1 - 2 nu)), G0 = E / (2 (1 + nu)), then each scaled by the ratio
//    of the target to the measured K and G.
//  - strengths: the bond tensile and shear strengths together (bdem family) or the critical stretch (peridynamics),
//    started at the library strength (bond) or strength / E (stretch), then by the secant rule on the measured peak;
//    a flexural strength (the library property's "test": "bending", as glass's EN 572 value) then on three-point
//    bending's eq. 29, the test it was measured with;
//  - bdem's softening bonds (softening "linear"): also the bond fracture energy, started at G_f / 3.3 (a crack along
//    one HCP plane crosses bonds of 3.3 times its area), by the secant rule on the notched tension bar's work of
//    fracture over its ligament (RILEM TC 162-TDF), the bar's strength fitted again after each change; their moduli
//    from the elastic runs only (a softening bar's curve bends from about 40% of its peak on).
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace frac {

struct CalibrationRequest {
  std::string method = "bdem";
  std::string material;           // library name
  float elementRadius = 0.001f;   // m
  std::string packing = "hcp";
  std::string softening = "brittle";  // bdem's bonds: "linear" softening has tables of its own, its G_f fitted too
  int threads = 0;
  std::string libraryHint;        // a scene path whose library folders are searched (empty: the defaults)
  std::function<void(const std::string&)> progress;  // one line per lab run
  // Where a flexural strength's first beam starts: the beam-to-bar strength ratio of the method's lattice at equal
  // bonds, as an earlier calibration measured it (calibration_table.h: withEarlierHints); 0: none, the first beam
  // starts where the bar broke at the library's value.
  double flexuralRatioHint = 0.0;
};

struct CalibrationResult {
  nlohmann::json keys = nlohmann::json::object();      // the scene material keys found (merged over the library's)
  nlohmann::json target = nlohmann::json::object();    // E, nu, strength of the library
  nlohmann::json measured = nlohmann::json::object();  // E, nu, strength of the last lab run with `keys`
  std::vector<std::string> notes;                      // what the method cannot hold, what did not converge
  int labRuns = 0;
  double seconds = 0.0;
  bool converged = false;
};

// The methods calibration knows, and each one's calibration version: bump it when the method's micro-to-macro map
// changes (a kernel, a default) so that cached tables are recomputed.
bool canCalibrate(const std::string& method);
// Softening bonds' entries ("linear") carry a version of their own on top.
int calibrationVersion(const std::string& method, const std::string& softening = "brittle");

// `material` (scene material keys) with the method's strengths out of reach: an elastic lab run.
nlohmann::json unbreakable(const std::string& method, nlohmann::json material);

// Runs the iteration; a SceneError for an unknown material, std::invalid_argument for a method it cannot calibrate
// and for softening bonds outside bdem or with a flexural library strength.
CalibrationResult calibrate(const CalibrationRequest& request);

}  // namespace frac
