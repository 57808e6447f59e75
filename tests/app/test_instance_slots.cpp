// InstanceSlots: the hand-over of shared instance buffers between the simulation thread (writes, publishes) and the
// renderer (holds while a frame draws): a buffer is never written while it is the newest or held.
#include <doctest/doctest.h>

#include "session/instance_slots.h"

using frac::InstanceSlots;

TEST_CASE("shared instance slots: written only when neither newest nor held, and stale holds are refused") {
  InstanceSlots slots(3);
  const int a = slots.acquireForWriting();
  REQUIRE(a >= 0);
  slots.published(a, 1);
  CHECK(slots.hold(a, 1));  // a frame draws the newest snapshot
  const int b = slots.acquireForWriting();
  REQUIRE(b >= 0);
  CHECK(b != a);
  CHECK_FALSE(slots.hold(b, 2));  // being written: a snapshot naming it would be stale
  slots.published(b, 2);          // a is no longer newest but still held
  const int c = slots.acquireForWriting();
  REQUIRE(c >= 0);
  CHECK(c != a);
  CHECK(c != b);
  CHECK(slots.acquireForWriting() == -1);  // a held, b newest, c being written
  slots.release(a);
  CHECK(slots.acquireForWriting() == a);  // free again once the frame finished
  slots.abandon(a);                       // the write failed: free at once
  slots.abandon(c);
  CHECK(slots.hold(b, 2));
  CHECK(slots.hold(b, 2));  // two frames in flight draw the same snapshot
  CHECK_FALSE(slots.hold(b, 1));  // a snapshot that named b before it was written again
  slots.published(a, 3);    // (a written and published again)
  CHECK_FALSE(slots.hold(a, 1));  // the first snapshot's contents are gone
  slots.release(b);
  const int next = slots.acquireForWriting();
  CHECK(next != b);  // still held by the second frame
  CHECK(next != a);  // newest
}
