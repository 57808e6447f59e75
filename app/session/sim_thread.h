#pragma once
// The simulation thread of the window: owns the SceneSession, steps continuously, applies queued commands between
// steps (stamped with the step index: the replay log), and publishes snapshots through a triple buffer. The UI never
// waits for the simulation; the simulation waits for the UI only while a recording needs every frame (lockstep).
#include <atomic>
#include <chrono>
#include <memory>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "analysis/divergence_watch.h"
#include "backend/external_memory.h"
#include "io/checkpoint_ring.h"
#include "io/frame_data.h"
#include "session/instance_slots.h"
#include "session/scene_session.h"
#include "session/triple_buffer.h"

namespace frac {

struct SimSnapshot {
  RenderFrame frame;
  SimStats stats;
  long long step = 0;             // steps since the last reset
  int frameIndex = 0;             // frames since the last reset
  double dt = 0.0, stableDt = 0.0;
  double stepsPerSecond = 0.0;    // measured over the last second of running
  double realTimeFactor = 0.0;    // simulated seconds per wall second
  bool paused = false;
  long long documentVersion = 0;  // changes whenever an edit or reset changed the scene document
  uint64_t stateDigest = 0;       // Solver::stateDigest at this snapshot
  std::string backend;            // where the solver runs (Simulation::backendLine)
  std::string instances;          // how element data reaches the renderer (shared with CUDA, or why through the host)
  int sharedSlot = -1;            // frame.elementsOnDevice is in this shared buffer, ready at semaphore value `ready`
  unsigned long long ready = 0;
  bool sharedCapacityExceeded = false;  // the elements outgrew the shared buffers (the window makes larger ones)
  std::shared_ptr<const FrameData> data;  // with setExportData: the frame's data files' contents (io/frame_data.h)
  // The grab tool: active, its target, and the picked element's position now.
  bool grabActive = false;
  vec3 grabTarget{0.0f}, grabElement{0.0f};
  // The timeline: the frames whose state is kept in memory (first..last; -1 when none) and their bytes.
  int timelineFirst = -1, timelineLast = -1;
  size_t timelineBytes = 0;
};

// The renderer's shared instance buffers as the simulation thread receives them (render/shared_instances.h exports
// the descriptors; the thread imports them into CUDA).
struct SharedInstanceExport {
  std::vector<int> memoryFds;            // one per slot
  std::vector<size_t> memoryBytes;       // the allocation size of each
  int capacity = 0;                      // instances per slot
  int semaphoreFd = -1;                  // the timeline semaphore
  unsigned long long firstValue = 0;     // its value now: signals continue above it
  std::shared_ptr<InstanceSlots> slots;  // shared with the renderer
  std::string unavailable;               // non-empty: nothing to share, and why (shown in the Solver panel)
};

class SimThread {
 public:
  // Loads the scene (throws SceneError for bad input) and starts stepping (paused when asked). `scheduled`:
  // commands stamped with their step (a replay log), each applied before its step as the headless replay does.
  SimThread(SessionOptions options, bool startPaused = false, std::vector<Command> scheduled = {});
  ~SimThread();
  SimThread(const SimThread&) = delete;
  SimThread& operator=(const SimThread&) = delete;

  void submit(Command command);  // applied before the next step
  // Checkpoints from the window (Scene panel): the whole state into `path`, or the state of `path` in place of the
  // session's, before the next step; lastMessage() says what happened.
  void saveState(std::string path);
  void loadState(std::string path);
  // The timeline: after every frame the whole state (a checkpoint in memory) joins a ring of at most `budgetBytes`
  // (the oldest frames leave first; the latest frame is always kept). scrubTo(frame) takes that frame's state back and
  // pauses; running on from there drops the frames after it (the future), as an editor would, and the command log is
  // the one that led there.
  void setTimeline(bool on, size_t budgetBytes);
  // `runOn`: run from there instead of pausing (a setPaused(false) right after would race the scrub's pause).
  void scrubTo(int frameIndex, bool runOn = false);
  // After the run diverged (paused with the watch's message): back to the newest timeline frame that passed the
  // divergence watch, with solver.dt halved (paused there unless `runOn`). -1 when there is none to go back to; rollBack() returns
  // false then.
  int rollbackFrame() const;
  bool rollBack(bool runOn = false);
  void setPaused(bool paused);
  void stepOnce();               // one step while paused
  void setSpeed(double realTimeFactor);  // 0 = as fast as possible
  void setBondLines(bool on) {
    if (bondLines_.exchange(on) != on) requestPublish();
  }
  // Interop (issue 6): while the solver runs on CUDA, snapshots carry no element arrays; the elements are written on
  // the device into the renderer's shared buffers (frame.elementsOnDevice, sharedSlot, ready). Takes the descriptors
  // either way. Returns "" or why sharing is off (then snapshots keep going through host memory).
  std::string shareInstances(SharedInstanceExport shared);
  void setInstanceScalar(ElementScalar scalar) {
    if (instanceScalar_.exchange(scalar) != scalar) requestPublish();
  }
  // Fracture surfaces in every snapshot from now on (frame.surfaces, extracted here on the simulation thread, the UI
  // never waits for them), with grid cells of `cellSize` element radii. Snapshots with surfaces go through the host.
  void setSurfaces(bool on, float cellSize) {
    const bool changedOn = surfaces_.exchange(on) != on;
    const bool changedCell = surfaceCell_.exchange(cellSize) != cellSize;
    if (changedOn || (on && changedCell)) requestPublish();
  }

  // The frame's data for --export in every snapshot from now on (snapshot.data, taken here on the simulation thread
  // while the state is still), bonds as lines when `bonds`. Snapshots with data go through the host.
  void setExportData(bool on, bool bonds) {
    exportBonds_ = bonds;
    if (exportData_.exchange(on) != on) requestPublish();
  }

  // UI side: true when a newer snapshot arrived; snapshot() is the newest.
  bool poll() { return snapshots_.update(); }
  const SimSnapshot& snapshot() const { return snapshots_.front(); }

  // Recording: with lockstep on, the thread stops after each completed frame until releaseFrame().
  void setLockstep(bool on);
  void releaseFrame();

  // Copies taken under the lock, for the panels and the replay log.
  nlohmann::json document() const;
  std::vector<Command> commandLog() const;
  std::vector<std::string> resetOverrides() const;
  std::string lastMessage() const;  // result of the last command, or its error
  const SessionOptions& options() const { return options_; }

 private:
  void requestPublish();  // a new snapshot soon, even while paused (what it shows changed)
  void run();
  void publish(double stepsPerSecond, double realTimeFactor);
  // Writes the elements into a free shared buffer and the rest of the frame into s; false when they go through the host.
  bool publishShared(SimSnapshot& s);
  void releaseShared();
  void writeSurfaces(SimSnapshot& s);

  SessionOptions options_;
  SceneSession session_;
  TripleBuffer<SimSnapshot> snapshots_;
  mutable std::mutex mutex_;  // guards queue_, session_'s document and log, message_
  std::condition_variable wake_;
  std::vector<Command> queue_;
  std::vector<std::pair<bool, std::string>> stateRequests_;  // (load, path), guarded by mutex_
  // Simulation thread, after a frame; `onlyIfMissing`: the state the watch starts from (the scene's start, a load),
  // kept only when the timeline has no frame of that index (a scrub's future stays).
  void keepTimelineFrame(bool onlyIfMissing = false);
  CheckpointRing timeline_;              // guarded by mutex_
  int lastGoodFrame_ = -1;               // the newest frame the divergence watch passed (simulation thread)
  int rollbackFrame_ = -1;               // after a divergence: where rollBack() goes (guarded by mutex_)
  double rollbackDt_ = 0.0;              // the step that diverged (guarded by mutex_)
  bool timelineOn_ = false;
  int scrubRequest_ = -1;
  bool scrubRunsOn_ = false;  // with scrubRequest_: run on after it instead of pausing
  std::vector<Command> scheduled_;  // fixed at construction; read by the sim thread only
  size_t nextScheduled_ = 0;
  std::string message_;
  long long documentVersion_ = 0;
  std::atomic<bool> paused_{false}, stop_{false}, bondLines_{false};
  std::atomic<int> stepRequests_{0};
  std::atomic<bool> publishRequested_{false};
  std::atomic<double> speed_{0.0};
  bool lockstep_ = false, frameHeld_ = false;  // guarded by mutex_
  // Interop state (sharedMutex_: shareInstances on the UI thread, publish on the simulation thread).
  std::mutex sharedMutex_;
  std::vector<ExternalDeviceBuffer> sharedBuffers_;
  ExternalSemaphore sharedReady_;
  std::shared_ptr<InstanceSlots> sharedSlots_;
  int sharedCapacity_ = 0;
  unsigned long long readyValue_ = 0;
  std::string sharingLine_ = "instances through host memory";
  std::atomic<ElementScalar> instanceScalar_{ElementScalar::None};
  std::atomic<bool> surfaces_{false};
  std::atomic<bool> exportData_{false}, exportBonds_{false};
  std::atomic<float> surfaceCell_{1.0f};
  // While instances are shared, statistics (a full device read-back) are refreshed at most 4 times a second.
  std::chrono::steady_clock::time_point statsTaken_{};
  SimStats lastStats_;
  // Divergence (analysis/divergence_watch.h), checked after frames at most 4 times a second: the run pauses and
  // says why. Made afresh after commands (a throw, an edit, a reset change what the scene supplies). Sim thread only.
  std::unique_ptr<DivergenceWatch> watch_;
  std::chrono::steady_clock::time_point watchChecked_{};
  uint64_t lastDigest_ = 0;
  std::thread thread_;
};

}  // namespace frac
