// fracture-calibrate: a method's micro parameters for a library material (sim/calibration/calibrate.h), cached in
// assets/calibration/METHOD.json, or one virtual lab test (sim/calibration/lab_test.h). frac_sim only, like
// fracture-bench, so it also runs where the desktop packages are missing.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "calibration/calibration_table.h"
#include "calibration/lab_test.h"
#include "io/atomic_file.h"
#include "io/material_library.h"
#include "exit_code.h"

using namespace frac;
using json = nlohmann::json;

namespace {

const char* const kUsage =
    "usage: fracture-calibrate --method M --material NAME [--element-radius R] [--packing hcp|cubic|random]\n"
    "                          [--threads T] [--force] [--lab tension|compression|bending|notched_bending|\n"
    "                          notched_tension]\n"
    "                          [--uncalibrated] [--elastic] [--across N] [--seed S] [--write-scene FILE]\n"
    "                          [--softening brittle|linear]\n"
    "Finds the micro parameters of method M (bdem, rbdem, pd-bond, pd-state) for which the virtual tension test\n"
    "measures the library material's Young's modulus, Poisson's ratio and tensile strength (a flexural strength,\n"
    "\"test\": \"bending\" in the library file, on three-point bending), printing each lab run;\n"
    "the result is cached in assets/calibration/M.json (or $FRACTURE_CALIBRATION_DIR) and reused until the material\n"
    "file or the method's calibration version changes (--force recomputes). The last line is a JSON record (time, lab\n"
    "runs). --softening linear (bdem): bonds that soften past their strength over Hillerborg's opening\n"
    "2 G_f / sigma_c, calibrated also to the library's fracture energy on a notched bar (an axial strength only).\n"
    "--lab runs one lab test with the calibrated material (--uncalibrated: the library's values as they are) and\n"
    "prints its measured macro values (--elastic: with the strengths out of reach, to the expected peak; --across: a\n"
    "tension or compression bar N element diameters thick, 8 by default, and a bending beam N / 8 times Lu's, so\n"
    "that --across 16 is the default specimen at half the radius, drawn twice as large with its flaw cells\n"
    "(weibull_cell) scaled alike; --seed: the draws of a Weibull-scattered material's\n"
    "bonds, 1 as in calibration); --write-scene saves that lab test as a scene file for fracture-sandbox.\n"
    "Exit 0, 1 when the calibration did not converge, 2 for bad arguments or a bad material.\n";

[[noreturn]] void usage(const std::string& problem) {
  std::cerr << "fracture-calibrate: " << problem << "\n" << kUsage;
  std::exit(2);
}

LabTest labTestNamed(const std::string& name) {
  for (LabTest t : {LabTest::Tension, LabTest::Compression, LabTest::Bending, LabTest::NotchedBending,
                    LabTest::NotchedTension})
    if (name == labTestName(t)) return t;
  usage("--lab: unknown test '" + name + "' (tension, compression, bending, notched_bending, notched_tension)");
}

}  // namespace

int main(int argc, char** argv) {
  CalibrationRequest request;
  request.material = "";
  std::string lab, sceneOut;
  bool force = false, uncalibrated = false, elastic = false;
  int across = 8;
  unsigned long long seed = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(arg + " needs a value");
      return argv[++i];
    };
    const auto number = [&](double lo, double hi) {
      const std::string text = value();
      char* end = nullptr;
      const double x = std::strtod(text.c_str(), &end);
      if (end == text.c_str() || *end || !(x >= lo && x <= hi))
        usage(arg + ": expected a number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got '" + text +
              "'");
      return x;
    };
    if (arg == "--method") request.method = value();
    else if (arg == "--material") request.material = value();
    else if (arg == "--element-radius") request.elementRadius = float(number(1e-6, 10.0));
    else if (arg == "--packing") request.packing = value();
    else if (arg == "--threads") request.threads = int(number(0, 1024));
    else if (arg == "--force") force = true;
    else if (arg == "--elastic") elastic = true;
    else if (arg == "--across") across = int(number(2, 64));
    else if (arg == "--seed") seed = (unsigned long long)(number(0, 1e15));
    else if (arg == "--lab") lab = value();
    else if (arg == "--uncalibrated") uncalibrated = true;
    else if (arg == "--write-scene") sceneOut = value();
    else if (arg == "--softening") request.softening = value();
    else if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      return 0;
    } else usage("unknown argument '" + arg + "'");
  }
  if (request.material.empty()) usage("--material is required");
  const std::vector<std::string> known = libraryMaterialNames(request.libraryHint);
  const bool plainName = request.material.find_first_of("/\\.") == std::string::npos;  // (else a material file)
  if (plainName && std::find(known.begin(), known.end(), request.material) == known.end()) {
    std::string list;
    for (const std::string& n : known) list += (list.empty() ? "" : ", ") + n;
    usage("--material: unknown library material '" + request.material + "' (the library has: " + list + ")");
  }
  if (request.packing != "hcp" && request.packing != "cubic" && request.packing != "random")
    usage("--packing: expected hcp, cubic or random, got '" + request.packing + "'");
  if (request.softening != "brittle" && request.softening != "linear")
    usage("--softening: expected brittle or linear, got '" + request.softening + "'");
  if (request.softening == "linear" && request.method != "bdem")
    usage("--softening linear: softening bonds are bdem's, not " + request.method + "'s");
  if (!canCalibrate(request.method) && !(uncalibrated && !lab.empty()))
    usage("--method: calibration is available for bdem, rbdem, pd-bond and pd-state, not '" + request.method + "'");
  request.progress = [](const std::string& line) { std::cerr << "  " << line << "\n"; };
  return exitCodeOf([&]() -> int {
    json micro = json::object();
    if (!uncalibrated) {
      bool cached = false;
      std::string why;
      if (!force && !findCalibration(request, &why)) std::cerr << "calibrating: " << why << "\n";
      CalibrationResult r;
      if (force) {
        r = calibrate(withEarlierHints(request));
        storeCalibration(request, r);
      } else {
        r = calibrateCached(request, &cached);
      }
      micro = r.keys;
      for (const std::string& note : r.notes) std::cerr << "note: " << note << "\n";
      const json record = {{"method", request.method},      {"material", request.material},
                           {"element_radius", request.elementRadius}, {"packing", request.packing},
                           {"cached", cached},    {"converged", r.converged},
                           {"keys", r.keys},                {"target", r.target},
                           {"measured", r.measured},        {"lab_runs", r.labRuns},
                           {"seconds", r.seconds}};
      if (lab.empty()) {
        std::cout << record.dump() << "\n";
        return r.converged ? 0 : 1;
      }
    }
    LabSetup setup;
    setup.test = labTestNamed(lab);
    setup.method = request.method;
    setup.material = micro;
    setup.material["library"] = request.material;
    setup.material["calibrated"] = !uncalibrated;
    if (request.softening == "linear") setup.material["softening"] = "linear";
    if (elastic) setup.material = unbreakable(request.method, setup.material);
    setup.toFailure = !elastic;
    setup.elementRadius = request.elementRadius;
    setup.packing = request.packing;
    setup.across = across;
    setup.seed = seed;
    setup.threads = request.threads;
    if (!sceneOut.empty()) {
      writeFileAtomically(sceneOut, labSceneJson(setup).dump(2) + "\n");
      std::cerr << "wrote " << sceneOut << "\n";
      return 0;
    }
    setup.planned = [&](long long steps, double seconds) {
      std::cerr << lab << " test: at most " << steps << " steps over " << seconds * 1e3
                << " ms of loading" << (elastic ? " (to the expected peak)\n" : " (it stops once the load has fallen)\n");
    };
    const LabMeasurement m = runLabTest(setup);
    std::cout << json{{"test", lab},        {"method", request.method}, {"material", request.material},
                      {"calibrated", !uncalibrated}, {"E", m.young}, {"nu", m.poisson}, {"strength", m.strength},
                      {"fracture_energy", m.fractureEnergy}, {"dissipated_fracture_energy", m.dissipatedEnergy},
                      {"failed", m.failed}, {"steps", m.steps},
                      {"seconds", m.seconds}, {"measurements", m.summary}}
                     .dump()
              << "\n";
    return 0;
  });
}
