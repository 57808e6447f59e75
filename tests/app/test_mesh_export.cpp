// --render and --export-mesh end to end: a headless run writes one readable PLY of fracture surfaces per frame,
// numbered like the PNG frames, with or without --record; bad values and unusable folders exit 2 before simulating.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_run.h"
#include "io/surface_ply.h"

namespace fs = std::filesystem;

namespace {

using frac::test::kSource;
// The default scene with coarse elements: a few frames in seconds.
const std::string& kScene = frac::test::kCoarseDefault;

fs::path meshDir(const std::string& name) { return frac::test::freshDir("mesh_" + name); }

int run(const std::string& arguments, const fs::path& dir, std::string& errors) {
  return frac::test::runSandbox(arguments, dir, errors);
}

using frac::test::namesIn;

}  // namespace

TEST_CASE("--render surfaces --export-mesh writes one readable PLY per frame, numbered like the PNG frames") {
  const fs::path dir = meshDir("export");
  std::string errors;
  REQUIRE(run(kScene + " --headless --frames 3 --render surfaces --record --width 160 --height 90 --out " +
                  (dir / "out").string() + " --export-mesh " + (dir / "meshes").string(),
              dir, errors) == 0);
  const std::vector<std::string> meshes = namesIn(dir / "meshes", ".ply");
  const std::vector<std::string> frames = namesIn(dir / "out/frames", ".png");
  REQUIRE(meshes.size() == 3);
  CHECK(frames.size() == meshes.size());
  CHECK(meshes.front() == "mesh_000000.ply");
  CHECK(meshes.back() == "mesh_000002.ply");
  CHECK(errors.find("exported 3 meshes") != std::string::npos);
  for (const std::string& name : meshes) {
    INFO(name);
    const frac::SurfaceMesh mesh = frac::readSurfacePly((dir / "meshes" / name).string());
    CHECK(mesh.triangleCount() > 1000);  // the slab and the two blocks
    CHECK(mesh.fragment.size() == mesh.positions.size());
  }
  CHECK(namesIn(dir / "meshes", ".partial").empty());
}

TEST_CASE("--export-mesh works without --record, and writes no frames then") {
  const fs::path dir = meshDir("norecord");
  std::string errors;
  REQUIRE(run(kScene + " --headless --frames 2 --out " + (dir / "out").string() + " --export-mesh " +
                  (dir / "meshes").string(),
              dir, errors) == 0);
  CHECK(namesIn(dir / "meshes", ".ply") == std::vector<std::string>{"mesh_000000.ply", "mesh_000001.ply"});
  CHECK_FALSE(fs::exists(dir / "out/frames"));
}

TEST_CASE("bad --render values and unusable --export-mesh folders exit 2 with a clear message, before simulating") {
  const fs::path dir = meshDir("bad");
  std::string errors;
  CHECK(run(kScene + " --headless --frames 1 --render cubes --out " + (dir / "out").string(), dir, errors) == 2);
  CHECK(errors.find("--render") != std::string::npos);
  CHECK(errors.find("cubes") != std::string::npos);
  CHECK(run(kScene + " --headless --frames 1 --surface-cell 9 --out " + (dir / "out").string(), dir, errors) == 2);
  CHECK(errors.find("--surface-cell") != std::string::npos);
  // A folder below a plain file cannot be created (also for root).
  std::ofstream(dir / "file") << "x";
  const fs::path bad = dir / "file" / "meshes";
  CHECK(run(kScene + " --headless --frames 1 --out " + (dir / "out").string() + " --export-mesh " + bad.string(), dir,
            errors) == 2);
  CHECK(errors.find("cannot export meshes into '" + bad.string() + "'") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "out/summary.json"));  // nothing was simulated
  CHECK_FALSE(fs::exists(bad));
}
