// Checkpoints on CUDA (Solver::saveState / restoreState with the state on the device): a run saved mid-way and
// restored into a fresh simulation on CUDA ends with the digest of the CUDA run straight through, and a checkpoint
// taken on CUDA resumes on the CPU with the same end (the backends give the same bits); bdem, pd-bond and fem-debris.
#include <doctest/doctest.h>

#include <filesystem>

#include "gpu_compare.h"
#include "io/checkpoint_file.h"

using namespace frac;

namespace {

uint64_t resumedDigest(const std::string& scene, const std::string& saveOn, const std::string& resumeOn, int steps) {
  const std::string path = std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/" + scene;
  const std::string file = (std::filesystem::temp_directory_path() / ("frac_gpu_checkpoint_" + scene + ".ckpt")).string();
  {
    Simulation sim(loadScene(path, {"solver.backend=" + saveOn}), 0);
    for (int s = 0; s < steps / 2; ++s) sim.step();
    CheckpointWriter out;
    sim.saveState(out);
    out.write(file);
  }
  Simulation sim(loadScene(path, {"solver.backend=" + resumeOn}), 0);
  sim.restoreState(CheckpointReader(file));
  for (int s = steps / 2; s < steps; ++s) sim.step();
  return sim.solver().stateDigest();
}

uint64_t straightDigest(const std::string& scene, const std::string& backend, int steps) {
  Simulation sim(loadScene(std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/" + scene, {"solver.backend=" + backend}), 0);
  REQUIRE(sim.solver().activeBackend() == (backend == "cuda" ? Backend::Cuda : Backend::Cpu));
  for (int s = 0; s < steps; ++s) sim.step();
  return sim.solver().stateDigest();
}

}  // namespace

TEST_CASE("checkpoints on CUDA: saved and resumed on the device, or resumed on the CPU, the straight run's bits") {
  for (const auto& [scene, steps] : {std::pair{"wall_impact.json", 400}, std::pair{"pd_glass_plate.json", 400},
                                     std::pair{"fem_rubber_vase_bounce.json", 1200}}) {
    INFO(scene);
    const uint64_t straight = straightDigest(scene, "cuda", steps);
    CHECK(resumedDigest(scene, "cuda", "cuda", steps) == straight);
    CHECK(resumedDigest(scene, "cuda", "cpu", steps) == straight);
  }
}
