#pragma once
// The timeline's memory (app/session/sim_thread.h; fracture-bench --timeline measures its cost): the checkpoints of
// successive frames (CheckpointWriter::bytes) in a ring of at most `budget` bytes. A frame joining drops the frames at
// or after it first (the future left by scrubbing back), then the oldest while the ring is over its budget; the
// newest always stays.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

namespace frac {

class CheckpointRing {
 public:
  struct Frame {
    int frameIndex;
    std::vector<uint8_t> state;
  };

  void setBudget(size_t bytes) { budget_ = bytes; }
  void keep(int frameIndex, std::vector<uint8_t> state) {
    while (!frames_.empty() && frames_.back().frameIndex >= frameIndex) dropBack();
    bytes_ += state.size();
    frames_.push_back({frameIndex, std::move(state)});
    while (frames_.size() > 1 && bytes_ > budget_) {
      bytes_ -= frames_.front().state.size();
      frames_.pop_front();
    }
  }
  void clear() {
    frames_.clear();
    bytes_ = 0;
  }
  const Frame* find(int frameIndex) const {
    auto it = std::find_if(frames_.begin(), frames_.end(), [&](const Frame& f) { return f.frameIndex == frameIndex; });
    return it == frames_.end() ? nullptr : &*it;
  }
  int first() const { return frames_.empty() ? -1 : frames_.front().frameIndex; }
  int last() const { return frames_.empty() ? -1 : frames_.back().frameIndex; }
  size_t bytes() const { return bytes_; }
  size_t size() const { return frames_.size(); }

 private:
  void dropBack() {
    bytes_ -= frames_.back().state.size();
    frames_.pop_back();
  }
  std::deque<Frame> frames_;
  size_t bytes_ = 0, budget_ = 0;
};

}  // namespace frac
