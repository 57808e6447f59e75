// Timeline playback (session/timeline_player.h): the kept frames shown again in order at a fraction of the recorded
// rate, waiting for each scrub to be shown, stopping at the last kept frame or when the simulation runs on; and
// through the simulation thread, the frames played back are the frames simulated.
#include <doctest/doctest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "session/sim_thread.h"
#include "session/timeline_player.h"

using namespace frac;

namespace {

SimSnapshot shownAt(int frame, int last) {
  SimSnapshot s;
  s.frameIndex = frame;
  s.timelineFirst = 0;
  s.timelineLast = last;
  s.paused = true;
  return s;
}

}  // namespace

TEST_CASE("playback at 0.1x of a 500 fps scene shows 50 frames a wall second, in order, and stops at the last") {
  TimelinePlayer player;
  player.play(0.1, 10);  // scrubbed to frame 10 first
  CHECK(player.advance(0.02, shownAt(40, 200), 500.0) == -1);  // frame 10 not shown yet: wait
  // 20 ms at 50 frames/s is one frame: 10 -> 11.
  CHECK(player.advance(0.02, shownAt(10, 200), 500.0) == 11);
  CHECK(player.advance(0.02, shownAt(10, 200), 500.0) == -1);  // 11 still on its way: nothing skipped ahead
  // A slow loop (100 ms) owes five frames: one scrub five frames on.
  CHECK(player.advance(0.1, shownAt(11, 200), 500.0) == 16);
  // 25 frames owed near the end: clamped to the last kept frame, then it stops.
  CHECK(player.advance(0.5, shownAt(16, 30), 500.0) == 30);
  CHECK(player.playing());
  CHECK(player.advance(0.02, shownAt(30, 30), 500.0) == -1);
  CHECK_FALSE(player.playing());
}

TEST_CASE("playback stops when stopped (Run), and when its frame never comes") {
  TimelinePlayer player;
  player.play(1.0, 5);
  CHECK(player.advance(0.01, shownAt(5, 100), 100.0) == 6);
  player.stop();  // what Run and Space do
  CHECK(player.advance(0.01, shownAt(6, 100), 100.0) == -1);
  player.play(1.0, 50);
  for (int i = 0; i < 20 && player.playing(); ++i) player.advance(1.0, shownAt(3, 100), 100.0);
  CHECK_FALSE(player.playing());  // frame 50 never shown in 10 s: given up
}

TEST_CASE("played back through the simulation thread, each frame is the state simulated at that frame") {
  SessionOptions options;
  options.scenePath = std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/default.json";
  options.overrides = {"bodies.0.element_radius=0.006", "bodies.1.element_radius=0.006",
                       "bodies.2.element_radius=0.006"};
  SimThread sim(options, /*startPaused=*/true);
  sim.setTimeline(true, size_t(1) << 30);
  sim.setLockstep(true);
  sim.setPaused(false);
  const auto waitFor = [](auto condition) {
    const auto start = std::chrono::steady_clock::now();
    while (!condition() && std::chrono::steady_clock::now() - start < std::chrono::seconds(60))
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
  };
  std::vector<uint64_t> simulated(5, 0);
  for (int f = 1; f <= 4; ++f) {
    waitFor([&] { sim.poll(); return sim.snapshot().frameIndex == f; });
    REQUIRE(sim.snapshot().frameIndex == f);
    simulated[f] = sim.snapshot().stateDigest;
    if (f < 4) sim.releaseFrame();
  }
  sim.setPaused(true);
  sim.setLockstep(false);
  sim.releaseFrame();
  waitFor([&] { sim.poll(); return sim.snapshot().timelineLast == 4 && sim.snapshot().paused; });
  // From frame 1 at 0.25x of 500 fps: every loop of 8 ms owes one frame.
  TimelinePlayer player;
  sim.scrubTo(1);
  player.play(0.25, 1);
  std::vector<int> shown;
  for (int loop = 0; loop < 20000 && player.playing(); ++loop) {
    sim.poll();
    const SimSnapshot s = sim.snapshot();
    if (shown.empty() || shown.back() != s.frameIndex) {
      shown.push_back(s.frameIndex);
      CHECK(s.stateDigest == simulated[size_t(s.frameIndex)]);
    }
    const int next = player.advance(0.008, s, 500.0);
    if (next >= 0) sim.scrubTo(next);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CHECK(shown == std::vector<int>{4, 1, 2, 3, 4});  // the end, then the playback from frame 1, in order
  CHECK(sim.snapshot().paused);
}
