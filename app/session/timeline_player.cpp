#include "session/timeline_player.h"

#include <algorithm>
#include <cmath>

namespace frac {

int TimelinePlayer::advance(double elapsedSeconds, const SimSnapshot& shown, double fps) {
  if (!playing_) return -1;
  if (pending_ >= 0 && shown.frameIndex != pending_) {  // the last scrub is still on its way
    waited_ += elapsedSeconds;
    if (waited_ > kGiveUpSeconds) playing_ = false;  // it never came (the frame left the timeline)
    return -1;
  }
  pending_ = -1;
  waited_ = 0.0;
  if (shown.frameIndex >= shown.timelineLast) {
    playing_ = false;
    return -1;
  }
  owed_ = std::min(owed_ + elapsedSeconds * rate_ * fps, 1e6);
  const double whole = std::floor(owed_);
  if (whole < 1.0) return -1;
  owed_ -= whole;
  pending_ = std::min(shown.frameIndex + int(whole), shown.timelineLast);
  return pending_;
}

}  // namespace frac
