// --checkpoint-every and --resume end to end: a run resumed from a checkpoint at frame k ends with the same state
// digest as the run straight through (bdem and pd-bond, also after a thrown ball and a material edit); truncated,
// bit-flipped and other-version checkpoints are refused naming the file, exit 2.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_run.h"

namespace fs = std::filesystem;
using frac::test::runSandbox;

namespace {

using frac::test::kSource;
using frac::test::kCoarseDefault;
const std::string kPdBond = kSource + "/assets/scenes/pd_glass_plate.json --set bodies.0.element_radius=0.0015";

std::string digestOf(const fs::path& out) {
  std::ifstream in(out / "summary.json");
  return nlohmann::json::parse(in)["state_digest"].get<std::string>();
}

// Runs `scene` for 6 frames with a checkpoint every 3, resumes from frame 3, and compares the final digests.
void checkResume(const std::string& scene, const std::string& name) {
  const fs::path dir = frac::test::freshDir("checkpoint_" + name);
  std::string errors;
  REQUIRE(runSandbox(scene + " --headless --frames 6 --checkpoint-every 3 --out " + (dir / "full").string(), dir,
                     errors) == 0);
  REQUIRE(fs::exists(dir / "full/checkpoints/checkpoint_000003.ckpt"));
  REQUIRE(fs::exists(dir / "full/checkpoints/checkpoint_000006.ckpt"));
  REQUIRE(runSandbox("--headless --frames 6 --out " + (dir / "resumed").string() + " --resume " +
                         (dir / "full/checkpoints/checkpoint_000003.ckpt").string(),
                     dir, errors) == 0);
  CHECK(errors.find("resuming") != std::string::npos);
  CHECK(digestOf(dir / "resumed") == digestOf(dir / "full"));
  // The resumed run simulated only frames 4 to 6.
  std::ifstream stats(dir / "resumed/stats.csv");
  std::string header, first;
  std::getline(stats, header);
  std::getline(stats, first);
  CHECK(first.rfind("4,", 0) == 0);
}

}  // namespace

TEST_CASE("a bdem run resumed from a checkpoint ends bit-identical to the run straight through") {
  checkResume(kCoarseDefault, "bdem");
}

TEST_CASE("a pd-bond run resumed from a checkpoint ends bit-identical to the run straight through") {
  checkResume(kPdBond, "pd_bond");
}

TEST_CASE("checkpoints after a thrown ball and a material edit resume bit-identically (bdem and pd-bond)") {
  for (const auto& [scene, material, name] : {std::tuple{kSource + "/assets/scenes/default.json", std::string("stone"), "bdem"},
                                              std::tuple{kSource + "/assets/scenes/pd_glass_plate.json", std::string("glass"), "pd"}}) {
    INFO(name);
    const fs::path dir = frac::test::freshDir(std::string("checkpoint_edits_") + name);
    // A replay: the scene (coarse), a ball thrown at step 5 and the material's stiffness or strength edited at step 20.
    const std::string key = std::string("materials.") + material + (std::string(name) == "bdem" ? ".young" : ".critical_stretch");
    nlohmann::json header = {{"replay", 1}, {"scene", scene}, {"seed", -1}, {"threads", -1}, {"fps", -1},
                             {"frames", 0}, {"record_from", 0},
                             {"overrides", std::string(name) == "bdem"
                                               ? std::vector<std::string>{"bodies.0.element_radius=0.006",
                                                                          "bodies.1.element_radius=0.006",
                                                                          "bodies.2.element_radius=0.006"}
                                               : std::vector<std::string>{"bodies.0.element_radius=0.0015"}}};
    std::ofstream(dir / "edits.jsonl")
        << header.dump() << "\n"
        << R"({"step": 5, "type": "throw", "position": [0.0, 0.3, 0.0], "velocity": [0, -8, 0], "radius": 0.012, "material": ")"
        << material << R"("})" << "\n"
        << R"({"step": 20, "type": "set", "key": ")" << key << R"(", "value": )"
        << (std::string(name) == "bdem" ? "1.5e9" : "0.002") << "}\n";
    std::string errors;
    REQUIRE(runSandbox("--replay " + (dir / "edits.jsonl").string() + " --headless --frames 6 --checkpoint-every 3 --out " +
                           (dir / "full").string(),
                       dir, errors) == 0);
    REQUIRE(runSandbox("--headless --frames 6 --out " + (dir / "resumed").string() + " --resume " +
                           (dir / "full/checkpoints/checkpoint_000003.ckpt").string(),
                       dir, errors) == 0);
    CHECK(digestOf(dir / "resumed") == digestOf(dir / "full"));
  }
}

TEST_CASE("truncated, bit-flipped and other-version checkpoints are refused naming the file, exit 2") {
  const fs::path dir = frac::test::freshDir("checkpoint_bad");
  std::string errors;
  REQUIRE(runSandbox(kCoarseDefault + " --headless --frames 1 --checkpoint-every 1 --out " + (dir / "run").string(),
                     dir, errors) == 0);
  const fs::path good = dir / "run/checkpoints/checkpoint_000001.ckpt";
  std::ifstream in(good, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto variant = [&](const std::string& file, const std::string& content) {
    std::ofstream(dir / file, std::ios::binary) << content;
    return (dir / file).string();
  };
  std::string flipped = bytes;
  flipped[bytes.size() / 2] = char(flipped[bytes.size() / 2] ^ 0x10);
  std::string version = bytes;
  version[8] = 9;
  const struct {
    std::string path, expected;
  } cases[] = {{variant("truncated.ckpt", bytes.substr(0, bytes.size() - 100)), "truncated"},
               {variant("flipped.ckpt", flipped), "corrupt"},
               {variant("version.ckpt", version), "another version"},
               {variant("other.ckpt", "not a checkpoint"), "not a checkpoint"},
               {(dir / "missing.ckpt").string(), "cannot open"}};
  for (const auto& c : cases) {
    INFO(c.path);
    CHECK(runSandbox("--headless --frames 2 --out " + (dir / "resumed").string() + " --resume " + c.path, dir, errors) == 2);
    CHECK(errors.find(c.path) != std::string::npos);
    CHECK(errors.find(c.expected) != std::string::npos);
    CHECK_FALSE(fs::exists(dir / "resumed/summary.json"));
  }
}

TEST_CASE("a replay goes on from a checkpoint of its run: the commands after the checkpoint follow") {
  const fs::path dir = frac::test::freshDir("checkpoint_replay");
  nlohmann::json header = {{"replay", 1}, {"scene", kSource + "/assets/scenes/default.json"}, {"seed", -1},
                           {"threads", -1}, {"fps", -1}, {"frames", 6}, {"record_from", 0},
                           {"overrides", {"bodies.0.element_radius=0.006", "bodies.1.element_radius=0.006",
                                          "bodies.2.element_radius=0.006"}}};
  // The default scene at this size takes 149 steps a frame: the throw comes before the checkpoint at frame 3 (step
  // 447), the edit after it.
  std::ofstream(dir / "run.jsonl")
      << header.dump() << "\n"
      << R"({"step": 5, "type": "throw", "position": [0.25, 0.1, 0.0], "velocity": [-12, 0, 0], "radius": 0.015, "material": "steel"})"
      << "\n"
      << R"({"step": 600, "type": "set", "key": "materials.stone.young", "value": 2e9})" << "\n";
  std::string errors;
  REQUIRE(runSandbox("--replay " + (dir / "run.jsonl").string() + " --headless --checkpoint-every 3 --out " +
                         (dir / "full").string(),
                     dir, errors) == 0);
  const std::string checkpoint = (dir / "full/checkpoints/checkpoint_000003.ckpt").string();
  REQUIRE(runSandbox("--replay " + (dir / "run.jsonl").string() + " --resume " + checkpoint + " --headless --out " +
                         (dir / "replayed").string(),
                     dir, errors) == 0);
  CHECK(digestOf(dir / "replayed") == digestOf(dir / "full"));
  // Without the replay the edit at step 600 never comes: another end.
  REQUIRE(runSandbox("--resume " + checkpoint + " --headless --frames 6 --out " + (dir / "alone").string(), dir,
                     errors) == 0);
  CHECK(digestOf(dir / "alone") != digestOf(dir / "full"));
}

TEST_CASE("a diverging run writes its last good state, and a resume with a smaller dt goes on from it") {
  // wall_impact at dt 1e-4 s, 10x its stable step: the watch stops it within a frame (exit 3); the state of the frame
  // before is in OUT/last_good.ckpt, and --resume with --set solver.dt (a live edit of the resumed state) runs on.
  const fs::path dir = frac::test::freshDir("checkpoint_last_good");
  const std::string scene = kSource + "/assets/scenes/wall_impact.json";
  std::string errors;
  CHECK(runSandbox(scene + " --headless --frames 30 --threads 2 --set solver.dt=1e-4 --out " + (dir / "bad").string(),
                   dir, errors) == 3);
  const fs::path lastGood = dir / "bad/last_good.ckpt";
  REQUIRE(fs::exists(lastGood));
  CHECK(errors.find("the last good state (frame") != std::string::npos);
  CHECK(errors.find("--resume " + lastGood.string()) != std::string::npos);
  REQUIRE(runSandbox("--headless --resume " + lastGood.string() + " --set solver.dt=1e-5 --frames 2 --threads 2 --out " +
                         (dir / "again").string(),
                     dir, errors) == 0);
  std::ifstream in(dir / "again/summary.json");
  const nlohmann::json summary = nlohmann::json::parse(in);
  CHECK(summary["dt"].get<double>() == doctest::Approx(1e-5).epsilon(0.01));
  CHECK_FALSE(summary.contains("diverged"));
  // A bad --set after --resume is the usual message.
  CHECK(runSandbox("--headless --resume " + lastGood.string() + " --set solver.dt=-1 --frames 2 --out " +
                       (dir / "bad_set").string(),
                   dir, errors) == 2);
  CHECK(errors.find("solver.dt") != std::string::npos);
}
