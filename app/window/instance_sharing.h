#pragma once
// The window's half of the CUDA-Vulkan instance hand-over: the ring of shared instance buffers and timeline semaphore
// (render/shared_instances.h), the InstanceSlots it shares with the simulation thread, and which slot each frame in
// flight draws. A frame holds its slot from submission until its fence has passed; a snapshot whose slot is already
// being rewritten is not drawn (a newer one is waiting).
#include <memory>
#include <vector>

#include "frame_pacer.h"
#include "scene_renderer.h"
#include "session/sim_thread.h"
#include "shared_instances.h"

namespace frac {

class InstanceSharing {
 public:
  InstanceSharing(const render::Context& context, int framesInFlight);
  ~InstanceSharing();

  // Shares a ring with the simulation thread (CUDA writes the elements into it) where Vulkan and CUDA both can and
  // drive the same GPU; otherwise tells the thread why not. Sized from `shown`, or without a snapshot yet (null) from
  // the thread's first. Waits for the device; a ring too small for the scene is replaced by a larger one.
  void share(SimThread& sim, const SimSnapshot* shown);
  // For frame in flight `frameSlot` drawing `shown`: true when there is nothing shared to draw, or when its slot is
  // now held for that frame, with `external` and `wait` (the semaphore value that marks the instances written) set;
  // false when the slot is being written again or holds a newer snapshot (the previous image stays).
  bool holdForFrame(int frameSlot, const SimSnapshot& shown, render::ExternalInstances& external,
                    render::TimelineWait& wait);
  // That frame in flight finished: it no longer draws its slot.
  void frameFinished(int frameSlot);
  // Lets go of the ring (after the simulation thread that imported it is gone).
  void release() { ring_.reset(); }

 private:
  const render::Context& context_;
  std::unique_ptr<render::SharedInstanceRing> ring_;
  std::shared_ptr<InstanceSlots> slots_;
  std::vector<int> held_;  // per frame in flight: the shared slot its commands draw (-1: none)
};

}  // namespace frac
