// The scene browser's thumbnails (issue "Live demos", item 3): --thumbnail renders a scene at t = 0 into a PNG, the
// cache names it by the scene's content (an edited scene gets a new one), and the window's browser shows a cached
// thumbnail (Xvfb).
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "cli_run.h"
#include "recorder/png_file.h"

using namespace frac::test;

namespace {

const std::string kScenes = std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/";

// Pixels of the wall_impact brick's orange (the wall fills a good part of its thumbnail).
int brickPixels(const std::vector<uint8_t>& rgba, int width, int x0, int y0, int x1, int y1) {
  int count = 0;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) {
      const uint8_t* p = &rgba[(size_t(y) * width + x) * 4];
      count += p[0] > p[2] + 60 && p[0] > 120;
    }
  return count;
}

}  // namespace

TEST_CASE("--thumbnail writes the scene at t = 0 as a PNG of the asked size, and a bad scene exits 2 writing nothing") {
  const fs::path dir = freshDir("thumbnail");
  std::string errors;
  REQUIRE(runSandbox(kScenes + "wall_impact.json --headless --thumbnail " + (dir / "wall.png").string() +
                         " --width 160 --height 90",
                     dir, errors) == 0);
  int w = 0, h = 0;
  std::vector<uint8_t> px;
  std::string error;
  REQUIRE(frac::readPngFile(dir / "wall.png", w, h, px, error));
  CHECK(w == 160);
  CHECK(h == 90);
  const int brick = brickPixels(px, w, 0, 0, w, h);
  MESSAGE(brick << " brick pixels of " << w * h);
  CHECK(brick > 300);  // the wall covers about 5% of the frame from the scene's camera
  CHECK(runSandbox(kScenes + "wall_impact.json --headless --set solver.dt=abc --thumbnail " +
                       (dir / "bad.png").string(),
                   dir, errors) == 2);
  CHECK(errors.find("solver.dt") != std::string::npos);
  CHECK(namesIn(dir, ".png") == std::vector<std::string>{"wall.png"});
  CHECK(namesIn(dir, ".partial").empty());
}

TEST_CASE("the thumbnail cache names a scene by its content: an edited scene gets a thumbnail of its own") {
  const fs::path dir = freshDir("thumbnail_cache");
  fs::copy_file(kScenes + "wall_impact.json", dir / "wall.json");
  setenv("FRACTURE_CACHE_DIR", (dir / "cache").c_str(), 1);  // the runs below inherit it
  std::string errors;
  REQUIRE(runSandbox((dir / "wall.json").string() + " --headless --thumbnail cache", dir, errors) == 0);
  const std::vector<std::string> first = namesIn(dir / "cache", ".png");
  REQUIRE(first.size() == 1);
  CHECK(first[0].rfind("wall-", 0) == 0);
  std::ofstream(dir / "wall.json", std::ios::app) << "\n";  // the same scene, other bytes: drawn anew
  REQUIRE(runSandbox((dir / "wall.json").string() + " --headless --thumbnail cache", dir, errors) == 0);
  unsetenv("FRACTURE_CACHE_DIR");
  CHECK(namesIn(dir / "cache", ".png").size() == 2);
}

TEST_CASE("window under Xvfb: --browse opens the scene browser with the cached thumbnails") {
  if (std::system("command -v xvfb-run > /dev/null 2>&1") != 0) {
    MESSAGE("skipped: xvfb-run is not installed (scripts/deps installs it)");
    return;
  }
  const fs::path dir = freshDir("browser");
  setenv("FRACTURE_CACHE_DIR", (dir / "cache").c_str(), 1);  // the runs below inherit it
  std::string errors;
  REQUIRE(runSandbox(kScenes + "beam_twisting.json --headless --thumbnail cache", dir, errors) == 0);  // the first
  const std::string window = "xvfb-run -a -s '-screen 0 1280x720x24' " + std::string(FRACTURE_SANDBOX_EXE) +
                             " --browse --paused --exit-after 0 --no-help --screenshot " +
                             (dir / "browser.png").string() + " > " + (dir / "window.txt").string() + " 2>&1";
  const int status = std::system(window.c_str());
  unsetenv("FRACTURE_CACHE_DIR");
  REQUIRE((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  int w = 0, h = 0;
  std::vector<uint8_t> px;
  std::string error;
  REQUIRE(frac::readPngFile(dir / "browser.png", w, h, px, error));
  // The browser covers the middle of the window: dark, with blue placeholders for the thumbnails still to come and
  // grey and white text. A thumbnail (192 x 108: the grey ground and sky around the beam) is the only large grey area.
  int grey = 0;
  for (int y = h / 8; y < h * 7 / 8; ++y)
    for (int x = w / 6; x < w * 5 / 6; ++x) {
      const uint8_t* p = &px[(size_t(y) * w + x) * 4];
      grey += p[0] > 110 && p[0] < 235 && std::abs(p[0] - p[1]) < 16 && std::abs(p[1] - p[2]) < 24;
    }
  MESSAGE(grey << " grey pixels in the browser");
  CHECK(grey > 192 * 108 / 2);
}
