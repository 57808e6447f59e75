#include "window/soak_driver.h"

#include <malloc.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "solvers/resource_estimate.h"

namespace frac {

namespace fs = std::filesystem;

namespace {

double seconds(std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); }

double residentMb() { return residentMemoryBytes() / (1024.0 * 1024.0); }

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0.0;
  const size_t k = std::min(values.size() - 1, size_t(p * double(values.size())));
  std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(k), values.end());
  return values[k];
}

}  // namespace

SoakDriver::SoakDriver(SoakOptions options, std::vector<std::string> scenes)
    : options_(std::move(options)), scenes_(std::move(scenes)), random_(options_.seed) {
  if (scenes_.empty()) throw std::invalid_argument("--soak: no scene files to cycle through");
  const fs::path log(options_.logPath);
  if (log.has_parent_path()) fs::create_directories(log.parent_path());
  log_.open(log);
  if (!log_) throw std::invalid_argument("--soak-log: cannot write '" + options_.logPath + "'");
  start_ = lastAction_ = lastSample_ = sceneOpened_ = std::chrono::steady_clock::now();
}

SoakDriver::~SoakDriver() {
  std::error_code ec;
  fs::remove_all(options_.scratchFolder, ec);
}

void SoakDriver::writeLine(const char* event, const ui::UiState& ui, const SimSnapshot& shown,
                           int validationMessages) {
  const double rss = residentMb();
  peakRssMb_ = std::max(peakRssMb_, rss);
  double sum = 0.0;
  for (double ms : frameMs_) sum += ms;
  const nlohmann::json line = {
      {"event", event},
      {"t", seconds(std::chrono::steady_clock::now() - start_)},
      {"rss_mb", rss},
      {"scene", ui.document.value("name", std::string())},
      {"method", ui.document.contains("solver") ? ui.document["solver"].value("method", std::string()) : ""},
      {"frame", shown.frameIndex},
      {"elements", shown.stats.elements},
      {"loops", frameMs_.size()},
      {"ui_fps", frameMs_.empty() ? 0.0 : 1000.0 * double(frameMs_.size()) / sum},
      {"frame_ms_p50", percentile(frameMs_, 0.5)},
      {"frame_ms_p95", percentile(frameMs_, 0.95)},
      {"frame_ms_max", frameMs_.empty() ? 0.0 : *std::max_element(frameMs_.begin(), frameMs_.end())},
      {"validation_messages", validationMessages},
      {"actions", actions_},
      {"loads", loads_},
      {"recordings", recordings_},
      {"message", ui.sim ? ui.sim->lastMessage() : ""}};
  log_ << line.dump() << "\n";
  log_.flush();
}

namespace {

// Theil-Sen: the median of the slopes between every two readings (MB per second), a trend that scattered single
// readings do not move (each reading depends on what ran before it by up to +-15%, with no trend in it).
double medianSlope(const std::vector<double>& t, const std::vector<double>& y, size_t first) {
  std::vector<double> slopes;
  for (size_t i = first; i < y.size(); ++i)
    for (size_t j = i + 1; j < y.size(); ++j)
      if (t[j] > t[i]) slopes.push_back((y[j] - y[i]) / (t[j] - t[i]));
  return percentile(slopes, 0.5);
}

}  // namespace

void SoakDriver::writeSummary(int validationMessages) {
  // Growth after warm-up: the first third of the reference readings is the warm-up (caches, the allocator's arenas
  // for each new thread, the driver's shader variants for each state met: 5-10 minutes in a 30-minute run); the
  // trend of the rest (medianSlope) over its span, against its median. endpoint_growth_percent is the median of the
  // last three readings against the three after the second, for comparison.
  nlohmann::json summary = {{"event", "summary"},
                            {"seconds", seconds(std::chrono::steady_clock::now() - start_)},
                            {"validation_messages", validationMessages},
                            {"actions", actions_},
                            {"loads", loads_},
                            {"recordings", recordings_},
                            {"peak_rss_mb", peakRssMb_},
                            {"reference_rss_mb", referenceRssMb_}};
  const size_t n = referenceRssMb_.size();
  if (n >= 2) {
    const auto median3 = [&](size_t first) {  // of the readings first .. first + 2 that exist
      std::vector<double> v(referenceRssMb_.begin() + std::ptrdiff_t(first),
                            referenceRssMb_.begin() + std::ptrdiff_t(std::min(n, first + 3)));
      return percentile(v, 0.5);
    };
    const size_t warmFirst = n >= 8 ? 2 : 0;
    const double warm = median3(warmFirst), end = median3(n >= warmFirst + 6 ? n - 3 : n - 1);
    summary["warm_rss_mb"] = warm;
    summary["end_rss_mb"] = end;
    summary["endpoint_growth_percent"] = 100.0 * (end - warm) / warm;
    const size_t after = n / 3;
    const std::vector<double> rest(referenceRssMb_.begin() + std::ptrdiff_t(after), referenceRssMb_.end());
    const double level = percentile(rest, 0.5);
    const double span = referenceSeconds_.back() - referenceSeconds_[after];
    summary["trend_mb_per_minute"] = 60.0 * medianSlope(referenceSeconds_, referenceRssMb_, after);
    summary["growth_percent"] = n >= 6 ? 100.0 * medianSlope(referenceSeconds_, referenceRssMb_, after) * span / level
                                       : 100.0 * (end - warm) / warm;
  }
  log_ << summary.dump() << "\n";
  log_.flush();
}

void SoakDriver::openNext(ui::UiState& ui) {
  if (phase_ == Phase::Free) {  // every other load is the reference scene
    phase_ = Phase::Reference;
    ui.requestOpen = scenes_[0];
  } else {
    phase_ = Phase::Free;
    ui.requestOpen = scenes_[nextScene_];
    nextScene_ = nextScene_ + 1 < scenes_.size() ? nextScene_ + 1 : (scenes_.size() > 1 ? 1 : 0);
  }
  referenceRead_ = false;
  ++loads_;
  sceneOpened_ = std::chrono::steady_clock::now();
}

void SoakDriver::randomAction(ui::UiState& ui, const SimSnapshot& shown, const render::Camera& camera) {
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const auto pick = [&](size_t n) { return size_t(std::uniform_int_distribution<size_t>(0, n - 1)(random_)); };
  // Each kind with its weight (throws and edits twice as often), among the kinds asked for.
  std::vector<int> kinds;
  for (int k = 0; k < int(std::size(kSoakActions)); ++k) {
    if (!options_.actions.empty() &&
        std::find(options_.actions.begin(), options_.actions.end(), kSoakActions[k]) == options_.actions.end())
      continue;
    kinds.push_back(k);
    if (k <= 1) kinds.push_back(k);
  }
  if (kinds.empty()) return;
  ++actions_;
  switch (kinds[pick(kinds.size())]) {
    case 0: {  // a throw at the scene from the eye, aimed like the mouse's, a little off the view's centre
      if (ui.materialNames.empty()) return;
      const vec3 jitter(unit(random_) - 0.5f, unit(random_) - 0.5f, unit(random_) - 0.5f);
      const vec3 toTarget = camera.target - camera.eye;
      const vec3 direction = glm::normalize(toTarget + 0.15f * glm::length(toTarget) * jitter);
      Command c = Command::throwProjectile(camera.eye + 0.5f * toTarget, direction * (3.0f + 6.0f * unit(random_)),
                                           0.01f + 0.02f * unit(random_), ui.materialNames[pick(ui.materialNames.size())]);
      c.aimed = true;
      c.aimOrigin = camera.eye;
      c.aimDirection = direction;
      ui.sim->submit(c);
      return;
    }
    case 1: {  // a material's stiffness or strength scaled by 0.7 .. 1.4 (inf and unset values are left alone)
      if (!ui.document.contains("materials") || !ui.document["materials"].is_object() || ui.document["materials"].empty())
        return;
      auto it = ui.document["materials"].begin();
      std::advance(it, std::ptrdiff_t(pick(ui.document["materials"].size())));
      const char* keys[] = {"young", "tensile_strength", "damping", "friction"};
      const std::string key = keys[pick(4)];
      if (!it.value().contains(key) || !it.value()[key].is_number()) return;
      const double scaled = it.value()[key].get<double>() * (0.7 + 0.7 * unit(random_));
      const double edited = key == "friction" || key == "damping" ? std::min(scaled, 0.9) : scaled;
      if (unit(random_) < 0.2f)
        ui::undoEdit(ui);  // Ctrl+Z
      else if (unit(random_) < 0.2f)
        ui::redoEdit(ui);  // Ctrl+Shift+Z
      else
        ui::submitSet(ui, "materials." + it.key() + "." + key, edited, it.value()[key]);
      return;
    }
    case 2: {  // method and backend switches (a method or backend the scene cannot take is refused with a message)
      const char* methods[] = {"bdem", "pd-bond", "pd-state", "rbdem", "fem-debris"};
      const char* backends[] = {"cpu", "auto", "cuda"};
      const nlohmann::json solver = ui.document.value("solver", nlohmann::json::object());
      if (unit(random_) < 0.7f)
        ui::submitSet(ui, "solver.method", methods[pick(5)], solver.value("method", "bdem"));
      else
        ui::submitSet(ui, "solver.backend", backends[pick(3)], solver.value("backend", "auto"));
      return;
    }
    case 3:  // what is drawn and how it is coloured
      ui.render.draw = render::DrawMode(pick(render::kDrawModeCount));
      ui.render.colorMode = render::ColorMode(pick(render::kColorModeCount));
      ui.render.bonds = unit(random_) < 0.2f;
      return;
    case 4:  // back along the timeline, then on from there; or a reset
      if (unit(random_) < 0.3f) {
        ui.sim->submit(Command::reset());
      } else if (shown.timelineFirst >= 0 && shown.timelineLast > shown.timelineFirst) {
        const int frame = shown.timelineFirst + int(pick(size_t(shown.timelineLast - shown.timelineFirst + 1)));
        const bool playBack = unit(random_) < 0.3f;  // slow-motion playback from there (the next run stops it)
        ui.sim->scrubTo(frame, /*runOn=*/!playBack);
        if (playBack) ui.player.play(TimelinePlayer::kRates[pick(3)], frame);
      }
      return;
    case 5:  // a recording of a few frames, with or without the panels, sometimes with meshes and data
      if (recording_) return;
      std::snprintf(ui.record.folder, sizeof ui.record.folder, "%s/recording", options_.scratchFolder.c_str());
      std::snprintf(ui.record.meshFolder, sizeof ui.record.meshFolder, "%s/meshes", options_.scratchFolder.c_str());
      std::snprintf(ui.record.dataFolder, sizeof ui.record.dataFolder, "%s/data", options_.scratchFolder.c_str());
      ui.record.withUi = unit(random_) < 0.5f;
      ui.record.exportMeshes = unit(random_) < 0.3f;
      ui.record.exportData = unit(random_) < 0.3f;
      ui.record.startRequested = true;
      recording_ = true;
      recordingStarted_ = std::chrono::steady_clock::now();
      ++recordings_;
      return;
    case 6:  // pause, single steps, run on; after a divergence, the roll back
      ui.player.stop();
      if (ui.sim->rollbackFrame() >= 0 && unit(random_) < 0.5f) {
        ui.sim->rollBack(/*runOn=*/true);
      } else if (shown.paused) {
        ui.sim->setPaused(false);
      } else {
        ui.sim->setPaused(true);
        ui.sim->stepOnce();
      }
      return;
    default:  // the timeline's budget and the speed limit
      ui.timelineBudgetMb = 16 << pick(5);
      ui.sim->setTimeline(ui.timeline, size_t(ui.timelineBudgetMb) << 20);
      ui.speed = unit(random_) < 0.5f ? 0.0f : 0.01f + 0.2f * unit(random_);
      ui.sim->setSpeed(ui.speed);
      return;
  }
}

bool SoakDriver::tick(double frameSeconds, ui::UiState& ui, const SimSnapshot& shown, const render::Camera& camera,
                      int validationMessages) {
  const auto now = std::chrono::steady_clock::now();
  frameMs_.push_back(1000.0 * frameSeconds);
  if (seconds(now - start_) >= options_.seconds) {
    if (recording_) ui.record.stopRequested = true;
    writeLine("sample", ui, shown, validationMessages);
    writeSummary(validationMessages);
    return false;
  }
  if (seconds(now - lastSample_) >= options_.sampleSeconds) {
    writeLine("sample", ui, shown, validationMessages);
    frameMs_.clear();
    lastSample_ = now;
  }
  // A recording runs about three seconds; its files go when it has stopped.
  if (recording_ && ui.record.active && seconds(now - recordingStarted_) > 3.0) ui.record.stopRequested = true;
  if (recording_ && !ui.record.active && !ui.record.startRequested && seconds(now - recordingStarted_) > 0.5) {
    recording_ = false;
    std::error_code ec;
    fs::remove_all(options_.scratchFolder, ec);
  }
  if (!ui.requestOpen.empty()) return true;  // a load is on its way: the snapshot is still the previous scene's
  if (phase_ == Phase::Reference) {
    // The reference scene runs untouched, as loaded, until its reading.
    if (!referenceRead_) {
      ui.render = render::RenderSettings{};
      ui.speed = 0.0f;
      if (recording_) ui.record.stopRequested = true;
      if (shown.frameIndex >= options_.referenceFrames && !recording_) {
        malloc_trim(0);  // freed heap back to the system: what stays resident is what is in use
        writeLine("reference", ui, shown, validationMessages);
        referenceRssMb_.push_back(residentMb());
        referenceSeconds_.push_back(seconds(now - start_));
        referenceRead_ = true;
        openNext(ui);
      } else if (seconds(now - sceneOpened_) > 180.0) {  // stuck (paused by a divergence?): no reading this time
        writeLine("reference_timeout", ui, shown, validationMessages);
        openNext(ui);
      }
    }
    return true;
  }
  if (seconds(now - lastAction_) >= options_.actionSeconds) {
    randomAction(ui, shown, camera);
    lastAction_ = now;
  }
  if (seconds(now - sceneOpened_) >= options_.sceneSeconds && !recording_) openNext(ui);
  return true;
}

}  // namespace frac
