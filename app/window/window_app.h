#pragma once
// The interactive sandbox: a GLFW window with a Vulkan swapchain, the simulation thread, ImGui panels, mouse and
// keys, screenshots and live recording.
#include <string>
#include <vector>

#include "render_settings.h"
#include "session/scene_session.h"
#include "window/soak_driver.h"

namespace frac {

struct WindowOptions {
  SessionOptions session;
  int width = 1280, height = 720;
  std::string replayPath;       // commands to apply at their stamped steps (a replay.jsonl or a script)
  int exitAfterFrames = -1;     // >= 0: quit once this many frames were simulated (tests, demos)
  std::string screenshotPath;   // with exitAfterFrames: a screenshot with the UI just before quitting
  std::string statsPath;        // with exitAfterFrames: the final stats as JSON
  int scrubToFrame = -1;        // >= 0, with exitAfterFrames: then back to this timeline frame for screenshot and stats
  bool paused = false;
  bool validation = false;
  bool hideHelp = false;      // --no-help: no start hint (scripted screenshots)
  bool openBrowser = false;   // --browse: open the scene browser at start
  bool rollBackOnDivergence = false;  // --on-diverge rollback: take the roll-back offer (B) at once and run on
  bool recordAtStart = false;   // start recording (every frame) into recordFolder right away
  std::string recordFolder = "out/recording";
  bool recordWithUi = true;
  std::string exportDir;        // non-empty: recordings also write each frame's data there (VTU)
  bool exportBonds = false;
  std::string exportMeshDir;    // non-empty: recordings also write each frame's fracture surfaces there (PLY)
  render::RenderSettings render;  // initial render settings (colour mode, bonds, shadows)
  SoakOptions soak;               // seconds > 0: a scripted random user drives the window (scripts/soak)
};

// True when a window can be opened (a display is there and GLFW initialises).
bool displayAvailable(std::string& why);
// Returns the process exit code.
int runWindow(const WindowOptions& options);

}  // namespace frac
