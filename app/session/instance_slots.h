#pragma once
// Which of the renderer's shared instance buffers (render/shared_instances.h) the simulation thread may write next.
// The simulation writes a slot, then publishes a snapshot naming it (the newest); the renderer holds a slot while a
// frame that draws it is in flight. A slot is written only when it is neither the newest nor held, so a frame never
// reads a buffer being written. hold() fails for a slot that is being written or was written again since the
// snapshot naming it was published (its semaphore value differs): that snapshot is stale and a newer one is waiting.
#include <mutex>
#include <vector>

namespace frac {

class InstanceSlots {
 public:
  explicit InstanceSlots(int slots) : state_(slots, State::Free), holds_(slots, 0), value_(slots, 0) {}

  int size() const { return int(state_.size()); }

  // Simulation: a slot to write, or -1 when all are in use (publish without shared instances, or later).
  int acquireForWriting() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (int k = 0; k < size(); ++k)
      if (state_[k] == State::Free && holds_[k] == 0) {
        state_[k] = State::Writing;
        return k;
      }
    return -1;
  }
  // Simulation: the slot now holds the instances of the snapshot ready at semaphore value `value`; the previous
  // newest is free once released.
  void published(int slot, unsigned long long value) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (State& s : state_)
      if (s == State::Newest) s = State::Free;
    state_.at(slot) = State::Newest;
    value_[slot] = value;
  }
  // Simulation: writing failed; the slot is free again.
  void abandon(int slot) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (state_.at(slot) == State::Writing) state_[slot] = State::Free;
  }
  // Renderer: a frame in flight draws the slot for the snapshot ready at `value`; false when the slot is being
  // written or holds a later snapshot (the one named is stale).
  bool hold(int slot, unsigned long long value) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (state_.at(slot) == State::Writing || value_[slot] != value) return false;
    ++holds_[slot];
    return true;
  }
  // Renderer: that frame finished.
  void release(int slot) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (holds_.at(slot) > 0) --holds_[slot];
  }

 private:
  enum class State { Free, Writing, Newest };
  std::mutex mutex_;
  std::vector<State> state_;
  std::vector<int> holds_;
  std::vector<unsigned long long> value_;  // semaphore value of the snapshot each slot holds
};

}  // namespace frac
