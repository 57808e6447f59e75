#pragma once
// Where a solver's arrays live. The host arrays always exist and are what the CPU steps; while the solver runs on
// CUDA, a device mirror (`Device`: upload, download, step) holds the current state, the host arrays become a copy
// that is refreshed when read (after the device stepped) and re-uploaded before the next device step when the host
// edited them (a live material edit, a thrown ball). Every solver keeps this bookkeeping here, in one place.
#include <exception>
#include <memory>
#include <string>

#include "backend/backend.h"

namespace frac {

// The line a solver's setBackend returns for the CPU, with the reason when CUDA was asked for and is not used.
std::string cpuBackendLine(Backend requested, const std::string& whyNotCuda);

template <class Arrays, class Device>
class MirroredArrays {
 public:
  // The arrays as the simulation stands (downloaded first when the device stepped since they were last read).
  const Arrays& read() const {
    refresh();
    return host_;
  }
  // The arrays for an edit: current, and uploaded again before the next device step.
  Arrays& edit() {
    refresh();
    deviceStale_ = true;
    return host_;
  }
  // The current host arrays for a query that runs stages over them (statistics, instances, picking): those stages
  // write only their own scratch arrays, so the simulated state is the same after. The host copy is a cache of the
  // device's state, which is why a const solver may refresh it.
  Arrays& query() const {
    refresh();
    return host_;
  }

  // The host arrays as they are, possibly behind the device: for their sizes and the Constant arrays, which only the
  // host changes.
  const Arrays& layout() const { return host_; }
  // The host arrays for setting the Input arrays before a step (the device never changes them): no copy either way.
  Arrays& inputs() { return host_; }

  bool onDevice() const { return device_ != nullptr; }
  // The device holds the current state (not waiting for an upload of host edits): queries may run there.
  bool deviceCurrent() const { return device_ && !deviceStale_; }
  bool deviceNeedsUpload() const { return device_ && deviceStale_; }
  Device& device() const { return *device_; }
  // After upload(host arrays) to the device.
  void uploaded() { deviceStale_ = false; }
  // After a device step: the host arrays are behind.
  void deviceStepped() { hostStale_ = true; }

  // Runs the following steps on `requested` (Auto: CUDA when a device is usable). Leaving the device calls leave()
  // with the host arrays current; entering it creates the mirror and calls upload() at once, so that a device that
  // cannot hold the scene sends the solver back to the CPU with the reason. Returns the backend line; never throws.
  template <class Leave, class Upload>
  std::string moveTo(Backend requested, Leave leave, Upload upload) {
    std::string why;
    if (requested == Backend::Cpu || !cudaBackendAvailable(&why)) {
      refresh();
      if (device_) leave();
      device_.reset();
      return cpuBackendLine(requested, why);
    }
    if (!device_) {
      try {
        device_ = std::make_unique<Device>();
        deviceStale_ = true;
        upload();
        deviceStale_ = false;
      } catch (const std::exception& e) {
        device_.reset();
        return cpuBackendLine(requested, std::string("CUDA failed: ") + e.what());
      }
    }
    return "CUDA (" + cudaDeviceName() + ")";
  }

  // Forgets the device without copying anything back (a scene is being rebuilt on the host).
  void dropDevice() {
    device_.reset();
    hostStale_ = false;
  }

 private:
  void refresh() const {
    if (!hostStale_ || !device_) return;
    device_->download(host_);
    hostStale_ = false;
  }

  mutable Arrays host_;
  std::unique_ptr<Device> device_;
  mutable bool hostStale_ = false;  // the device stepped since the host arrays were refreshed
  bool deviceStale_ = true;         // the host arrays changed since the last upload
};

}  // namespace frac
