#pragma once
// What the panels read and change: the simulation thread (commands), render settings, the throw settings, the
// recording state and a little history for the plots. Owned by the window loop.
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "render_settings.h"
#include "scene_renderer.h"
#include "session/child_process.h"
#include "session/edit_history.h"
#include "session/sim_thread.h"
#include "session/timeline_player.h"
#include "window/throw_tool.h"

namespace frac::ui {

struct RecordState {
  bool active = false;
  bool withUi = true;
  char folder[512] = "out/recording";
  bool exportMeshes = false;  // each recorded frame's fracture surfaces as meshFolder/mesh_NNNNNN.ply
  char meshFolder[512] = "out/recording/meshes";
  bool exportData = false;  // each recorded frame's data as dataFolder/elements_NNNNNN.vtu (app/frame_export.h)
  bool exportBonds = false;
  char dataFolder[512] = "out/recording/data";
  int framesWritten = 0;
  std::string status;      // last message (where the frames went, errors)
  bool startRequested = false, stopRequested = false;
};

// A shipped scene in the scene browser: its name and description (read once) and, once its thumbnail is in the font
// texture (render::GuiLayer::setImages), where it lies there.
struct BrowserEntry {
  std::string path, name, description;
  bool hasThumbnail = false;
  float u0 = 0, v0 = 0, u1 = 0, v1 = 0;
};

// "Render range" of the Record panel: frames of the run re-simulated headless at another size, from the view's camera.
struct RangeRenderState {
  int frames[2] = {1, 1};  // first, last (inclusive)
  int size[2] = {1920, 1080};
  char folder[512] = "out/range";
  bool requested = false;
  bool running = false;
  std::string status;
};

// A library material's keys as a scene of this method and radius gets them (io/material_library.h), and its line.
struct LibraryKeys {
  nlohmann::json keys = nlohmann::json::object();
  std::string calibration;  // "calibrated for ...", or why not
  std::string handbook;     // the library's macro values
  double poisson = 0.25;
};

// The Material panel's Calibrate button: fracture-calibrate as a child process, its progress read from its log.
struct CalibrationJob {
  std::unique_ptr<ChildProcess> child;
  std::string material, log, status;
  int labRuns = 0;
};

struct UiState {
  SimThread* sim = nullptr;
  render::RenderSettings render;
  render::ColorRange range;
  ThrowSettings throwing;
  nlohmann::json renderValues, throwValues;  // registry groups "render" and "throw" (see settings_values.h)
  RecordState record;
  RangeRenderState rangeRender;
  bool showHelp = false;  // the controls (H), in the top-right corner
  bool showHint = true;   // the start's one-line hint, until the simulation first steps
  float speed = 0.0f;  // simulated seconds per wall second; 0 = as fast as possible
  double uiFps = 0.0;
  nlohmann::json document;  // copy of the session's document (refreshed when its version changes)
  long long documentVersion = -1;
  std::vector<std::string> presets;  // assets/scenes/*.json
  bool showBrowser = false;          // the scene browser window (thumbnails and descriptions)
  std::vector<BrowserEntry> browser; // the presets, filled when the browser first opens
  int thumbnailsPending = 0;         // thumbnails still being rendered (the browser says so)
  char openPath[512] = "";
  std::string requestOpen;           // set by the Scene panel: load this scene file
  char statePath[512] = "out/state.ckpt";  // the Scene panel's checkpoint file (Save state / Load state)
  bool grabMode = false;         // G: left-drag grabs and pulls instead of throwing
  float grabRadius = 0.01f;      // m: the group pulled with the picked element
  float grabFrequency = 10.0f;   // Hz: how stiffly it follows the cursor
  bool timeline = true;          // keep every frame's state in memory (SimThread::setTimeline)
  int timelineBudgetMb = 256;
  TimelinePlayer player;  // plays the kept frames back (slow motion)
  int playRate = 1;       // index into TimelinePlayer::kRates
  EditHistory edits;  // the panels' parameter edits, for undo and redo (cleared when another scene opens)
  std::deque<float> kineticHistory, brokenHistory;
  std::vector<std::string> materialNames;
  std::vector<std::string> libraryNames;                 // assets/materials/*.json (read once)
  std::map<std::string, LibraryKeys> libraryKeys;  // by library name, method, radius and packing (read once each)
  CalibrationJob calibration;
  bool screenshotRequested = false;
  std::string lastScreenshot;
};

// The panels, one file each; every one draws a collapsing section of the main window.
void drawScenePanel(UiState& ui, const SimSnapshot& snapshot);
void drawStartHint(const UiState& ui, const SimSnapshot& snapshot);  // help_overlay.cpp
void drawSceneBrowser(UiState& ui);  // scene_browser.cpp
void drawMaterialPanel(UiState& ui, const SimSnapshot& snapshot);
void drawSolverPanel(UiState& ui, const SimSnapshot& snapshot);
void drawProjectilePanel(UiState& ui);
void drawRenderPanel(UiState& ui, const SimSnapshot& snapshot);
void drawStatsPanel(UiState& ui, const SimSnapshot& snapshot);
void drawRecordPanel(UiState& ui, const SimSnapshot& snapshot);
void drawHelpOverlay(UiState& ui);
void drawRecordingIndicator(const UiState& ui);
// The main window with every panel above, then the help and recording overlays (main_window.cpp).
void drawMainWindow(UiState& ui, const SimSnapshot& snapshot);
// While a throw is aimed: the arrow from where the ball starts, its direction and speed (`extent`: framebuffer pixels).
void drawGrabLine(const SimSnapshot& snapshot, const render::Camera& camera, VkExtent2D extent);  // main_window.cpp
void drawThrowArrow(const ThrowTool& tool, const render::Camera& camera, VkExtent2D extent,
                    const ThrowSettings& settings);

// Submits a Set command for a dotted key (what every panel does on an edit) and keeps it, with the value `before` it
// replaces, in the undo history.
void submitSet(UiState& ui, const std::string& key, const nlohmann::json& value, const nlohmann::json& before);
// Ctrl+Z and Ctrl+Shift+Z (scene_panel.cpp): take the last edit back, make the last undone one again.
void undoEdit(UiState& ui);
void redoEdit(UiState& ui);

}  // namespace frac::ui
