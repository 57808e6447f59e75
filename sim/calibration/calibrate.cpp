#include "calibration/calibrate.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "calibration/lab_test.h"
#include "io/material_library.h"

namespace frac {

using json = nlohmann::json;

namespace {

// The lab specimens' version (lab_test.cpp: shapes, loading, what is measured): part of every method's version.
constexpr int kLabVersion = 8;  // 3: Poisson's ratio over the side faces' distance (uniaxial_test.cpp); 4: the
                                // specimens' bonds scattered by the library's Weibull modulus; 5: the bar's grips
                                // hold its ends along its axis only; 6: the beam's deflection net of its supports';
                                // 7: the moduli fitted over a stretch of the run, not a band of the load (FitRange);
                                // 8: the beam's load a knife edge free along the beam, its E read from the probe's
                                // section means (three_point_bending.cpp)

struct MethodRule {
  const char* method;
  int version;
  bool bonded;       // bdem family: bond moduli and bond strengths; else peridynamics' moduli and critical stretch
  bool holdsPoisson; // false: nu is fixed by the model (pd-bond: 1/4)
};

// Calibration versions per method (bump with a change of the method's micro-to-macro map).
constexpr MethodRule kRules[] = {
    {"bdem", 2, true, true},   // 2: compensated positions (integrate.h addCompensated)
    {"rbdem", 2, true, true},  // Zhang's rod bond is Lu's bond (same keys), stepped implicitly; 2: as bdem's
    // 2: surface correction (pd_surface_correction.h); 3: its passes, and the specimens measured by their cells
    {"pd-bond", 3, false, false},
    {"pd-state", 2, false, true},  // 2: surface correction, the specimens measured by their cells
};

const MethodRule* ruleFor(const std::string& method) {
  for (const MethodRule& r : kRules)
    if (method == r.method) return &r;
  return nullptr;
}

// The bond shear-to-normal stiffness ratio of a spring lattice with Poisson's ratio nu (Liao et al. 1997:
// nu = (1 - q) / (4 + q)); small positive where nu >= 1/4, which such a lattice cannot hold.
double latticeRatio(double nu) { return std::max(0.02, (1.0 - 4.0 * nu) / (1.0 + nu)); }

// One secant step of f(x) = target from the last two points, or a multiplicative step from one.
double secant(double x0, double f0, double x1, double f1, double target) {
  if (std::abs(f1 - f0) < 1e-12 * std::max(std::abs(f1), 1e-30)) return x1;
  return x1 + (target - f1) * (x1 - x0) / (f1 - f0);
}

template <class... Numbers>
std::string format(const char* f, Numbers... numbers) {
  char text[256];
  std::snprintf(text, sizeof text, f, double(numbers)...);
  return text;
}

}  // namespace

bool canCalibrate(const std::string& method) { return ruleFor(method) != nullptr; }

json unbreakable(const std::string& method, json material) {
  if (method == "bdem" || method == "rbdem") material.update({{"tensile_strength", "inf"}, {"shear_strength", "inf"}});
  else if (method == "fem-debris") material.update({{"jc_a", "inf"}, {"jc_d1", "inf"}, {"spall_strength", "inf"}});
  else material["critical_stretch"] = 10.0;
  return material;
}

int calibrationVersion(const std::string& method, const std::string& softening) {
  const MethodRule* r = ruleFor(method);
  if (!r) return 0;
  // bdem's softening bonds fit on more lab tests and by their own steps: a version of their own on top.
  constexpr int kSofteningVersion = 2;  // 2: the moduli from the elastic runs only (a softening bar's curve bends
                                        // from about a third of its peak on: a failure run's fit read 1.9x E)
  return r->version * 1000 + kLabVersion + (softening == "linear" ? kSofteningVersion * 100000 : 0);
}

CalibrationResult calibrate(const CalibrationRequest& req) {
  const MethodRule* rule = ruleFor(req.method);
  if (!rule)
    throw std::invalid_argument("calibration of method '" + req.method +
                                "' is not available (bdem, rbdem, pd-bond, pd-state)");
  const bool softening = req.softening == "linear";
  if (!softening && req.softening != "brittle")
    throw std::invalid_argument("softening '" + req.softening + "': expected brittle or linear");
  if (softening && req.method != "bdem")
    throw std::invalid_argument("softening bonds are bdem's (softening 'linear' with method '" + req.method + "')");
  const auto start = std::chrono::steady_clock::now();
  const LibraryMaterial lib = loadLibraryMaterial(req.material, req.libraryHint, "--material");
  const double E = lib.property("young")->value, nu = lib.property("poisson")->value;
  const double strength = lib.property("tensile_strength")->value;
  // A flexural strength (glass's EN 572 value, marble's, porcelain's) is fitted on three-point bending, the test it
  // was measured with; an axial one on the tension bar.
  const bool bendingStrength = lib.property("tensile_strength")->test == "bending";
  if (softening && bendingStrength)
    throw std::invalid_argument("softening bonds are calibrated on an axial tensile strength and the fracture energy; "
                                "'" + req.material + "' gives a flexural one (brittle bonds fit it in bending)");
  const double fractureEnergy = lib.property("fracture_energy")->value;
  CalibrationResult result;
  result.target = {{"E", E}, {"nu", nu}, {"strength", strength}};
  if (const LibraryProperty* weibull = lib.property("weibull_modulus")) result.target["weibull_m"] = weibull->value;
  if (bendingStrength) result.target["strength_test"] = "bending";
  if (softening) result.target["fracture_energy"] = fractureEnergy;
  const double nuHeld = rule->holdsPoisson ? std::min(nu, rule->bonded ? 0.24 : 0.49) : 0.25;
  if (nuHeld != nu && !rule->holdsPoisson)
    result.notes.push_back(format("pd-bond holds Poisson's ratio 1/4 only (Silling 2000): the material's %.3g is not "
                                  "represented; E and the strength are calibrated anyway", nu));
  else if (nuHeld != nu)
    result.notes.push_back(req.method + format(": Poisson's ratio %.3g is beyond what a lattice of normal and shear "
                                               "bonds holds (< 1/4); calibrated towards %.3g", nu, nuHeld));

  LabSetup lab;
  lab.method = req.method;
  lab.elementRadius = req.elementRadius;
  lab.packing = req.packing;
  lab.threads = req.threads;
  lab.libraryHint = req.libraryHint;
  // The library's keys as a scene gets them: its Weibull modulus (where it gives one) scatters the specimens' bonds
  // about the scale being fitted, with the lab scenes' seed, as it scatters a scene's about the calibrated one.
  json keys = {{"library", req.material}, {"calibrated", false}};
  // Softening bonds: Hillerborg's linear law with a bond fracture energy, started at the closed form of a crack along
  // one lattice plane (the bonds across a plane of HCP hold 3.3 times its area, each spending G_b of its section).
  double bondEnergy = fractureEnergy / 3.3;
  if (softening) keys.update({{"softening", "linear"}, {"fracture_energy", bondEnergy}});
  const auto run = [&](bool toFailure, const char* stage, LabTest test = LabTest::Tension) {
    lab.material = toFailure ? keys : unbreakable(req.method, keys);  // moduli: the strengths out of reach
    lab.toFailure = toFailure;
    lab.test = test;
    // A bar of softening bonds is fitted by its peak: its run stops once the load has fallen to half of it (the
    // separation, slow where the bonds open far, is the notched bar's).
    lab.toSeparation = test == LabTest::NotchedTension;
    const LabMeasurement m = runLabTest(lab);
    ++result.labRuns;
    if (req.progress)
      req.progress("lab run " + std::to_string(result.labRuns) + " (" + stage + "): " +
                   format("E %.4g Pa, nu %.3f, strength %.4g Pa", m.young, m.poisson, toFailure ? m.strength : 0.0) +
                   format(", %.0f steps, %.1f s", double(m.steps), m.seconds));
    return m;
  };

  // Moduli.
  double q0 = 0.0, nu0 = 0.0;  // the previous point of the secant on nu(q)
  if (rule->bonded) {
    keys["young"] = E;
    keys["shear"] = latticeRatio(nuHeld) * E;
  } else {
    keys["bulk_modulus"] = rule->holdsPoisson ? E / (3.0 * (1.0 - 2.0 * nuHeld)) : E / 1.5;
    if (rule->holdsPoisson) keys["shear_modulus"] = E / (2.0 * (1.0 + nuHeld));
    keys["fracture_energy"] = 0.0;  // the critical stretch is calibrated directly
  }
  // One update of the moduli from a measurement: E scaled, nu by the secant rule on q (bdem family) or K and G
  // scaled (pd-state).
  const auto updateModuli = [&](const LabMeasurement& m, bool first) {
    if (rule->bonded) {
      const double young = keys["young"].get<double>(), q = keys["shear"].get<double>() / young;
      double next = q;
      if (std::abs(m.poisson - nuHeld) >= 0.005)
        next = first || q == q0 ? q * latticeRatio(nuHeld) / latticeRatio(m.poisson)
                                : secant(q0, nu0, q, m.poisson, nuHeld);
      next = std::clamp(next, 0.005, 4.0);
      q0 = q, nu0 = m.poisson;
      keys["young"] = young * E / m.young;
      keys["shear"] = next * young * E / m.young;
    } else if (rule->holdsPoisson) {
      const double kMeasured = m.young / (3.0 * (1.0 - 2.0 * m.poisson));
      const double gMeasured = m.young / (2.0 * (1.0 + m.poisson));
      keys["bulk_modulus"] = keys["bulk_modulus"].get<double>() * (E / (3.0 * (1.0 - 2.0 * nuHeld))) / kMeasured;
      keys["shear_modulus"] = keys["shear_modulus"].get<double>() * (E / (2.0 * (1.0 + nuHeld))) / gMeasured;
    } else {
      keys["bulk_modulus"] = keys["bulk_modulus"].get<double>() * E / m.young;
    }
  };
  const auto modulusOk = [&](const LabMeasurement& m) { return std::abs(m.young / E - 1.0) < 0.01; };
  const auto poissonOk = [&](const LabMeasurement& m) {
    return !rule->holdsPoisson || std::abs(m.poisson - nuHeld) < 0.01;
  };
  // Elastic runs first (cheap, strengths out of reach): a start for the moduli, refined on the runs to failure for
  // brittle bonds (linear up to their first break). Softening bonds are fitted here for good: their bars bend from
  // about a third of the peak on (docs/materials.md, "A notched tension bar"), where a failure run's fit window lies.
  LabMeasurement elastic;
  bool elasticOk = false;
  for (int k = 0; k < (softening ? 8 : 4); ++k) {
    elastic = run(false, "moduli");
    elasticOk = modulusOk(elastic) && poissonOk(elastic);
    if (elasticOk || elastic.young <= 0.0) break;
    updateModuli(elastic, k == 0);
  }
  if (softening && !elasticOk)
    result.notes.push_back("the moduli did not converge within 8 elastic runs (E within 1%, nu within 0.01)");

  // Strength: the bond strengths (their ratio kept) or the critical stretch.
  const std::string strengthKey = rule->bonded ? "tensile_strength" : "critical_stretch";
  const double shearRatio = [&] {
    const LibraryProperty* s = lib.property("shear_strength");
    return s ? s->value / strength : 1.0;
  }();
  // Then runs to failure, where all three are read from the same curve (damage before the peak can soften the
  // fitted E): the strength by the secant rule, the moduli as above, until E is within 1%, nu within 0.01 and the
  // strength within 2% (a flexural strength: the moduli only, the bar's strength then a start for the beam's).
  double x = rule->bonded ? strength : strength / E, x0 = 0.0, s0 = 0.0;
  const auto setStrength = [&](double value) {
    keys[strengthKey] = value;
    if (rule->bonded) keys["shear_strength"] = value * shearRatio;
  };
  bool done = false;
  LabMeasurement last;
  const auto fitStrength = [&] {
    done = false;
    for (int k = 0; k < 8 && !done; ++k) {
      setStrength(x);
      last = run(true, "to failure");
      const bool strong = bendingStrength || std::abs(last.strength / strength - 1.0) < 0.02;
      done = strong && (softening ? elasticOk : modulusOk(last) && poissonOk(last));
      if (done || last.strength <= 0.0 || last.young <= 0.0) break;
      if (!softening && (!modulusOk(last) || !poissonOk(last))) updateModuli(last, false);
      if (strong) continue;
      const double next =
          k == 0 || x == x0 ? x * strength / last.strength : secant(x0, s0, x, last.strength, strength);
      x0 = x, s0 = last.strength;
      x = std::clamp(next, 0.2 * x, 5.0 * x);
    }
    if (!done)
      result.notes.push_back(
          "did not converge within 8 runs to failure (E within 1%, nu within 0.01, strength within 2%)");
  };
  fitStrength();
  // Softening bonds: the fracture energy on the notched bar (RILEM TC 162-TDF: the work of fracture over the
  // ligament), the bond G_f by the secant rule within 5%, and the bar's strength again after each change of it (a
  // softening lattice's strength moves a little with its bonds' ductility). Both are nearly proportional to their
  // bond value at the lab's sizes (docs/materials.md, "A notched tension bar"), so a round or two lands.
  LabMeasurement notched;
  if (softening) {
    bool fractured = false;
    double g0 = 0.0, w0 = 0.0;
    for (int k = 0; k < 4 && done && !fractured; ++k) {
      notched = run(true, "notched bar to separation", LabTest::NotchedTension);
      if (req.progress)
        req.progress(format("  work of fracture over the ligament %.4g J/m^2 (bond G_f %.4g J/m^2)",
                            notched.fractureEnergy, bondEnergy));
      fractured = std::abs(notched.fractureEnergy / fractureEnergy - 1.0) < 0.05;
      if (fractured || notched.fractureEnergy <= 0.0) break;
      const double next = k == 0 || bondEnergy == g0
                              ? bondEnergy * fractureEnergy / notched.fractureEnergy
                              : secant(g0, w0, bondEnergy, notched.fractureEnergy, fractureEnergy);
      g0 = bondEnergy, w0 = notched.fractureEnergy;
      bondEnergy = std::clamp(next, 0.2 * bondEnergy, 5.0 * bondEnergy);
      keys["fracture_energy"] = bondEnergy;
      fitStrength();  // a fresh secant (its first step is multiplicative): the bar against its bonds' strength is
                      // another curve with another G_b
    }
    if (!fractured)
      result.notes.push_back("the fracture energy did not converge within 4 notched bars (within 5%)");
    done = done && fractured;
  }
  // A flexural strength: beams to failure, the strengths by the secant rule on eq. 29's flexural strength, started
  // where the bar broke at the library's value, divided by the beam-to-bar ratio an earlier calibration of the method
  // measured (flexuralRatioHint; with the library's Weibull scatter a beam breaks at 1.35-1.47 times the bar's stress,
  // lab version 5, so a start at the bar's value overshoots and costs a beam more). Brittle bonds are linear up to the
  // first crack and the load rate follows the expected peak, so a beam's strength is nearly proportional to its
  // bonds' (within ~4% over a 40% step): the secant lands on it. Then one more bar to failure with the fitted
  // strengths: its E, nu and tensile strength are the ones reported.
  LabMeasurement beam;
  if (done && bendingStrength) {
    const double ratio = req.flexuralRatioHint > 0.0 ? req.flexuralRatioHint : 1.0;
    if (req.progress && ratio != 1.0)
      req.progress(format("first beam at the beam-to-bar strength ratio %.3f of an earlier calibration", ratio));
    x = x * strength / (last.strength * ratio);
    bool bent = false;
    for (int k = 0; k < 4 && !bent; ++k) {
      setStrength(x);
      beam = run(true, "bending to failure", LabTest::Bending);
      bent = std::abs(beam.strength / strength - 1.0) < 0.02;
      if (bent || beam.strength <= 0.0) break;
      const double next = k == 0 || x == x0 ? x * strength / beam.strength : secant(x0, s0, x, beam.strength, strength);
      x0 = x, s0 = beam.strength;
      x = std::clamp(next, 0.2 * x, 5.0 * x);
    }
    if (bent) last = run(true, "tension at the fitted strengths");
    done = bent && modulusOk(last) && poissonOk(last);
    if (!bent)
      result.notes.push_back("the flexural strength did not converge within 4 beams to failure (within 2%)");
    result.notes.push_back(format("the library's strength is a flexural one: three-point bending measures %.4g Pa, "
                                  "the tension bar %.4g Pa (bending E %.4g Pa)",
                                  beam.strength, last.strength, beam.young));
  }
  result.converged = done;
  result.keys = keys;
  result.keys.erase("library");
  result.keys.erase("calibrated");
  result.measured = {{"E", last.young}, {"nu", last.poisson}, {"strength", last.strength}};
  if (bendingStrength)
    result.measured.update({{"strength", beam.strength}, {"strength_test", "bending"},
                            {"tensile_strength", last.strength}, {"bending_E", beam.young}});
  if (softening)  // the moduli of the elastic run; the bar's to failure reads a softened slope
    result.measured.update({{"E", elastic.young}, {"nu", elastic.poisson}, {"E_to_failure", last.young},
                            {"fracture_energy", notched.fractureEnergy}});
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace frac
