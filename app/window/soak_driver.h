#pragma once
// The soak test's hands (issue "Reliability", item 7; scripts/soak): inside the window, a seeded random user that
// throws balls, edits materials, switches methods, backends, draw and colour modes, scrubs the timeline, records and
// loads scenes, and a log of what the process costs over time (resident memory, frame times, Vulkan validation
// messages) as JSON lines.
//
// Memory is compared at one repeated state, not at random moments: every other scene load is the reference scene
// (the first of the list), and once it has simulated `referenceFrames` frames untouched the driver returns freed heap
// to the system (malloc_trim) and reads the resident set. Those readings differ only by what the process kept from
// everything in between: a leak grows them, a scene's size does not.
#include <chrono>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "render_settings.h"
#include "session/sim_thread.h"
#include "ui/ui_state.h"

namespace frac {

struct SoakOptions {
  double seconds = 0.0;           // > 0: the window quits after this many wall seconds
  unsigned seed = 1;
  std::string logPath = "out/soak/soak.jsonl";
  std::string scratchFolder = "out/soak/scratch";  // recordings go here and are deleted when they stop
  double actionSeconds = 2.0;     // one random action every this many wall seconds
  double sceneSeconds = 40.0;     // a scene other than the reference is used this long before the next load
  double sampleSeconds = 10.0;    // a "sample" line every this many wall seconds
  int referenceFrames = 10;       // frames the reference scene runs before its memory reading
  // The kinds of action the random user takes (kSoakActions; all by default): narrowing them finds what leaks.
  std::vector<std::string> actions;
};

// The action kinds, in the order --soak-actions names them.
inline const char* const kSoakActions[] = {"throw", "edit", "method", "draw", "timeline", "record", "pause",
                                           "settings"};

class SoakDriver {
 public:
  // `scenes`: scene files to cycle through; the first is the reference.
  SoakDriver(SoakOptions options, std::vector<std::string> scenes);
  ~SoakDriver();

  // Once per window loop, after the panels: may submit commands, change ui (render settings, recording, the scene to
  // open). `frameSeconds`: this loop's wall time. False once the soak's time is up (the window quits).
  bool tick(double frameSeconds, ui::UiState& ui, const SimSnapshot& shown, const render::Camera& camera,
            int validationMessages);

 private:
  enum class Phase { Reference, Free };
  void randomAction(ui::UiState& ui, const SimSnapshot& shown, const render::Camera& camera);
  void openNext(ui::UiState& ui);
  void writeLine(const char* event, const ui::UiState& ui, const SimSnapshot& shown, int validationMessages);
  void writeSummary(int validationMessages);

  SoakOptions options_;
  std::vector<std::string> scenes_;
  std::mt19937 random_;
  std::ofstream log_;
  std::chrono::steady_clock::time_point start_, lastAction_, lastSample_, sceneOpened_;
  Phase phase_ = Phase::Reference;
  size_t nextScene_ = 1;
  bool referenceRead_ = false;
  bool recording_ = false;
  std::chrono::steady_clock::time_point recordingStarted_;
  std::vector<double> frameMs_;  // this sample's loop times
  std::vector<double> referenceRssMb_, referenceSeconds_;  // the readings and when they were taken
  long long actions_ = 0, loads_ = 0, recordings_ = 0;
  double peakRssMb_ = 0.0;
};

}  // namespace frac
