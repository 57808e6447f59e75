#include "window/instance_sharing.h"

#include <algorithm>
#include <iostream>

#include <unistd.h>

#include "backend/backend.h"
#include "context.h"

namespace frac {

InstanceSharing::InstanceSharing(const render::Context& context, int framesInFlight)
    : context_(context), held_(size_t(framesInFlight), -1) {}

InstanceSharing::~InstanceSharing() = default;

void InstanceSharing::share(SimThread& sim, const SimSnapshot* shown) {
  // Shared instance buffers: one per frame in flight, the newest snapshot's, and one the simulation writes.
  const int ringSlots = int(held_.size()) + 2;
  SharedInstanceExport shared;
  if (!render::SharedInstanceRing::supported(context_, &shared.unavailable) ||
      !cudaBackendAvailable(&shared.unavailable)) {
    sim.shareInstances(shared);  // the Solver panel says why
    return;
  }
  if (context_.deviceUuid() != cudaDeviceUuid()) {  // both APIs must drive the same GPU
    shared.unavailable = "Vulkan renders on " + context_.deviceName() + ", CUDA runs on " + cudaDeviceName();
    sim.shareInstances(shared);
    return;
  }
  // Room for the scene and what throws add to it; a scene that outgrows it gets a larger ring.
  if (!shown) sim.poll();  // the thread's first snapshot (the main loop takes it too)
  const SimSnapshot& latest = shown ? *shown : sim.snapshot();
  const int elements = std::max({latest.stats.elements, latest.frame.elementsOnDevice.count,
                                 int(latest.frame.elementCount()), 1});
  const int capacity = std::max(2 * elements, elements + 65536);
  vkDeviceWaitIdle(context_.device());  // no frame in flight draws the old buffers
  std::fill(held_.begin(), held_.end(), -1);
  if (ring_ && ring_->capacity() < capacity) {  // CUDA lets go of the old buffers before they go
    SharedInstanceExport none;
    none.unavailable = "making larger shared buffers";
    sim.shareInstances(none);
    ring_.reset();
  }
  try {
    if (!ring_) ring_ = std::make_unique<render::SharedInstanceRing>(context_, capacity, ringSlots);
    shared.firstValue = ring_->semaphoreValue();
    slots_ = std::make_shared<InstanceSlots>(ring_->slots());
    shared.slots = slots_;
    shared.capacity = ring_->capacity();
    for (int k = 0; k < ring_->slots(); ++k) {
      shared.memoryFds.push_back(ring_->exportMemoryFd(k));
      shared.memoryBytes.push_back(size_t(ring_->allocationSize(k)));
    }
    shared.semaphoreFd = ring_->exportSemaphoreFd();
  } catch (const std::exception& e) {
    for (int fd : shared.memoryFds) close(fd);
    shared = SharedInstanceExport{};
    shared.unavailable = e.what();
  }
  const std::string why = sim.shareInstances(shared);
  if (!why.empty()) std::cerr << "renderer: instances through host memory: " << why << "\n";
}

bool InstanceSharing::holdForFrame(int frameSlot, const SimSnapshot& shown, render::ExternalInstances& external,
                                   render::TimelineWait& wait) {
  if (shown.sharedSlot < 0) return true;
  if (!ring_ || !slots_ || shown.sharedSlot >= ring_->slots() || !slots_->hold(shown.sharedSlot, shown.ready))
    return false;
  held_.at(size_t(frameSlot)) = shown.sharedSlot;
  external.buffer = ring_->buffer(shown.sharedSlot);
  external.summary = shown.frame.elementsOnDevice;
  wait.semaphore = ring_->semaphore();
  wait.value = shown.ready;
  return true;
}

void InstanceSharing::frameFinished(int frameSlot) {
  int& held = held_.at(size_t(frameSlot));
  if (held >= 0) {
    slots_->release(held);
    held = -1;
  }
}

}  // namespace frac
