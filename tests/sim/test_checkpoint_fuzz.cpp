// Checkpoint files under mutation (io/checkpoint_file.h): thousands of seeded truncations, byte flips, insertions and
// deletions of a real checkpoint are each refused with std::invalid_argument naming the file, never accepted and never
// a crash; the untouched file restores.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <stdexcept>

#include "io/checkpoint_file.h"
#include "io/scene_loader.h"
#include "solvers/simulation.h"

using namespace frac;
namespace fs = std::filesystem;

namespace {

SceneDesc smallScene() {
  return parseScene(nlohmann::json::parse(R"({"name": "fuzz", "solver": {"method": "bdem"},
      "materials": {"m": {"density": 2000, "young": 1e7, "tensile_strength": 1e5, "shear_strength": 1e5}},
      "bodies": [{"shape": {"type": "box", "size": [0.03, 0.03, 0.03]}, "position": [0, 0.02, 0],
                  "element_radius": 0.005, "material": "m", "velocity": [0, -1, 0]}],
      "planes": [{"point": [0, 0, 0], "normal": [0, 1, 0], "material": "m"}]})"),
                    "fuzz.json");
}

}  // namespace

TEST_CASE("checkpoint files: seeded mutations are all refused naming the file, the untouched file restores") {
  const fs::path dir = fs::temp_directory_path() / "frac_checkpoint_fuzz";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string good = (dir / "good.ckpt").string();
  {
    Simulation sim(smallScene(), 1);
    for (int s = 0; s < 20; ++s) sim.step();
    CheckpointWriter out;
    sim.saveState(out);
    out.write(good);
  }
  std::ifstream in(good, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(bytes.size() > 1000);
  {
    Simulation sim(smallScene(), 1);
    sim.restoreState(CheckpointReader(good));
    CHECK(sim.steps() == 20);
  }
  std::mt19937 random(12345);
  const std::string path = (dir / "mutated.ckpt").string();
  int refused = 0;
  const int cases = 2000;
  for (int c = 0; c < cases; ++c) {
    std::string m = bytes;
    switch (c % 4) {
      case 0: m.resize(random() % m.size()); break;                                         // truncated
      case 1: m[random() % m.size()] ^= char(1 + random() % 255); break;                    // a byte changed
      case 2: m.insert(m.begin() + std::ptrdiff_t(random() % m.size()), char(random())); break;  // a byte more
      default: m.erase(m.begin() + std::ptrdiff_t(random() % m.size())); break;             // a byte less
    }
    std::ofstream(path, std::ios::binary | std::ios::trunc) << m;
    try {
      Simulation sim(smallScene(), 1);
      sim.restoreState(CheckpointReader(path));
    } catch (const std::invalid_argument& e) {
      ++refused;
      if (std::string(e.what()).find(path) == std::string::npos) FAIL_CHECK("message without the file: " << e.what());
    }
  }
  CHECK(refused == cases);
}
