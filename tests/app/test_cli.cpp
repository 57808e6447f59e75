// The headless command line end to end: outputs, overrides, and bad input (exit code 2, one clear message).
#include <doctest/doctest.h>

#include "cli_run.h"
#include "../relative_approx.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace {

using frac::test::kSource;

struct RunResult {
  int exitCode = -1;
  std::string errors;
};

fs::path cliDir(const std::string& name) { return frac::test::freshDir("cli_" + name); }

RunResult run(const std::string& arguments, const fs::path& dir) {
  const fs::path err = dir / "stderr.txt";
  const std::string command = std::string(FRACTURE_SANDBOX_EXE) + " " + arguments + " 2> " + err.string() + " > " +
                              (dir / "stdout.txt").string();
  RunResult r;
  const int status = std::system(command.c_str());
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err);
  std::stringstream text;
  text << in.rdbuf();
  r.errors = text.str();
  return r;
}

int countLines(const fs::path& file) {
  std::ifstream in(file);
  int lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  return lines;
}

}  // namespace

TEST_CASE("headless run writes stats.csv per frame and summary.json with the documented keys") {
  const fs::path dir = cliDir("run");
  const RunResult r = run(kSource + "/assets/scenes/default.json --headless --frames 3 --threads 2 --out " +
                              (dir / "out").string() + " --set bodies.0.element_radius=0.006",
                          dir);
  REQUIRE(r.exitCode == 0);
  CHECK(countLines(dir / "out/stats.csv") == 4);  // header + 3 frames
  std::ifstream header(dir / "out/stats.csv");
  std::string first;
  std::getline(header, first);
  CHECK(first == "frame,time,kinetic_energy,elastic_energy,bonds_intact,bonds_broken,fragments");
  const nlohmann::json s = nlohmann::json::parse(std::ifstream(dir / "out/summary.json"));
  for (const char* key : {"elements", "bonds", "bonds_broken", "fragments", "steps", "sim_time", "wall_time",
                          "element_steps_per_s", "bond_updates_per_s", "measurements", "damage_mean",
                          "damage_histogram", "backend"})
    CHECK_MESSAGE(s.contains(key), key);
  // Damage: every bonded element is in one of the 10 bins; the slab is hit, so some have lost bonds.
  REQUIRE(s["damage_histogram"].size() == 10);
  double counted = 0.0;
  for (const auto& bin : s["damage_histogram"]) counted += bin.get<double>();
  CHECK(counted > 0.0);
  CHECK(counted <= s["elements"].get<double>());
  CHECK(s["damage_mean"].get<double>() >= 0.0);
  CHECK(s["damage_mean"].get<double>() <= 1.0);
  CHECK(s["steps"].get<long>() > 0);
  CHECK(s["sim_time"].get<double>() == RelApprox(3.0 / 500.0).epsilon(1e-6));  // default scene: 500 fps
  CHECK(s["elements"].get<int>() > 0);
}

TEST_CASE("a diverging run stops with exit 3 and says where, and the same scene at its own step runs to the end") {
  // wall_impact at dt 1e-4 s, 12x its stable step (8.3e-6 s): every mode grows each step. Within the 30 frames the
  // watch must stop it (analysis/divergence_watch.h: kinetic energy above ten times what the scene can supply).
  const fs::path dir = cliDir("diverge");
  const std::string scene = kSource + "/assets/scenes/wall_impact.json --headless --frames 30 --threads 2 --out ";
  const RunResult r = run(scene + (dir / "bad").string() + " --set solver.dt=1e-4", dir);
  CHECK(r.exitCode == 3);
  CHECK_MESSAGE(r.errors.find("the run diverged at step") != std::string::npos, r.errors);
  CHECK_MESSAGE(r.errors.find("stable step") != std::string::npos, r.errors);
  CHECK_MESSAGE(r.errors.find("wall_impact.json") != std::string::npos, r.errors);
  const nlohmann::json s = nlohmann::json::parse(std::ifstream(dir / "bad/summary.json"));
  CHECK(s.contains("diverged"));
  CHECK(s["steps"].get<long>() < 30 * 40);  // stopped before the end (40 steps a frame)
  // The impact is at frame 6 (0.15 m at 6 m/s): 15 frames take the watch through it and 35 ms of the wall breaking.
  const RunResult good = run(kSource + "/assets/scenes/wall_impact.json --headless --frames 15 --threads 2 --out " +
                                 (dir / "good").string(),
                             dir);
  CHECK_MESSAGE(good.exitCode == 0, good.errors);
}

TEST_CASE("--set changes the scene: a smaller element radius of the slab gives more elements") {
  const fs::path dir = cliDir("set");
  const std::string scene = kSource + "/assets/scenes/default.json --headless --frames 0 --out ";
  REQUIRE(run(scene + (dir / "a").string() + " --set bodies.0.element_radius=0.006", dir).exitCode == 0);
  REQUIRE(run(scene + (dir / "b").string() + " --set bodies.0.element_radius=0.004", dir).exitCode == 0);
  const auto a = nlohmann::json::parse(std::ifstream(dir / "a/summary.json"));
  const auto b = nlohmann::json::parse(std::ifstream(dir / "b/summary.json"));
  CHECK(b["elements"].get<int>() > a["elements"].get<int>() * 13 / 10);  // a thin slab: 2 -> 3 layers, finer rows
}

TEST_CASE("bad input exits with code 2 and one message naming the file, the key and what was expected") {
  const fs::path dir = cliDir("bad");
  const std::string bad = kSource + "/tests/data/bad_scenes/";
  struct Case {
    std::string arguments, mustContain;
  };
  const Case cases[] = {
      {bad + "syntax_error.json", "line 4, column"},
      {bad + "unknown_key.json", "/materials/glass/yung"},
      {bad + "out_of_range.json", "/materials/glass/damping"},
      {bad + "missing_mesh.json", "not found"},
      {bad + "does_not_exist.json", "does_not_exist.json"},
      {kSource + "/assets/scenes/default.json --set solver.dt=abc", "--set 'solver.dt=abc'"},
      {kSource + "/assets/scenes/default.json --set nonsense.key=1", "nonsense"},
      {kSource + "/assets/scenes/default.json --frames -3", "--frames"},
      // A dt far below the stable step is refused with the steps per frame it would need (never replaced).
      {kSource + "/assets/scenes/wall_impact.json --set solver.dt=1e-12", "/solver/dt: dt 1e-12 s needs 4e+09 steps"},
      {kSource + "/assets/scenes/wall_impact.json --set solver.dt=1e-30", "max_steps_per_frame"},
      {kSource + "/assets/scenes/wall_impact.json --set solver.dt=1e-9", "needs 4e+06 steps per frame at 250"},
      {kSource + "/assets/scenes/default.json --exit-after 5 --scrub-to 5", "--scrub-to 5: expected --exit-after"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.arguments);
    const RunResult r = run(c.arguments + " --headless --out " + (dir / "o").string(), dir);
    CHECK(r.exitCode == 2);
    CHECK_MESSAGE(r.errors.find(c.mustContain) != std::string::npos, r.errors);
    CHECK(r.errors.find("terminate") == std::string::npos);
  }
}

TEST_CASE("without a display and without --headless the program says so and shows the headless command") {
  const fs::path dir = cliDir("nodisplay");
  const std::string command = "env -u DISPLAY -u WAYLAND_DISPLAY " + std::string(FRACTURE_SANDBOX_EXE) + " " + kSource +
                              "/assets/scenes/default.json 2> " + (dir / "err.txt").string();
  const int status = std::system(command.c_str());
  CHECK(WEXITSTATUS(status) == 1);
  std::ifstream in(dir / "err.txt");
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str().find("no display") != std::string::npos);
  CHECK(text.str().find("--headless --record") != std::string::npos);
}

TEST_CASE("a replayed command that cannot apply exits 2 naming the replay, and a grab of no body element is a note") {
  const fs::path dir = cliDir("bad_command");
  const std::string header =
      R"({"replay": 1, "scene": ")" + kSource + R"(/assets/scenes/default.json", "overrides": ["bodies.0.element_radius=0.006",)"
      R"( "bodies.1.element_radius=0.006", "bodies.2.element_radius=0.006"], "seed": -1, "threads": -1, "fps": -1,)"
      R"( "frames": 0, "record_from": 0})";
  std::ofstream(dir / "throw.jsonl")
      << header << "\n"
      << R"({"step": 3, "type": "throw", "position": [0, 0.3, 0], "velocity": [0, -5, 0], "radius": 0.01, "material": "unobtainium"})"
      << "\n";
  const RunResult bad = run("--replay " + (dir / "throw.jsonl").string() + " --headless --frames 2 --out " +
                                (dir / "bad").string(),
                            dir);
  CHECK(bad.exitCode == 2);
  CHECK(bad.errors.find((dir / "throw.jsonl").string()) != std::string::npos);
  CHECK(bad.errors.find("unobtainium") != std::string::npos);
  // Element 100000 is no body element: the grab does nothing (a note) and the run goes on.
  std::ofstream(dir / "grab.jsonl")
      << header << "\n"
      << R"({"step": 1, "type": "grab", "element": 100000, "radius": 0.01, "position": [0, 0.3, 0], "frequency": 10})"
      << "\n";
  const RunResult grab = run("--replay " + (dir / "grab.jsonl").string() + " --headless --frames 2 --out " +
                                 (dir / "grab").string(),
                             dir);
  CHECK(grab.exitCode == 0);
}
