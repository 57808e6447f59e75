// Timeline playback (session/timeline_player.h): the kept frames shown again in order at a fraction of the recorded
// rate, waiting for each scrub to be shown, stopping at the last kept frame or when stopped (through the simulation
// thread: tests/app/test_session.cpp).
#include <doctest/doctest.h>

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
