#pragma once
// Single producer, single consumer triple buffer: the writer fills a back slot and publishes it; the reader takes
// the newest published slot. Neither ever waits for the other (the simulation never waits for the UI).
#include <atomic>
#include <cstdint>

namespace frac {

template <class T>
class TripleBuffer {
 public:
  // Writer: the slot to fill, then publish().
  T& back() { return slots_[back_]; }
  void publish() {
    // Swap the back slot with the shared middle one, marking it fresh.
    const uint8_t old = middle_.exchange(uint8_t(back_ | kFresh), std::memory_order_acq_rel);
    back_ = old & kIndex;
  }
  // Reader: true when a newer slot was published since the last call; front() is then the newest.
  bool update() {
    if (!(middle_.load(std::memory_order_acquire) & kFresh)) return false;
    const uint8_t old = middle_.exchange(front_, std::memory_order_acq_rel);
    front_ = old & kIndex;
    return true;
  }
  const T& front() const { return slots_[front_]; }
  T& front() { return slots_[front_]; }

 private:
  static constexpr uint8_t kIndex = 3, kFresh = 4;
  T slots_[3];
  uint8_t back_ = 0, front_ = 1;
  std::atomic<uint8_t> middle_{2};
};

}  // namespace frac
