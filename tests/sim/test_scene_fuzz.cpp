// The scene loader and --set under mutation (issue "Reliability", item 2): every shipped scene, mutated thousands of
// times by a seeded mutator (keys deleted, wrong types, NaN and infinities as text, huge, tiny, zero and negative
// numbers, empty and nested garbage, absurd array sizes), is either refused with a SceneError whose message starts
// with the file's name, or accepted; a sample of the accepted ones is built and stepped, which must either run or
// refuse with a SceneError (never another exception, never a crash). The same for random `--set key=value` texts.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "../json_mutator.h"
#include "core/diverged_error.h"
#include "geometry/obj_mesh.h"
#include "io/scene_error.h"
#include "io/scene_loader.h"
#include "solvers/resource_estimate.h"
#include "solvers/simulation.h"

using namespace frac;
using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> shippedScenes() {
  std::vector<fs::path> scenes;
  for (const auto& entry : fs::directory_iterator(fs::path(FRACTURE_SOURCE_DIR) / "assets" / "scenes"))
    if (entry.path().extension() == ".json" && entry.path().filename().string().rfind("bench_", 0) != 0)
      scenes.push_back(entry.path());
  std::sort(scenes.begin(), scenes.end());
  return scenes;
}

// Builds and steps an accepted scene when it is small; SceneError and a diverged run are fine answers.
void buildAndStep(const SceneDesc& scene, const std::string& label) {
  if (estimatedElementCount(scene) > 20000.0) return;  // valid but too large to build thousands of times here
  try {
    Simulation sim(scene, 1);
    for (int s = 0; s < 3; ++s) sim.step();
  } catch (const SceneError&) {
  } catch (const DivergedError&) {
  } catch (const std::exception& e) {
    FAIL(label << ": accepted, then " << e.what());
  }
}

}  // namespace

TEST_CASE("scene files under seeded mutation: refused naming the file, or a scene that builds and steps") {
  std::mt19937 rng(20261127);
  int refused = 0, accepted = 0, built = 0;
  for (const fs::path& path : shippedScenes()) {
    const json original = readSceneJson(path.string());
    for (int k = 0; k < 120; ++k) {
      json doc = original;
      const int mutations = 1 + int(rng() % 3);
      for (int m = 0; m < mutations; ++m) test::mutate(doc, rng);
      const std::string label = path.filename().string() + " mutation " + std::to_string(k) + ": " + doc.dump(-1, ' ', false, json::error_handler_t::replace).substr(0, 300);
      try {
        const SceneDesc scene = parseScene(doc, path.string());
        ++accepted;
        if (k % 6 == 0) {  // a sample of the accepted ones, built and stepped
          ++built;
          buildAndStep(scene, label);
        }
      } catch (const SceneError& e) {
        ++refused;
        const std::string message = e.what();
        INFO(label);
        CHECK(message.rfind(path.string(), 0) == 0);  // names the file first
        CHECK(message.find('\n') == std::string::npos);  // one line
      } catch (const std::exception& e) {
        FAIL(label << ": " << std::string(e.what()) << " (not a SceneError)");
      }
    }
  }
  MESSAGE(refused << " refused, " << accepted << " accepted (" << built << " of them built and stepped)");
  CHECK(refused > 1000);
  CHECK(accepted > 100);
}

TEST_CASE("--set under seeded garbage: a SceneError naming the file, or an accepted edit") {
  std::mt19937 rng(7);
  const fs::path path = fs::path(FRACTURE_SOURCE_DIR) / "assets" / "scenes" / "wall_impact.json";
  const json original = readSceneJson(path.string());
  const std::vector<std::string> keys = {"solver.dt", "solver.method", "bodies.0.element_radius", "bodies.0.shape.size",
                                         "bodies.7.position", "materials.brick.young", "materials.nope.young",
                                         "fps", "solver.gravity", "planes.0.normal", "", ".", "bodies..x",
                                         "bodies.-1.material", "solver.dt.extra", "projectiles.0.velocity"};
  const std::vector<std::string> values = {"1e-300", "nan", "inf", "-1", "0", "[1,2]", "[]", "{}", "\"text\"", "true",
                                           "null", "[1e40,0,0]", "1e-4", "\"rbdem\"", "[0,0,0]", "", "{{", "1e99999"};
  int refused = 0, accepted = 0;
  for (int k = 0; k < 1500; ++k) {
    json doc = original;
    const std::string text = keys[rng() % keys.size()] + "=" + values[rng() % values.size()];
    INFO("--set " << text);
    try {
      applyOverride(doc, text, path.string());
      parseScene(doc, path.string());
      ++accepted;
    } catch (const SceneError& e) {
      ++refused;
      CHECK(std::string(e.what()).rfind(path.string(), 0) == 0);
    } catch (const std::exception& e) {
      FAIL(e.what() << " (not a SceneError)");
    }
  }
  MESSAGE(refused << " refused, " << accepted << " accepted");
  CHECK(refused > 500);
  CHECK(accepted > 10);
}

TEST_CASE("OBJ meshes under seeded mutation: refused naming the file, or a closed mesh") {
  // The project's jelly mesh with lines cut, swapped, duplicated, turned to garbage, NaN and huge coordinates and
  // indices beyond the vertices, and bytes cut or flipped: loadClosedObj throws SceneError naming the file, or
  // returns a closed mesh with finite vertices.
  const fs::path source = fs::path(FRACTURE_SOURCE_DIR) / "assets" / "meshes" / "jelly.obj";
  std::ifstream in(source);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  REQUIRE(lines.size() > 100);
  const fs::path path = fs::temp_directory_path() / "frac_fuzz_mesh.obj";
  std::mt19937 rng(99);
  const std::vector<std::string> junk = {"v nan 0 0", "v 1e39 0 0", "v inf -inf 1", "f 1 2 999999", "f -999999 1 2",
                                         "f 1 1 1", "f 0 0 0", "v 1 2", "f 1", "vt 0 0", "o x", "\x01\xff\xfe",
                                         "mtllib missing.mtl", "f 1/2/3 4/5/6 7/8/9"};
  int refused = 0, accepted = 0;
  for (int k = 0; k < 200; ++k) {
    std::vector<std::string> l = lines;
    const int edits = 1 + int(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      const size_t at = rng() % l.size();
      switch (rng() % 5) {
        case 0: l.erase(l.begin() + long(at)); break;
        case 1: l[at] = junk[rng() % junk.size()]; break;
        case 2: l.insert(l.begin() + long(at), junk[rng() % junk.size()]); break;
        case 3: std::swap(l[at], l[rng() % l.size()]); break;
        default: l[at] = l[at].substr(0, rng() % (l[at].size() + 1)); break;
      }
    }
    {
      std::ofstream out(path, std::ios::trunc);
      for (const std::string& s : l) out << s << "\n";
    }
    INFO("case " << k);
    try {
      const TriangleMesh mesh = loadClosedObj(path.string(), 0.01f);
      ++accepted;
      CHECK(countOpenEdges(mesh) == 0);
      for (const vec3& v : mesh.vertices) CHECK(std::isfinite(v.x + v.y + v.z));
    } catch (const SceneError& e) {
      ++refused;
      CHECK(std::string(e.what()).find(path.string()) != std::string::npos);
    } catch (const std::exception& e) {
      FAIL(std::string(e.what()) << " (not a SceneError)");
    }
  }
  fs::remove(path);
  MESSAGE(refused << " refused, " << accepted << " accepted");
  CHECK(refused > 50);
}
