#include "session/sim_thread.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>

#include "io/scene_error.h"

namespace frac {

using Clock = std::chrono::steady_clock;

SimThread::SimThread(SessionOptions options, bool startPaused, std::vector<Command> scheduled)
    : options_(options), session_(std::move(options)), scheduled_(std::move(scheduled)) {
  paused_ = startPaused;
  publish(0.0, 0.0);
  thread_ = std::thread([this] { run(); });
}

SimThread::~SimThread() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
    frameHeld_ = false;
  }
  wake_.notify_all();
  thread_.join();
  std::lock_guard<std::mutex> lock(sharedMutex_);
  releaseShared();
}

void SimThread::submit(Command command) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(std::move(command));
  }
  wake_.notify_all();
}

void SimThread::saveState(std::string path) {
  std::lock_guard<std::mutex> lock(mutex_);
  stateRequests_.emplace_back(false, std::move(path));
  wake_.notify_all();
}

void SimThread::loadState(std::string path) {
  std::lock_guard<std::mutex> lock(mutex_);
  stateRequests_.emplace_back(true, std::move(path));
  wake_.notify_all();
}

void SimThread::setTimeline(bool on, size_t budgetBytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  timelineOn_ = on;
  timeline_.setBudget(budgetBytes);
  if (!on) timeline_.clear();
  publishRequested_ = true;
  wake_.notify_all();
}

void SimThread::scrubTo(int frameIndex, bool runOn) {
  std::lock_guard<std::mutex> lock(mutex_);
  scrubRequest_ = frameIndex;
  scrubRunsOn_ = runOn;
  wake_.notify_all();
}

int SimThread::rollbackFrame() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return rollbackFrame_;
}

// The scrub is handled before the queued commands (run()), so the halved step applies to the restored state.
bool SimThread::rollBack(bool runOn) {
  int frame = -1;
  double dt = 0.0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    std::swap(frame, rollbackFrame_);
    dt = rollbackDt_;
    if (frame < 0) return false;
    scrubRequest_ = frame;
    scrubRunsOn_ = runOn;
    queue_.push_back(Command::set("solver.dt", 0.5 * dt));
    wake_.notify_all();
  }
  return true;
}

// The state after a frame joins the timeline: frames at or after it (a future left by scrubbing back) leave first,
// then the oldest while the ring is over its budget.
void SimThread::keepTimelineFrame(bool onlyIfMissing) {
  const int frame = session_.simulation().framesDone();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!timelineOn_) return;
    if (onlyIfMissing && timeline_.find(frame)) return;
  }
  std::vector<uint8_t> state;
  try {
    state = session_.checkpoint().bytes();
  } catch (const std::invalid_argument&) {  // a method without checkpoints: no timeline
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  timeline_.keep(frame, std::move(state));
}

// paused_ and stepRequests_ are in the wait's predicate (run()): they change under the mutex, or a notify that comes
// between the thread's test of the predicate and its sleep is lost and the thread sleeps on (seen under TSan's
// timing: 30 single steps requested, none taken in a minute).
void SimThread::setPaused(bool paused) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!paused) rollbackFrame_ = -1;  // running on without rolling back: the offer lapses
    paused_ = paused;
    publishRequested_ = true;  // the snapshot says so (the Scene panel's Run / Pause button)
  }
  wake_.notify_all();
}

void SimThread::stepOnce() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++stepRequests_;
  }
  wake_.notify_all();
}

void SimThread::setSpeed(double realTimeFactor) { speed_ = realTimeFactor; }

void SimThread::requestPublish() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    publishRequested_ = true;
  }
  wake_.notify_all();
}

void SimThread::setLockstep(bool on) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    lockstep_ = on;
    if (!on) frameHeld_ = false;
  }
  wake_.notify_all();
}

void SimThread::releaseFrame() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    frameHeld_ = false;
  }
  wake_.notify_all();
}

nlohmann::json SimThread::document() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return session_.document();
}

std::vector<Command> SimThread::commandLog() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return session_.log();
}

std::vector<std::string> SimThread::resetOverrides() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return session_.resetOverrides();
}

std::string SimThread::lastMessage() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return message_;
}

void SimThread::run() {
  auto lastPublish = Clock::now();
  auto rateStart = Clock::now();
  long long rateSteps = 0;
  double rateSimTime = 0.0, stepsPerSecond = 0.0, realTimeFactor = 0.0;
  auto paceStart = Clock::now();
  double paceSimTime = 0.0;
  while (!stop_) {
    // Commands first: they apply before the next step and are stamped with its index.
    std::vector<Command> commands;
    bool watchStarted = false;  // the watch's starting state joins the timeline (a roll back can return to it)
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] {
        return stop_ || !queue_.empty() || !stateRequests_.empty() || scrubRequest_ >= 0 || publishRequested_ ||
               (!frameHeld_ && (!paused_ || stepRequests_ > 0));
      });
      if (stop_) break;
      if (scrubRequest_ >= 0) {  // a frame of the timeline back, paused there
        const int wanted = scrubRequest_;
        scrubRequest_ = -1;
        rollbackFrame_ = -1;
        if (const CheckpointRing::Frame* f = timeline_.find(wanted)) {
          try {
            session_ = SceneSession::fromCheckpoint(CheckpointReader(f->state, "timeline frame " + std::to_string(wanted)),
                                                    options_.threads);
            message_ = "";
          } catch (const std::exception& e) {
            message_ = std::string("error: ") + e.what();
          }
          paused_ = !scrubRunsOn_;
          ++documentVersion_;
          watch_.reset();
          publishRequested_ = true;
        }
        scrubRunsOn_ = false;
      }
      for (const auto& [load, path] : stateRequests_) {
        try {
          if (load) {
            session_ = SceneSession::fromCheckpoint(path, options_.threads);
            message_ = "loaded " + path + " at frame " + std::to_string(session_.simulation().framesDone());
          } else {
            session_.saveCheckpoint(path);
            message_ = "saved the state at frame " + std::to_string(session_.simulation().framesDone()) + " to " + path;
          }
        } catch (const std::exception& e) {
          message_ = std::string("error: ") + e.what();
        }
        ++documentVersion_;
        watch_.reset();
        publishRequested_ = true;
      }
      stateRequests_.clear();
      commands.swap(queue_);
      if (!commands.empty()) watch_.reset();
      for (Command& c : commands) {
        try {
          message_ = session_.apply(c);
        } catch (const std::exception& e) {
          message_ = std::string("error: ") + e.what();
        }
        ++documentVersion_;
      }
      // The watch starts from the state as it is now, before any step on it: the scene's start, or the state after
      // an edit, a throw, a load or a scrub (a watch first made after some steps of a diverging run would take its
      // grown energy as what the scene supplies, and never fire).
      if (!watch_) {
        watch_ = std::make_unique<DivergenceWatch>(session_.simulation());
        lastGoodFrame_ = session_.simulation().framesDone();
        watchStarted = true;
      }
      if (frameHeld_ || (paused_ && stepRequests_ == 0)) {
        lock.unlock();
        if (watchStarted) keepTimelineFrame(true);
        if (publishRequested_.exchange(false) || !commands.empty()) publish(stepsPerSecond, realTimeFactor);
        continue;
      }
    }
    if (watchStarted) keepTimelineFrame(true);
    if (paused_ && stepRequests_ > 0) --stepRequests_;
    if (nextScheduled_ < scheduled_.size() && scheduled_[nextScheduled_].step <= session_.simulation().steps()) {
      std::lock_guard<std::mutex> lock(mutex_);  // scheduled commands change the session's document and log
      try {
        if (session_.applyDue(scheduled_, nextScheduled_)) {
          ++documentVersion_;
          watch_.reset();
        }
      } catch (const std::exception& e) {
        message_ = std::string("error: ") + e.what();
      }
    }
    // The step runs without the lock: the UI never waits for it.
    bool frameDone = false;
    try {
      frameDone = session_.simulation().stepCountingFrames();
    } catch (const std::exception& e) {  // e.g. a device error: continue on the CPU, paused, and say why
      std::string line;
      try {
        line = session_.simulation().solver().setBackend(Backend::Cpu);
      } catch (const std::exception& again) {
        line = again.what();
      }
      std::lock_guard<std::mutex> lock(mutex_);
      message_ = std::string("error: ") + e.what() + "; paused, solver: " + line;
      paused_ = true;
    }
    ++rateSteps;
    rateSimTime += session_.simulation().dt();
    paceSimTime += session_.simulation().dt();
    const auto now = Clock::now();
    const double rateWindow = std::chrono::duration<double>(now - rateStart).count();
    if (rateWindow >= 1.0) {
      stepsPerSecond = rateSteps / rateWindow;
      realTimeFactor = rateSimTime / rateWindow;
      rateStart = now;
      rateSteps = 0;
      rateSimTime = 0.0;
    }
    if (frameDone && now - watchChecked_ > std::chrono::milliseconds(250)) {
      watchChecked_ = now;
      Simulation& sim = session_.simulation();
      if (!watch_) {  // (made before the loop's next step; kept here for a command applied mid-frame)
        watch_ = std::make_unique<DivergenceWatch>(sim);
        lastGoodFrame_ = sim.framesDone();
      } else if (std::optional<std::string> diverged = watch_->check(sim)) {
        std::lock_guard<std::mutex> lock(mutex_);
        const bool kept = timeline_.find(lastGoodFrame_) != nullptr;
        rollbackFrame_ = kept ? lastGoodFrame_ : -1;
        rollbackDt_ = sim.dt();
        message_ = "error: " + *diverged + " (paused; R resets" +
                   (kept ? ", B rolls back to frame " + std::to_string(lastGoodFrame_) + " with dt halved)" : ")");
        paused_ = true;
        watch_.reset();
      } else {
        lastGoodFrame_ = sim.framesDone();
      }
    }
    if (frameDone) keepTimelineFrame();
    bool holdFrame = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      holdFrame = lockstep_ && frameDone;
      if (holdFrame) frameHeld_ = true;
    }
    // Publish every frame in lockstep, otherwise at most 60 times a second (and after single steps).
    if (holdFrame || paused_ || (frameDone && now - lastPublish > std::chrono::milliseconds(16))) {
      publish(stepsPerSecond, realTimeFactor);
      lastPublish = now;
    }
    const double speed = speed_;
    if (speed > 0.0 && frameDone) {  // keep simulated time at `speed` x wall time
      const auto due = paceStart + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(paceSimTime / speed));
      if (due > Clock::now()) std::this_thread::sleep_until(due);
      if (Clock::now() - due > std::chrono::milliseconds(200)) {  // cannot keep up: do not try to catch up later
        paceStart = Clock::now();
        paceSimTime = 0.0;
      }
    }
  }
}

}  // namespace frac
