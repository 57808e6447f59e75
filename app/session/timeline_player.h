#pragma once
// Plays the timeline's kept frames back without simulating them again (issue "Live demos", item 1): in slow motion at
// a fraction of the recorded rate (the scene's fps: at 1x a simulated second takes a wall second), or at that rate.
// Each frame shown is a scrub (SimThread::scrubTo), so what plays back is exactly what was simulated, and "Run" from
// wherever playback stops resumes from there.
#include "session/sim_thread.h"

namespace frac {

class TimelinePlayer {
 public:
  static constexpr double kRates[] = {0.1, 0.25, 1.0};  // the Scene panel's choices

  // `scrubbedTo`: the frame the caller just scrubbed to as the start (the first kept frame when playback starts at the
  // end), -1 to start from the frame shown.
  void play(double rate, int scrubbedTo = -1) {
    rate_ = rate;
    playing_ = true;
    owed_ = 0.0;
    pending_ = scrubbedTo;
    waited_ = 0.0;
  }
  void stop() { playing_ = false; }
  bool playing() const { return playing_; }
  double rate() const { return rate_; }

  // Once per UI loop, `elapsedSeconds` of wall time after the last call, with the snapshot shown and the scene's
  // frames per simulated second: the frame to scrub to now, or -1. Waits while the previous scrub is not shown yet
  // (a large scene restores slower than the rate asks: playback slows down rather than skipping ahead unseen), and
  // stops at the timeline's last frame (running the simulation on calls stop()).
  int advance(double elapsedSeconds, const SimSnapshot& shown, double fps);

 private:
  bool playing_ = false;
  double rate_ = 0.25;
  double owed_ = 0.0;  // frames due and not yet shown
  int pending_ = -1;   // the frame last scrubbed to, until it is shown
  double waited_ = 0.0;  // wall seconds waited for it
  static constexpr double kGiveUpSeconds = 10.0;
};

}  // namespace frac
