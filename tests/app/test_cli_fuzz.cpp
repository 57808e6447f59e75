// Fuzzed input through the executable (issue "Reliability", item 2): the in-process fuzz tests (tests/sim/
// test_scene_fuzz.cpp, test_replay_fuzz.cpp) check thousands of mutations against the loader's exceptions; these run
// a few hundred through fracture-sandbox itself, where what counts is what a user sees: exit 0, or exit 2 with one
// line "error: FILE..." naming the file (exit 3 with its message for a run that diverged), never a signal, another
// exit code, an uncaught exception ("terminate") or a sanitizer report.
#include <doctest/doctest.h>

#include "cli_run.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../json_mutator.h"
#include "io/scene_error.h"
#include "io/scene_loader.h"
#include "solvers/resource_estimate.h"

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

using frac::test::kSource;

struct FuzzOutcome {
  int exitCode = -1;  // -1: killed by a signal
  std::string errors;
};

FuzzOutcome runSandbox(const std::string& arguments, const fs::path& dir) {
  const fs::path err = dir / "stderr.txt";
  const std::string command = std::string(FRACTURE_SANDBOX_EXE) + " " + arguments + " --headless --threads 1 --out " +
                              (dir / "out").string() + " > /dev/null 2> " + err.string();
  const int status = std::system(command.c_str());
  FuzzOutcome o;
  o.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err);
  std::stringstream text;
  text << in.rdbuf();
  o.errors = text.str();
  return o;
}

// What every run must look like from outside; `file` is what an exit-2 message must name.
void checkOutcome(const FuzzOutcome& o, const std::string& file, const std::string& label, int& refused, int& ran) {
  INFO(label);
  INFO("stderr: " << o.errors.substr(0, 600));
  CHECK(o.errors.find("terminate") == std::string::npos);
  CHECK(o.errors.find("Sanitizer") == std::string::npos);
  CHECK(o.errors.find("runtime error") == std::string::npos);
  if (o.exitCode == 2) {
    ++refused;
    const size_t at = o.errors.find("error: ");
    REQUIRE(at != std::string::npos);
    const std::string message = o.errors.substr(at, o.errors.find('\n', at) - at);
    CHECK(message.find(file) != std::string::npos);
  } else if (o.exitCode == 3) {
    ++ran;
    CHECK(o.errors.find("the run diverged") != std::string::npos);
  } else {
    CHECK(o.exitCode == 0);
    ++ran;
  }
}

fs::path fuzzDir(const std::string& name) { return frac::test::freshDir("cli_fuzz_" + name); }

}  // namespace

TEST_CASE("mutated scene files through the executable: exit 0, or exit 2 with one line naming the file") {
  // Every shipped scene but the benchmarks', 5 mutations each (1 to 3 edits of tests/json_mutator.h). Accepted scenes
  // the loader estimates above 20,000 elements are not run (building them hundreds of times is minutes); the rest run
  // one frame at 2,000 frames/s, refused (exit 2) when that frame needs more than 5,000 steps (the lab tests of real
  // glass step at 2e-8 s: a frame would be minutes).
  const fs::path dir = fuzzDir("scenes");
  std::mt19937 rng(20261128);
  int refused = 0, ran = 0, tooLarge = 0;
  std::vector<fs::path> scenes;
  for (const auto& entry : fs::directory_iterator(fs::path(kSource) / "assets" / "scenes"))
    if (entry.path().extension() == ".json" && entry.path().filename().string().rfind("bench_", 0) != 0)
      scenes.push_back(entry.path());
  std::sort(scenes.begin(), scenes.end());
  // The mutated files go to dir/scenes, beside a link dir/meshes to the project's meshes: relative mesh paths
  // ("../meshes/jelly.obj") still resolve, and assets/scenes never holds a file another test could list.
  fs::create_directories(dir / "scenes");
  fs::create_directory_symlink(fs::path(kSource) / "assets" / "meshes", dir / "meshes");
  for (const fs::path& source : scenes) {
    const json original = json::parse(std::ifstream(source));
    for (int k = 0; k < 5; ++k) {
      json doc = original;
      const int edits = 1 + int(rng() % 3);
      for (int e = 0; e < edits; ++e) frac::test::mutate(doc, rng);
      const fs::path file = dir / "scenes" / ("fuzz_" + std::to_string(k) + "_" + source.filename().string());
      const std::string label = file.filename().string() + ": " +
                                doc.dump(-1, ' ', false, json::error_handler_t::replace).substr(0, 300);
      try {
        if (frac::estimatedElementCount(frac::parseScene(doc, file.string())) > 20000.0) {
          ++tooLarge;
          continue;
        }
      } catch (const std::exception&) {  // refused in process: the executable must refuse it the same way
      }
      std::ofstream(file) << doc.dump(2, ' ', false, json::error_handler_t::replace);
      const FuzzOutcome o =
          runSandbox(file.string() + " --frames 1 --fps 2000 --set solver.max_steps_per_frame=5000", dir);
      fs::remove(file);
      checkOutcome(o, file.string(), label, refused, ran);
    }
  }
  MESSAGE(refused << " refused with exit 2, " << ran << " ran, " << tooLarge << " accepted but too large to run here");
  CHECK(refused > 60);
  CHECK(ran >= 10);
}

TEST_CASE("random --set texts through the executable: exit 0, or exit 2 naming the scene file and the --set") {
  const fs::path dir = fuzzDir("set");
  std::mt19937 rng(11);
  const std::string scene = kSource + "/assets/scenes/default.json";
  const std::vector<std::string> keys = {"solver.dt", "solver.method", "bodies.0.element_radius", "bodies.0.shape.size",
                                         "materials.stone.young", "fps", "solver.gravity", "planes.0.normal",
                                         "bodies.9.position", "", "solver.dt.extra", "projectiles.0.velocity"};
  const std::vector<std::string> values = {"1e-300", "nan", "inf", "-1", "0", "[1,2]", "[]", "{}", "\"text\"",
                                           "true", "null", "[1e40,0,0]", "1e-4", "\"pd-state\"", "", "{{", "1e99999"};
  // Three edits that must run (the executable takes a valid --set), then 37 random ones.
  const std::vector<std::string> valid = {"solver.dt=1e-5", "solver.method=\"pd-state\"", "materials.stone.young=2e7"};
  int refused = 0, ran = 0;
  for (int k = 0; k < 40; ++k) {
    const std::string text = k < 3 ? valid[size_t(k)]
                                   : keys[rng() % keys.size()] + "=" + values[rng() % values.size()];
    const FuzzOutcome o = runSandbox(scene + " --frames 1 --fps 2000 --set '" + text + "'" +
                                     " --set bodies.0.element_radius=0.008 --set bodies.1.element_radius=0.008",
                                 dir);
    checkOutcome(o, "default.json", "--set " + text, refused, ran);
  }
  MESSAGE(refused << " refused with exit 2, " << ran << " ran");
  CHECK(refused > 20);
  CHECK(ran >= 3);
}

TEST_CASE("mutated replay files through the executable: exit 0, or exit 2 naming the replay or its scene") {
  // A replay of the default scene (coarsened) with a throw and an edit, its lines mutated.
  const fs::path dir = fuzzDir("replay");
  std::mt19937 rng(5);
  const json header = {{"replay", 1},
                       {"scene", kSource + "/assets/scenes/default.json"},
                       {"overrides", {"bodies.0.element_radius=0.008", "bodies.1.element_radius=0.008",
                                      "bodies.2.element_radius=0.008"}},
                       {"seed", -1}, {"threads", -1}, {"fps", -1}, {"frames", 1}, {"record_from", 0}};
  const std::vector<json> commands = {
      {{"step", 0}, {"type", "throw"}, {"position", {0, 0.2, 0.3}}, {"velocity", {0, 0, -5}}, {"radius", 0.02},
       {"material", "steel"}},
      {{"step", 3}, {"type", "set"}, {"key", "materials.stone.young"}, {"value", 2e7}},
      {{"step", 5}, {"type", "reset"}}};
  int refused = 0, ran = 0;
  for (int k = 0; k < 30; ++k) {
    std::vector<json> lines = {header};
    lines.insert(lines.end(), commands.begin(), commands.end());
    const int edits = 1 + int(rng() % 3);
    for (int e = 0; e < edits; ++e) frac::test::mutate(lines[rng() % lines.size()], rng);
    const fs::path file = dir / ("replay_" + std::to_string(k) + ".jsonl");
    std::string text;
    {
      std::ofstream out(file);
      for (const json& line : lines) out << line.dump(-1, ' ', false, json::error_handler_t::replace) << "\n";
    }
    const FuzzOutcome o = runSandbox("--replay " + file.string(), dir);
    // A refusal names the replay file, or the scene file it names when the scene (with its overrides) is bad.
    const bool namesScene = o.errors.find("default.json") != std::string::npos;
    checkOutcome(o, namesScene ? std::string("default.json") : file.string(), file.filename().string(), refused, ran);
  }
  MESSAGE(refused << " refused with exit 2, " << ran << " ran");
  CHECK(refused > 10);
  CHECK(ran > 0);
}
