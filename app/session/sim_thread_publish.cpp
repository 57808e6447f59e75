// SimThread's publishing: the snapshot of a finished frame handed to the renderer (publish), the fracture surfaces
// it carries (writeSurfaces), and the instance buffers shared with CUDA through Vulkan's external memory
// (shareInstances, publishShared, releaseShared), which the solver writes on the device when they are given.
#include "session/sim_thread.h"

#include <unistd.h>

#include <stdexcept>
#include <string>

namespace frac {

std::string SimThread::shareInstances(SharedInstanceExport shared) {
  std::lock_guard<std::mutex> lock(sharedMutex_);
  releaseShared();
  if (!shared.unavailable.empty() || !shared.slots) {
    for (int fd : shared.memoryFds) close(fd);
    if (shared.semaphoreFd >= 0) close(shared.semaphoreFd);
    const std::string why = shared.unavailable.empty() ? "no slot bookkeeping was given" : shared.unavailable;
    sharingLine_ = "instances through host memory: " + why;
    return why;
  }
  std::string why;
  size_t k = 0;
  for (; k < shared.memoryFds.size(); ++k) {
    ExternalDeviceBuffer buffer;
    if (!importExternalMemoryFd(shared.memoryFds[k], shared.memoryBytes.at(k), buffer, &why)) break;
    sharedBuffers_.push_back(buffer);
  }
  const bool buffersImported = k == shared.memoryFds.size();
  for (++k; k < shared.memoryFds.size(); ++k) close(shared.memoryFds[k]);  // not imported after a failure
  if (buffersImported && !shared.memoryFds.empty()) {
    if (importExternalTimelineSemaphoreFd(shared.semaphoreFd, sharedReady_, &why)) {
      sharedSlots_ = shared.slots;
      sharedCapacity_ = shared.capacity;
      readyValue_ = shared.firstValue;  // the semaphore may come from an earlier session: its values only increase
      sharingLine_ = "instances shared with CUDA (" + std::to_string(sharedBuffers_.size()) + " buffers of " +
                     std::to_string(shared.capacity) + " elements)";
      return "";
    }
  } else if (shared.semaphoreFd >= 0) {
    close(shared.semaphoreFd);
  }
  if (why.empty()) why = "no shared buffers were given";
  releaseShared();
  sharingLine_ = "instances through host memory: " + why;
  return why;
}

void SimThread::releaseShared() {
  for (ExternalDeviceBuffer& buffer : sharedBuffers_) releaseExternalMemory(buffer);
  sharedBuffers_.clear();
  releaseExternalSemaphore(sharedReady_);
  sharedSlots_.reset();
  sharedCapacity_ = 0;
}

bool SimThread::publishShared(SimSnapshot& s) {
  s.sharedSlot = -1;
  s.sharedCapacityExceeded = false;
  std::lock_guard<std::mutex> lock(sharedMutex_);
  if (sharedBuffers_.empty()) return false;
  Solver& solver = session_.simulation().solver();
  if (solver.activeBackend() != Backend::Cuda) {
    sharingLine_ = "instances through host memory: the solver runs on the CPU";
    return false;
  }
  if (bondLines_) {
    sharingLine_ = "instances through host memory: bond lines are drawn from the host copy";
    return false;
  }
  if (surfaces_) {
    sharingLine_ = "instances through host memory: fracture surfaces are coloured from the host copy";
    return false;
  }
  if (exportData_) {
    sharingLine_ = "instances through host memory: the recording exports the elements' data";
    return false;
  }
  const int slot = sharedSlots_->acquireForWriting();
  if (slot < 0) return false;  // every buffer is drawn or newest: this snapshot goes through the host
  try {
    auto* out = static_cast<SphereInstance*>(sharedBuffers_[slot].pointer);
    const InstanceSummary summary = solver.writeInstances(out, sharedCapacity_, instanceScalar_);
    if (summary.count < 0) {
      sharedSlots_->abandon(slot);
      s.sharedCapacityExceeded = true;
      sharingLine_ = "instances through host memory: more elements than the shared buffers hold (" +
                     std::to_string(sharedCapacity_) + ")";
      return false;
    }
    std::string why;
    if (!signalExternalSemaphore(sharedReady_, readyValue_ + 1, &why)) throw std::runtime_error(why);
    ++readyValue_;
    solver.writeFrameWithoutElements(s.frame, summary);
    s.sharedSlot = slot;
    s.ready = readyValue_;
    sharedSlots_->published(slot, readyValue_);
    sharingLine_ = "instances shared with CUDA (" + std::to_string(sharedBuffers_.size()) + " buffers of " +
                   std::to_string(sharedCapacity_) + " elements)";
    return true;
  } catch (const std::exception& e) {  // sharing stops; frames go on through the host
    sharedSlots_->abandon(slot);
    releaseShared();
    sharingLine_ = std::string("instances through host memory: ") + e.what();
    return false;
  }
}

void SimThread::writeSurfaces(SimSnapshot& s) {
  if (!surfaces_) {
    s.frame.surfaces.reset();
    return;
  }
  // Reuse this slot's mesh when no one else holds it (the UI's copy of an older snapshot may).
  std::shared_ptr<SurfaceMesh> mesh;
  if (s.frame.surfaces && s.frame.surfaces.use_count() == 1)
    mesh = std::const_pointer_cast<SurfaceMesh>(s.frame.surfaces);
  else
    mesh = std::make_shared<SurfaceMesh>();
  s.frame.surfaces.reset();
  SurfaceSettings settings;
  settings.cellSize = surfaceCell_;
  session_.simulation().solver().writeSurfaces(*mesh, settings);
  s.frame.surfaces = std::move(mesh);
}

void SimThread::publish(double stepsPerSecond, double realTimeFactor) {
  publishRequested_ = false;
  SimSnapshot& s = snapshots_.back();
  const Simulation& sim = session_.simulation();
  const bool shared = publishShared(s);
  if (!shared) session_.simulation().solver().writeFrame(s.frame, bondLines_);
  const MouseGrab& grab = sim.grab();
  s.grabActive = grab.active();
  if (s.grabActive) {
    s.grabTarget = grab.target();
    const ReferenceElements& body = sim.solver().referenceElements();
    for (size_t k = 0; k < body.index.size(); ++k)
      if (body.index[k] == grab.picked())
        s.grabElement = body.position[k] + sim.solver().displacementsOf({grab.picked()})[0];
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    s.timelineFirst = timeline_.first();
    s.timelineLast = timeline_.last();
    s.timelineBytes = timeline_.bytes();
  }
  writeSurfaces(s);
  s.data = exportData_ ? std::make_shared<const FrameData>(frameData(session_.simulation().solver(), s.frame, exportBonds_))
                       : nullptr;
  // With shared instances the state stays on the device: statistics are summed there (solver_stats.h) at most 4
  // times a second, and the state digest, which needs the whole state on the host, is taken only when a frame's
  // digest is read (a recording or --exit-after run in lockstep) or while paused.
  const auto now = std::chrono::steady_clock::now();
  bool everyFrame;  // a recording or --exit-after: each frame's statistics are read
  {
    std::lock_guard<std::mutex> lock(mutex_);
    everyFrame = lockstep_;
  }
  if (!shared || paused_ || everyFrame || now - statsTaken_ > std::chrono::milliseconds(250)) {
    lastStats_ = sim.stats();
    if (!shared || paused_ || everyFrame) lastDigest_ = sim.solver().stateDigest();
    statsTaken_ = now;
  }
  s.stats = lastStats_;
  s.step = sim.steps();
  s.frameIndex = sim.framesDone();
  s.dt = sim.dt();
  s.stableDt = sim.solver().stableDt();
  s.stepsPerSecond = stepsPerSecond;
  s.realTimeFactor = realTimeFactor;
  s.paused = paused_;
  s.stateDigest = lastDigest_;
  s.backend = sim.backendLine();
  {
    std::lock_guard<std::mutex> lock(sharedMutex_);
    s.instances = sharingLine_;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    s.documentVersion = documentVersion_;
  }
  snapshots_.publish();
}

}  // namespace frac
