// The window end to end under Xvfb (lavapipe renders it): the app starts, runs a scene, takes a scripted throw from a
// replay file, and its screenshot shows the panels and the broken target; the run's own replay log reproduces its
// final state exactly in a headless re-run at another resolution; its data export writes every recorded frame.
#include <doctest/doctest.h>

#include "cli_run.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "io/vtu_file.h"
#include "recorder/png_file.h"

namespace fs = std::filesystem;

namespace {

using frac::test::kSource;

bool haveXvfb() { return std::system("command -v xvfb-run > /dev/null 2>&1") == 0; }

fs::path windowDir(const std::string& name) { return frac::test::freshDir("window_" + name); }

// wall_impact (coarser, for speed) with its own ball held back (launch at t = 1000 s): only a scripted throw can
// break the wall.
void writeScript(const fs::path& path, bool withThrow) {
  std::ofstream out(path);
  out << nlohmann::json({{"replay", 1},
                         {"scene", kSource + "/assets/scenes/wall_impact.json"},
                         {"overrides", {"projectiles.0.launch_time=1000", "bodies.0.element_radius=0.006"}},
                         {"seed", -1},
                         {"threads", -1},
                         {"fps", -1},
                         {"frames", 0},
                         {"record_from", 0}})
             .dump()
      << "\n";
  if (withThrow)
    out << R"({"step": 0, "type": "throw", "position": [0.02, 0.1, 0.2], "velocity": [0, 0, -6], "radius": 0.03,)"
        << R"( "material": "steel"})" << "\n";
}

// The header of a replay of the default scene, coarser (for speed), with its ball held back (t = 1000 s).
std::string coarseDefaultHeader() {
  return nlohmann::json({{"replay", 1},
                         {"scene", kSource + "/assets/scenes/default.json"},
                         {"overrides", {"bodies.0.element_radius=0.006", "bodies.1.element_radius=0.006",
                                        "bodies.2.element_radius=0.006", "projectiles.0.launch_time=1000"}},
                         {"seed", -1}, {"threads", -1}, {"fps", -1}, {"frames", 0}, {"record_from", 0}})
      .dump();
}

int runWindow(const fs::path& dir, const std::string& arguments) {
  const std::string command = "xvfb-run -a -s '-screen 0 1280x720x24' " + std::string(FRACTURE_SANDBOX_EXE) + " " +
                              arguments + " > " + (dir / "stdout.txt").string() + " 2> " + (dir / "stderr.txt").string();
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

nlohmann::json readJson(const fs::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("window under Xvfb: a scripted throw breaks the wall, the screenshot shows the panels and the damage") {
  if (!haveXvfb()) {
    MESSAGE("skipped: xvfb-run is not installed (scripts/deps installs it)");
    return;
  }
  const fs::path dir = windowDir("throw");
  writeScript(dir / "throw.jsonl", true);
  writeScript(dir / "idle.jsonl", false);
  const std::string common = " --exit-after 20 --color damage --no-help --vulkan-validation";
  REQUIRE(runWindow(dir, "--replay " + (dir / "throw.jsonl").string() + common + " --screenshot " +
                             (dir / "shot.png").string() + " --stats " + (dir / "stats.json").string() +
                             " --record --out " + (dir / "rec").string() + " --export " + (dir / "data").string()) == 0);
  REQUIRE(runWindow(dir, "--replay " + (dir / "idle.jsonl").string() + common + " --stats " +
                             (dir / "idle.json").string()) == 0);
  const nlohmann::json thrown = readJson(dir / "stats.json"), idle = readJson(dir / "idle.json");
  MESSAGE("bonds broken: " << thrown["bonds_broken"] << " with the throw, " << idle["bonds_broken"] << " without");
  CHECK(thrown["frames"] == 20);
  // Settling under gravity breaks a handful of bonds of the coarse wall; the throw breaks thousands.
  CHECK(idle["bonds_broken"].get<long long>() < 20);
  CHECK(thrown["bonds_broken"].get<long long>() > 1000);
  CHECK(thrown["elements"].get<int>() == idle["elements"].get<int>() + 1);  // the thrown ball
  CHECK(thrown["validation_messages"] == 0);

  int w = 0, h = 0;
  std::vector<uint8_t> px;
  std::string error;
  REQUIRE(frac::readPngFile(dir / "shot.png", w, h, px, error));
  auto at = [&](int x, int y) { return &px[(size_t(y) * w + x) * 4]; };
  // The panel: ImGui's dark title bar (41, 74, 122) at the top of the main window, its body (25, 25, 25) below.
  const uint8_t* title = at(100, 17);
  CHECK(std::abs(title[0] - 41) + std::abs(title[1] - 74) + std::abs(title[2] - 122) < 20);
  // The body: most of the main window below the title whatever its rows (text, sliders and plots cover the rest).
  int bodyPixels = 0, panelPixels = 0;
  for (int y = 40; y < h - 20; ++y)
    for (int x = 20; x < 360; ++x, ++panelPixels) {
      const uint8_t* p = at(x, y);
      bodyPixels += std::abs(p[0] - 25) + std::abs(p[1] - 25) + std::abs(p[2] - 25) < 20;
    }
  MESSAGE(bodyPixels << " of " << panelPixels << " panel pixels in the body colour");
  CHECK(bodyPixels > panelPixels / 3);
  // The broken wall in the damage colours: many scene pixels at the hot end of the map (orange to red).
  int hot = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 400; x < w; ++x) {
      const uint8_t* p = at(x, y);
      if (p[0] > 150 && p[0] > p[1] + 60 && p[2] < 90) ++hot;
    }
  MESSAGE(hot << " damage-coloured pixels");
  CHECK(hot > 300);

  // The recording's replay log re-simulates the same run headless, bit for bit, and renders it at another size.
  REQUIRE(fs::exists(dir / "rec/replay.jsonl"));
  const std::string replay = std::string(FRACTURE_SANDBOX_EXE) + " --replay " + (dir / "rec/replay.jsonl").string() +
                             " --headless --record --width 640 --height 360 --out " + (dir / "replayed").string() +
                             " 2> " + (dir / "replay_err.txt").string();
  REQUIRE(std::system(replay.c_str()) == 0);
  const nlohmann::json replayed = readJson(dir / "replayed/summary.json");
  CHECK(replayed["state_digest"] == thrown["state_digest"]);
  CHECK(replayed["bonds_broken"] == thrown["bonds_broken"]);
  int count = 0;
  for (const auto& entry : fs::directory_iterator(dir / "replayed/frames"))
    if (entry.path().extension() == ".png") ++count;
  CHECK(count == 20);

  // --export in the window: every recorded frame's elements as VTU, the last one the wall with the thrown ball.
  int recorded = 0, exported = 0;
  for (const auto& entry : fs::directory_iterator(dir / "rec/frames")) recorded += entry.path().extension() == ".png";
  for (const auto& entry : fs::directory_iterator(dir / "data")) exported += entry.path().extension() == ".vtu";
  CHECK(recorded == 20);
  CHECK(exported == recorded);
  const frac::VtuGrid last = frac::readVtu((dir / "data/elements_000019.vtu").string());
  CHECK(last.points.size() == thrown["elements"].get<size_t>());
}

TEST_CASE("window under Xvfb: the start screen waits at t = 0 with the one-line hint at the bottom") {
  if (!haveXvfb()) {
    MESSAGE("skipped: xvfb-run is not installed (scripts/deps installs it)");
    return;
  }
  const fs::path dir = windowDir("start");
  REQUIRE(runWindow(dir, "--paused --exit-after 0 --screenshot " + (dir / "start.png").string() + " --stats " +
                             (dir / "start.json").string()) == 0);
  const nlohmann::json stats = readJson(dir / "start.json");
  CHECK(stats["frames"] == 0);
  CHECK(stats["steps"] == 0);
  int w = 0, h = 0;
  std::vector<uint8_t> px;
  std::string error;
  REQUIRE(frac::readPngFile(dir / "start.png", w, h, px, error));
  // The hint: a dark box with light text centred at the bottom, where the scene shows the light ground.
  int dark = 0, light = 0;
  for (int y = h - 40; y < h - 12; ++y)
    for (int x = w / 2 - 200; x < w / 2 + 200; ++x) {
      const uint8_t* p = &px[(size_t(y) * w + x) * 4];
      const int sum = p[0] + p[1] + p[2];
      dark += sum < 3 * 80;
      light += sum > 3 * 200;
    }
  MESSAGE(dark << " dark and " << light << " light pixels where the hint is");
  CHECK(dark > 2000);
  CHECK(light > 300);
}

TEST_CASE("window under Xvfb: a replayed grab pulls the slab's end up, tears it and draws its line") {
  if (!haveXvfb()) {
    MESSAGE("skipped: xvfb-run is not installed (scripts/deps installs it)");
    return;
  }
  const fs::path dir = windowDir("grab");
  std::ofstream(dir / "grab.jsonl")
      << coarseDefaultHeader() << "\n"
      << R"({"step": 0, "type": "grab", "element": 0, "radius": 0.015, "position": [-0.15, 0.2, 0.0], "frequency": 10})"
      << "\n";
  REQUIRE(runWindow(dir, "--replay " + (dir / "grab.jsonl").string() + " --exit-after 30 --no-help --screenshot " +
                             (dir / "grab.png").string() + " --stats " + (dir / "grab.json").string()) == 0);
  const nlohmann::json stats = readJson(dir / "grab.json");
  MESSAGE(stats["bonds_broken"] << " bonds broken by the grab (no ball: it launches at t = 1000 s)");
  CHECK(stats["bonds_broken"].get<long long>() > 20);
  int w = 0, h = 0;
  std::vector<uint8_t> px;
  std::string error;
  REQUIRE(frac::readPngFile(dir / "grab.png", w, h, px, error));
  int line = 0;  // the grab's line and target circle: (120, 220, 255)
  for (size_t p = 0; p + 3 < px.size(); p += 4)
    line += std::abs(px[p] - 120) + std::abs(px[p + 1] - 220) + std::abs(px[p + 2] - 255) < 40;
  MESSAGE(line << " pixels of the grab's line");
  CHECK(line > 50);
}

TEST_CASE("window under Xvfb: scrubbing back to a frame shows the image and the state it had when simulated") {
  if (!haveXvfb()) {
    MESSAGE("skipped: xvfb-run is not installed (scripts/deps installs it)");
    return;
  }
  const fs::path dir = windowDir("scrub");
  writeScript(dir / "throw.jsonl", true);
  const std::string replay = "--replay " + (dir / "throw.jsonl").string() + " --no-help ";
  REQUIRE(runWindow(dir, replay + "--exit-after 12 --screenshot " + (dir / "simulated.png").string() + " --stats " +
                             (dir / "simulated.json").string()) == 0);
  REQUIRE(runWindow(dir, replay + "--exit-after 24 --scrub-to 12 --screenshot " + (dir / "scrubbed.png").string() +
                             " --stats " + (dir / "scrubbed.json").string()) == 0);
  const nlohmann::json simulated = readJson(dir / "simulated.json"), scrubbed = readJson(dir / "scrubbed.json");
  CHECK(scrubbed["frames"] == 12);
  CHECK(scrubbed["bonds_broken"].get<long long>() > 100);  // the throw broke the wall by then
  CHECK(scrubbed["state_digest"] == simulated["state_digest"]);
  int w = 0, h = 0, w2 = 0, h2 = 0;
  std::vector<uint8_t> a, b;
  std::string error;
  REQUIRE(frac::readPngFile(dir / "simulated.png", w, h, a, error));
  REQUIRE(frac::readPngFile(dir / "scrubbed.png", w2, h2, b, error));
  REQUIRE((w == w2 && h == h2));
  // The view right of the panel (the panel's numbers, its timeline slider and plots differ: 12 of 12 vs 12 of 24).
  int differing = 0, wall = 0;
  for (int y = 0; y < h; ++y)
    for (int x = w / 3; x < w; ++x) {
      const size_t p = (size_t(y) * w + x) * 4;
      differing += std::abs(a[p] - b[p]) + std::abs(a[p + 1] - b[p + 1]) + std::abs(a[p + 2] - b[p + 2]) > 6;
      wall += a[p] > a[p + 2] + 40;  // the brick's orange, so the comparison covers the broken wall
    }
  MESSAGE(differing << " pixels differ in the view; " << wall << " wall pixels");
  CHECK(wall > 20000);
  CHECK(differing == 0);
}

TEST_CASE("window under Xvfb: a replayed edit and its undo: the stable dt shown follows and comes back") {
  if (!haveXvfb()) {
    MESSAGE("skipped: xvfb-run is not installed (scripts/deps installs it)");
    return;
  }
  const fs::path dir = windowDir("undo");
  std::ofstream(dir / "edits.jsonl")
      << coarseDefaultHeader() << "\n"
      << R"({"step": 0, "type": "set", "key": "materials.stone.young", "value": 1e9})" << "\n"
      << R"({"step": 3000, "type": "set", "key": "materials.stone.young", "value": 1e7, "edit": "undo"})" << "\n";
  const std::string replay = "--replay " + (dir / "edits.jsonl").string() + " --no-help ";
  // The stiffer stone runs about 1,480 steps a frame: frame 1 ends before the undo's step, frame 4 after it.
  REQUIRE(runWindow(dir, replay + "--exit-after 1 --stats " + (dir / "edited.json").string()) == 0);
  REQUIRE(runWindow(dir, replay + "--exit-after 4 --stats " + (dir / "undone.json").string()) == 0);
  const nlohmann::json edited = readJson(dir / "edited.json"), undone = readJson(dir / "undone.json");
  REQUIRE(edited["steps"].get<long long>() < 3000);
  REQUIRE(undone["steps"].get<long long>() > 3000);
  // Lu eq. 28: the critical step goes as 1 / sqrt(E): 100 times stiffer, a tenth of the step.
  const double ratio = undone["stable_dt"].get<double>() / edited["stable_dt"].get<double>();
  MESSAGE("stable dt " << edited["stable_dt"] << " s edited, " << undone["stable_dt"] << " s after the undo");
  CHECK(ratio == doctest::Approx(10.0).epsilon(0.02));
}

TEST_CASE("window under Xvfb: a diverging run rolls back with dt halved and runs on to the end like a sound run") {
  if (!haveXvfb()) {
    MESSAGE("skipped: xvfb-run is not installed (scripts/deps installs it)");
    return;
  }
  // wall_impact's coarse wall (r 8 mm, 749 elements, stable step 2e-5 s) at dt 2e-4 s, 10x: it tears apart in the
  // first frame. --on-diverge rollback takes each offer as B would (SimThread::rollBack): back to the last frame the
  // watch passed with dt halved, until the step holds (at most 2x the stable one: the watch's torn-bond rule).
  const fs::path dir = windowDir("rollback");
  const std::string scene = kSource + "/assets/scenes/wall_impact.json --set bodies.0.element_radius=0.008";
  REQUIRE(runWindow(dir, scene + " --set solver.dt=2e-4 --on-diverge rollback --exit-after 40 --no-help "
                                 "--color material --screenshot " + (dir / "shot.png").string() + " --stats " +
                             (dir / "stats.json").string()) == 0);
  const nlohmann::json stats = readJson(dir / "stats.json");
  const int rollbacks = stats["rollbacks"].get<int>();
  const double dt = stats["dt"].get<double>(), stable = stats["stable_dt"].get<double>();
  MESSAGE(rollbacks << " roll backs, dt " << dt << " s, stable " << stable << " s, " << stats["bonds_broken"]
                    << " bonds broken, message '" << stats["message"].get<std::string>() << "'");
  CHECK(rollbacks >= 1);
  CHECK(dt == doctest::Approx(2e-4 / double(1 << rollbacks)).epsilon(1e-9));
  CHECK(dt <= 2.0 * stable);
  CHECK(stats["frames"].get<int>() >= 40);
  // The same wall at its own step (auto): the rolled-back run breaks as many bonds within 10%.
  const fs::path sound = dir / "sound";
  const std::string headless = std::string(FRACTURE_SANDBOX_EXE) + " " + scene + " --headless --frames 40 --out " +
                               sound.string() + " > " + (dir / "sound.txt").string() + " 2>&1";
  REQUIRE(std::system(headless.c_str()) == 0);
  const double soundBroken = readJson(sound / "summary.json")["bonds_broken"].get<double>();
  CHECK(stats["bonds_broken"].get<double>() == doctest::Approx(soundBroken).epsilon(0.10));
  // The picture: the wall still stands in brick colour (a torn-apart wall is scattered dust on the ground).
  int w = 0, h = 0;
  std::vector<uint8_t> px;
  std::string error;
  REQUIRE(frac::readPngFile(dir / "shot.png", w, h, px, error));
  int brick = 0;
  for (size_t p = 0; p + 3 < px.size(); p += 4) brick += px[p] > px[p + 1] + 50 && px[p] > px[p + 2] + 60;
  MESSAGE(brick << " brick-coloured pixels");
  CHECK(brick > 5000);
}
