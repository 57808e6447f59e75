// fracture-calibrate end to end: bad arguments and materials exit 2 naming what was wrong; a shipped table answers
// with no lab run; a lab test written as a scene runs in fracture-sandbox and reports its measurements.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace {

struct CalibrateOutcome {
  int code = -1;
  std::string out, err;
};

// Runs `executable arguments` with stdout and stderr read back.
CalibrateOutcome calibrateRun(const std::string& executable, const std::string& arguments) {
  const fs::path dir = fs::temp_directory_path() / "frac_calibrate_cli";
  fs::create_directories(dir);
  const std::string command = executable + " " + arguments + " > " + (dir / "out").string() + " 2> " +
                              (dir / "err").string();
  const int status = std::system(command.c_str());
  CalibrateOutcome o;
  o.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::stringstream out, err;
  out << std::ifstream(dir / "out").rdbuf();
  err << std::ifstream(dir / "err").rdbuf();
  o.out = out.str();
  o.err = err.str();
  return o;
}

const std::string kCalibrate = FRACTURE_CALIBRATE_EXE;

}  // namespace

TEST_CASE("fracture-calibrate: bad arguments, an unknown material or method exit 2 and say what was expected") {
  const CalibrateOutcome noMaterial = calibrateRun(kCalibrate, "--method bdem");
  CHECK(noMaterial.code == 2);
  CHECK(noMaterial.err.find("--material is required") != std::string::npos);
  const CalibrateOutcome unknown = calibrateRun(kCalibrate, "--method bdem --material unobtainium");
  CHECK(unknown.code == 2);
  CHECK(unknown.err.find("unobtainium") != std::string::npos);
  CHECK(unknown.err.find("glass") != std::string::npos);  // the known names are listed
  const CalibrateOutcome method = calibrateRun(kCalibrate, "--method fem-debris --material glass");
  CHECK(method.code == 2);
  CHECK(method.err.find("bdem, rbdem, pd-bond and pd-state") != std::string::npos);
  const CalibrateOutcome radius = calibrateRun(kCalibrate, "--method bdem --material glass --element-radius -1");
  CHECK(radius.code == 2);
  CHECK(radius.err.find("--element-radius") != std::string::npos);
  const CalibrateOutcome lab = calibrateRun(kCalibrate, "--method bdem --material glass --lab shear");
  CHECK(lab.code == 2);
  CHECK(lab.err.find("tension, compression, bending, notched_bending, notched_tension") != std::string::npos);
  const CalibrateOutcome seed = calibrateRun(kCalibrate, "--method bdem --material glass --lab tension --seed -1");
  CHECK(seed.code == 2);
  CHECK(seed.err.find("--seed") != std::string::npos);
}

TEST_CASE("fracture-calibrate: a shipped table answers at once, and a lab test written as a scene runs headless") {
  setenv("FRACTURE_CALIBRATION_DIR", "", 1);  // the shipped assets/calibration
  const std::string hint = std::string("--material glass --method pd-bond --element-radius 0.002 --threads 1");
  const CalibrateOutcome cached = calibrateRun(kCalibrate, hint);
  REQUIRE(cached.code == 0);
  const nlohmann::json record = nlohmann::json::parse(cached.out);
  CHECK(record["cached"] == true);
  CHECK(record["lab_runs"] == 0);
  CHECK(std::abs(record["measured"]["E"].get<double>() / 7.0e10 - 1.0) < 0.01);
  CHECK(cached.err.find("1/4") != std::string::npos);  // pd-bond says it holds nu = 1/4 only

  const fs::path dir = fs::temp_directory_path() / "frac_calibrate_cli_scene";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path scene = dir / "lab.json";
  REQUIRE(calibrateRun(kCalibrate, hint + " --lab tension --write-scene " + scene.string()).code == 0);
  // The scene names the library material and its calibrated keys; the headless run writes the probe's values.
  const CalibrateOutcome run = calibrateRun(FRACTURE_SANDBOX_EXE, scene.string() + " --headless --threads 1 --out " +
                                                             (dir / "out").string());
  REQUIRE(run.code == 0);
  const nlohmann::json summary = nlohmann::json::parse(std::ifstream(dir / "out/summary.json"));
  const nlohmann::json& m = summary["measurements"];
  CHECK(std::abs(m["E_macro"].get<double>() / 7.0e10 - 1.0) < 0.03);
  // Glass's 45 MPa is a bending strength (fitted on the beam); the bar breaks where the calibration's bar broke.
  CHECK(record["measured"]["strength_test"] == "bending");
  CHECK(std::abs(m["strength_macro"].get<double>() / record["measured"]["tensile_strength"].get<double>() - 1.0) <
        0.03);
  // --seed: the scene's draws of the library's Weibull-scattered bonds (1, as calibrated, by default).
  const fs::path seeded = dir / "seeded.json";
  REQUIRE(calibrateRun(kCalibrate, hint + " --lab tension --seed 5 --write-scene " + seeded.string()).code == 0);
  CHECK(nlohmann::json::parse(std::ifstream(seeded))["seed"] == 5);
  CHECK(nlohmann::json::parse(std::ifstream(scene))["seed"] == 1);
  fs::remove_all(dir);
}
