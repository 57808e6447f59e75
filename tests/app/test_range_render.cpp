// "Render range" (issue "Live demos", item 1): frames of a run re-simulated headless from its replay log by a child
// process, rendered at another size: the asked frames, at the asked size, ending in the state of the run's own frame.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "recorder/png_file.h"
#include "session/range_render.h"

using namespace frac::test;

TEST_CASE("a range of frames renders at its own size and ends in the state the run had at that frame") {
  const fs::path dir = freshDir("range_render");
  // wall_impact, coarser, its ball held back; a throw at step 0 breaks it.
  std::ofstream(dir / "run.jsonl")
      << nlohmann::json({{"replay", 1},
                         {"scene", std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/wall_impact.json"},
                         {"overrides", {"projectiles.0.launch_time=1000", "bodies.0.element_radius=0.006"}},
                         {"seed", -1}, {"threads", -1}, {"fps", -1}, {"frames", 0}, {"record_from", 0}})
             .dump()
      << "\n"
      << R"({"step": 0, "type": "throw", "position": [0.02, 0.1, 0.2], "velocity": [0, 0, -6], "radius": 0.03,)"
      << R"( "material": "steel"})" << "\n";
  const frac::ReplayLog log = frac::readReplay((dir / "run.jsonl").string());

  frac::RangeRender range;
  frac::RangeRenderRequest request;
  request.folder = (dir / "range").string();
  request.first = 8;
  request.last = 10;
  request.width = 320;
  request.height = 180;
  request.renderArguments = {"--camera", "0.5,0.3,0.6,0,0.1,0,40", "--color", "damage"};
  range.start(log, request, FRACTURE_SANDBOX_EXE);
  REQUIRE(range.wait() == 0);
  CHECK(range.framesWritten() == 3);
  int w = 0, h = 0;
  std::vector<uint8_t> px;
  std::string error;
  REQUIRE(frac::readPngFile(dir / "range" / "frames" / "frame_000002.png", w, h, px, error));
  CHECK(w == 320);
  CHECK(h == 180);

  // The same run straight through to frame 10: the range's last frame has its state.
  std::string errors;
  REQUIRE(runSandbox("--replay " + (dir / "run.jsonl").string() + " --headless --frames 10 --out " +
                         (dir / "straight").string(),
                     dir, errors) == 0);
  const nlohmann::json straight = nlohmann::json::parse(std::ifstream(dir / "straight" / "summary.json"));
  const nlohmann::json ranged = nlohmann::json::parse(std::ifstream(dir / "range" / "summary.json"));
  CHECK(ranged["frames"] == 10);
  CHECK(ranged["state_digest"] == straight["state_digest"]);
  CHECK(straight["bonds_broken"].get<long long>() > 100);

  CHECK_THROWS_AS(range.start(log, [&] {
    frac::RangeRenderRequest bad = request;
    bad.first = 11;
    return bad;
  }(), FRACTURE_SANDBOX_EXE), std::invalid_argument);
}
