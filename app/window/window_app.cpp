#include "window/window_app.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <imgui.h>

#include "context.h"
#include "exit_code.h"
#include "frame_capture.h"
#include "frame_pacer.h"
#include "gui_layer.h"
#include "io/scene_error.h"
#include "io/scene_loader.h"
#include "legend.h"
#include "frame_export.h"
#include "mesh_export.h"
#include "offscreen_target.h"
#include "scene_renderer.h"
#include "session/range_render.h"
#include "session/replay_file.h"
#include "session/sim_thread.h"
#include "swapchain_target.h"
#include "ui/settings_values.h"
#include "ui/ui_state.h"
#include "vk_check.h"
#include "window/browser_thumbnails.h"
#include "window/camera_controller.h"
#include "window/instance_sharing.h"
#include "window/throw_tool.h"
#include "window/window_capture.h"
#include "window/window_input.h"

namespace frac {

namespace fs = std::filesystem;

bool displayAvailable(std::string& why) {
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if ((!display || !*display) && (!wayland || !*wayland)) {
    why = "no display (DISPLAY and WAYLAND_DISPLAY are not set)";
    return false;
  }
  return true;
}

namespace {

constexpr int kFramesInFlight = 2;

bool changed(const render::Camera& a, const render::Camera& b) {
  return a.eye != b.eye || a.target != b.target || a.up != b.up || a.fovYDegrees != b.fovYDegrees;
}

bool changed(const render::RenderSettings& a, const render::RenderSettings& b) {
  return a.colorMode != b.colorMode || a.draw != b.draw || a.surfaceCellSize != b.surfaceCellSize ||
         a.scalarMin != b.scalarMin || a.scalarMax != b.scalarMax ||
         a.autoSpeedRange != b.autoSpeedRange || a.bonds != b.bonds || a.lit != b.lit || a.shadows != b.shadows ||
         a.occlusionCulling != b.occlusionCulling || a.elementScale != b.elementScale ||
         a.background != b.background;
}

std::vector<std::string> scenePresets() {
  std::vector<std::string> presets;
  for (const std::string& dir : {std::string("assets/scenes"), std::string(FRACTURE_ASSET_DIR) + "/scenes"}) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    for (const auto& entry : fs::directory_iterator(dir, ec))
      if (entry.path().extension() == ".json") presets.push_back(entry.path().string());
    if (!presets.empty()) break;
  }
  std::sort(presets.begin(), presets.end());
  return presets;
}

// The window loop: takes the newest snapshot, runs input and panels, and says what to draw and when; frames reach the
// screen through the FramePacer, shared instances through InstanceSharing, captures through window_capture.h.
class WindowApp {
 public:
  explicit WindowApp(const WindowOptions& options);
  ~WindowApp();
  int run();

 private:
  void createSizedResources();  // what follows the swapchain's size: the offscreen scene, the UI read-back buffer
  void openScene(const std::string& path);
  void shareInstancesWithSimulation() { sharing_->share(*sim_, haveSnapshot_ ? &shown_ : nullptr); }
  // False when the frame was not drawn as asked (the swapchain was re-created, or a capture's shared instances were
  // already being rewritten): nothing was captured, try again with the next snapshot.
  bool renderFrame(bool captureUi, bool captureScene);
  // Opaque RGBA of the last captured frame: with the panels (swapchain image) or the scene alone.
  std::vector<uint8_t> capturedPixels(bool withUi);
  void writeExitStats() const;
  // The simulation thread extracts fracture surfaces while they are drawn or a recording exports them.
  void updateSurfaceRequest() {
    sim_->setSurfaces(ui_.render.drawSurfaces() || recording_.exportsMeshes(), ui_.render.surfaceCellSize);
  }

  WindowOptions options_;
  GLFWwindow* window_ = nullptr;
  std::unique_ptr<render::Context> context_;
  VkSurfaceKHR surface_ = VK_NULL_HANDLE;
  std::unique_ptr<render::SwapchainTarget> target_;
  std::unique_ptr<render::FramePacer> pacer_;
  std::unique_ptr<render::SceneRenderer> scene_;
  std::unique_ptr<render::GuiLayer> imgui_;
  std::unique_ptr<render::OffscreenTarget> sceneOnly_;  // the scene drawn when it changes; recordings without the UI
  render::Buffer uiReadback_;
  bool sceneDirty_ = true;  // the offscreen scene image must be redrawn
  render::Camera drawnCamera_;
  render::RenderSettings drawnSettings_;

  std::unique_ptr<InstanceSharing> sharing_;
  std::unique_ptr<SimThread> sim_;
  ui::UiState ui_;
  CameraController camera_;
  ThrowTool throwTool_;
  WindowInput input_;
  WindowRecording recording_{options_};
  SimSnapshot shown_;  // the snapshot on screen (copied from the triple buffer's front)
  bool haveSnapshot_ = false;
  int screenshotCount_ = 0;
  bool scrubbedBack_ = false;  // --scrub-to: the scrub back was asked for
  RangeRender range_;          // the Record panel's "Render range" child
  void updateRangeRender();
  BrowserThumbnails thumbnails_;
  int uiFrames_ = 0;  // loops drawn: --exit-after waits for the second, when auto-sized windows have their size
  std::unique_ptr<SoakDriver> soak_;
  int rollbacks_ = 0;  // --on-diverge rollback: offers taken
};

WindowApp::WindowApp(const WindowOptions& options) : options_(options) {
  ui_.showHint = !options.hideHelp;
  ui_.showBrowser = options.openBrowser;
  ui_.render = options.render;
  ui_.renderValues = ui::renderValues(options.render);
  ui_.throwValues = ui::groupDefaults("throw");
  ui::applyThrowValues(ui_.throwValues, ui_.throwing);
  std::snprintf(ui_.record.folder, sizeof ui_.record.folder, "%s", options.recordFolder.c_str());
  ui_.record.withUi = options.recordWithUi;
  ui_.record.startRequested = options.recordAtStart;
  if (!options.exportMeshDir.empty()) {
    MeshExport check(options.exportMeshDir);  // an unusable folder is an error now (exit 2), not after the run
    ui_.record.exportMeshes = true;
    std::snprintf(ui_.record.meshFolder, sizeof ui_.record.meshFolder, "%s", options.exportMeshDir.c_str());
  }
  if (!options.exportDir.empty()) {
    FrameExport check(options.exportDir, ExportFormat::Vtu, options.exportBonds);  // an unusable folder: exit 2 now
    ui_.record.exportData = true;
    ui_.record.exportBonds = options.exportBonds;
    std::snprintf(ui_.record.dataFolder, sizeof ui_.record.dataFolder, "%s", options.exportDir.c_str());
  }
  ui_.presets = scenePresets();
  if (options.soak.seconds > 0.0) {  // the opened scene is the reference; then every preset but the benchmarks'
    std::vector<std::string> scenes{options.session.scenePath};
    for (const std::string& path : ui_.presets)
      if (fs::path(path).filename().string().rfind("bench_", 0) != 0 &&
          fs::path(path).filename() != fs::path(options.session.scenePath).filename())
        scenes.push_back(path);
    soak_ = std::make_unique<SoakDriver>(options.soak, scenes);
  }
  std::snprintf(ui_.openPath, sizeof ui_.openPath, "%s", options.session.scenePath.c_str());
  // The simulation first: a bad scene is reported before any window appears.
  // It starts paused and, for --exit-after, in lockstep; it runs (unless asked to wait) once the window is up, so a
  // recording from the start gets frame 1 however long the window takes to open.
  sim_ = std::make_unique<SimThread>(options.session, /*startPaused=*/true,
                                     options.replayPath.empty() ? std::vector<Command>{}
                                                                : readReplay(options.replayPath).commands);
  // --exit-after: the simulation stops exactly at that frame (it waits for the UI after every frame until then).
  if (options.exitAfterFrames >= 0) sim_->setLockstep(true);
  sim_->setTimeline(ui_.timeline, size_t(ui_.timelineBudgetMb) << 20);

  if (!glfwInit()) throw std::runtime_error("GLFW could not initialise the display");
  glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
  window_ = glfwCreateWindow(options.width, options.height, "Fracture Sandbox", nullptr, nullptr);
  if (!window_) throw std::runtime_error("GLFW could not open a window");
  render::ContextOptions contextOptions;
  contextOptions.validation = options.validation;
  contextOptions.swapchain = true;
  uint32_t count = 0;
  const char** extensions = glfwGetRequiredInstanceExtensions(&count);
  if (!extensions) throw std::runtime_error("GLFW reports no Vulkan support for windows on this display");
  for (uint32_t i = 0; i < count; ++i) contextOptions.instanceExtensions.push_back(extensions[i]);
  context_ = std::make_unique<render::Context>(contextOptions);
  FRAC_VK(glfwCreateWindowSurface(context_->instance(), window_, nullptr, &surface_));
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  target_ = std::make_unique<render::SwapchainTarget>(*context_, surface_, uint32_t(w), uint32_t(h));
  scene_ = std::make_unique<render::SceneRenderer>(*context_, target_->renderPass(), kFramesInFlight);
  imgui_ = std::make_unique<render::GuiLayer>(*context_, target_->renderPass(), target_->imageCount());
  ImGui_ImplGlfw_InitForVulkan(window_, true);
  pacer_ = std::make_unique<render::FramePacer>(*context_, *target_, kFramesInFlight);
  createSizedResources();
  sharing_ = std::make_unique<InstanceSharing>(*context_, kFramesInFlight);
  sim_->setInstanceScalar(render::elementScalar(ui_.render.colorMode));  // before the first shared snapshot
  updateSurfaceRequest();
  shareInstancesWithSimulation();
  ui_.sim = sim_.get();
  sim_->setBondLines(ui_.render.bonds);
  ui_.document = sim_->document();
  if (!options.paused) sim_->setPaused(false);
  camera_.reset(sceneCamera(parseScene(ui_.document, options.session.scenePath).camera));
}

WindowApp::~WindowApp() {
  if (context_) vkDeviceWaitIdle(context_->device());
  if (recording_.active()) recording_.stop(ui_, *sim_);
  sim_.reset();  // releases CUDA's imports of the shared instance buffers
  if (sharing_) sharing_->release();
  if (imgui_) {
    ImGui_ImplGlfw_Shutdown();
    imgui_.reset();
  }
  sceneOnly_.reset();
  uiReadback_ = render::Buffer();
  scene_.reset();
  pacer_.reset();
  target_.reset();
  sharing_.reset();
  if (context_) vkDestroySurfaceKHR(context_->instance(), surface_, nullptr);
  context_.reset();
  if (window_) glfwDestroyWindow(window_);
  glfwTerminate();
}

void WindowApp::createSizedResources() {
  const VkExtent2D e = target_->extent();
  uiReadback_ = render::Buffer(*context_, VkDeviceSize(e.width) * e.height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
  sceneOnly_ = std::make_unique<render::OffscreenTarget>(*context_, e.width, e.height, target_->format());
  sceneDirty_ = true;
}

void WindowApp::openScene(const std::string& path) {
  if (recording_.active()) recording_.stop(ui_, *sim_);
  SessionOptions session = options_.session;
  session.scenePath = path;
  session.overrides.clear();
  try {
    auto next = std::make_unique<SimThread>(session, false);
    sim_ = std::move(next);
    // The Scene panel's settings hold for the new scene too.
    sim_->setTimeline(ui_.timeline, size_t(ui_.timelineBudgetMb) << 20);
    sim_->setSpeed(ui_.speed);
    sim_->setInstanceScalar(render::elementScalar(ui_.render.colorMode));
    updateSurfaceRequest();
    shareInstancesWithSimulation();
    sim_->setBondLines(ui_.render.bonds);
    options_.session = session;
    ui_.sim = sim_.get();
    ui_.documentVersion = -1;
    ui_.document = sim_->document();
    ui_.edits.clear();  // the edits were the other scene's
    ui_.player.stop();
    haveSnapshot_ = false;
    shown_ = SimSnapshot{};  // the last scene's arrays go (copies into shown_ keep their capacity)
    camera_.reset(sceneCamera(parseScene(ui_.document, path).camera));
    ui_.record.status = "opened " + path;
  } catch (const std::exception& e) {  // a bad file: keep the current scene and say why
    std::cerr << "error: " << e.what() << "\n";
    ui_.record.status = std::string("error: ") + e.what();
  }
}

// Starts a requested range render (from the view's camera and render settings as they are now) and reports on it.
void WindowApp::updateRangeRender() {
  ui::RangeRenderState& g = ui_.rangeRender;
  if (g.requested) {
    g.requested = false;
    RangeRenderRequest request;
    request.folder = g.folder;
    request.first = g.frames[0];
    request.last = g.frames[1];
    request.width = g.size[0];
    request.height = g.size[1];
    request.renderArguments = renderArguments(camera_.camera(), ui_.render);
    try {
      range_.start(runLog(options_.session, *sim_), request);
      g.running = true;
    } catch (const std::exception& e) {
      g.status = std::string("error: ") + e.what();
    }
  }
  if (!g.running) return;
  const RangeRenderRequest& r = range_.request();
  const int count = r.last - r.first + 1;
  if (range_.running()) {
    g.status = "rendering frames " + std::to_string(r.first) + " to " + std::to_string(r.last) + " at " +
               std::to_string(r.width) + " x " + std::to_string(r.height) + ": " +
               std::to_string(range_.framesWritten()) + " of " + std::to_string(count);
    return;
  }
  g.running = false;
  g.status = range_.exitCode() == 0
                 ? std::to_string(range_.framesWritten()) + " frames in " + r.folder + "/frames"
                 : "the range render failed: see " + range_.logPath();
}

std::vector<uint8_t> WindowApp::capturedPixels(bool withUi) {
  const VkExtent2D e = target_->extent();
  std::vector<uint8_t> pixels;
  if (withUi) {
    pixels.resize(size_t(e.width) * e.height * 4);
    std::memcpy(pixels.data(), uiReadback_.mapped(), pixels.size());
  } else {
    sceneOnly_->readPixels(pixels);
  }
  toOpaqueRgba(pixels, target_->isBgra());
  return pixels;
}

// Records and submits one frame; with captureUi / captureScene it waits for it, leaving the pixels for
// capturedPixels().
bool WindowApp::renderFrame(bool captureUi, bool captureScene) {
  render::FramePacer::Frame frame;
  const bool acquired = pacer_->beginFrame(frame);
  sharing_->frameFinished(frame.slot);  // that slot's earlier frame no longer draws its shared instance buffer
  if (!acquired) {
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    pacer_->recreateSwapchain(uint32_t(w), uint32_t(h));
    createSizedResources();
    ImGui::EndFrame();
    return false;
  }
  const VkExtent2D e = target_->extent();
  // The scene is drawn offscreen only when something in it changed (a new snapshot, the camera, the render
  // settings); every UI frame copies it under the panels. A slow simulation leaves the UI fast.
  const bool wanted = sceneDirty_ || captureScene;
  bool redraw = wanted;
  // Elements CUDA wrote into a shared buffer: held while this frame is in flight; the submission waits for the
  // semaphore value that marks them written. A slot being written again means a newer snapshot is waiting: the old
  // image stays this frame.
  render::ExternalInstances external;
  render::TimelineWait instancesWritten;
  if (redraw && !sharing_->holdForFrame(frame.slot, shown_, external, instancesWritten)) {
    redraw = false;
    captureScene = false;  // the image would be the previous snapshot's
  }
  const bool drawnAsAsked = redraw || !wanted;
  if (redraw)
    ui_.range = scene_->prepare(frame.slot, shown_.frame, camera_.camera(), e, ui_.render,
                                external.buffer ? &external : nullptr);
  const float clear[3] = {ui_.render.background.r, ui_.render.background.g, ui_.render.background.b};
  VkCommandBuffer cmd = frame.commands;
  if (redraw) {
    scene_->recordExternalAcquire(cmd, frame.slot);  // (vertex input waits for the shared instances, below)
    scene_->recordShadow(cmd, frame.slot);
    sceneOnly_->begin(cmd, clear);
    scene_->record(cmd, frame.slot);
    if (captureScene)
      sceneOnly_->endAndCopy(cmd);  // the scene alone, for a recording without the UI
    else
      vkCmdEndRenderPass(cmd);
    scene_->recordExternalRelease(cmd, frame.slot);
    sceneDirty_ = false;
  }
  target_->beginOver(cmd, frame.image, sceneOnly_->colorImage());
  imgui_->record(cmd);
  target_->end(cmd);
  if (captureUi) target_->copyToBuffer(cmd, frame.image, uiReadback_.handle());
  pacer_->submitAndPresent(frame, instancesWritten);
  if (captureUi || captureScene) pacer_->waitUntilDone(frame);
  return drawnAsAsked;
}

void WindowApp::writeExitStats() const {
  const nlohmann::json stats = {{"frames", shown_.frameIndex},
                                {"steps", shown_.step},
                                {"elements", shown_.stats.elements},
                                {"bonds", shown_.stats.bonds},
                                {"bonds_broken", shown_.stats.bondsBroken},
                                {"fragments", shown_.stats.fragments},
                                {"sim_time", shown_.stats.time},
                                {"dt", shown_.dt},
                                {"stable_dt", shown_.stableDt},
                                {"rollbacks", rollbacks_},
                                {"message", sim_->lastMessage()},
                                {"ui_fps", ui_.uiFps},
                                {"validation_messages", context_->validationMessages()},
                                {"state_digest", std::to_string(shown_.stateDigest)}};
  std::ofstream(options_.statsPath) << stats.dump(2) << "\n";
}

int WindowApp::run() {
  auto last = std::chrono::steady_clock::now();
  double fpsAccumulator = 0.0;
  int fpsFrames = 0;
  while (!glfwWindowShouldClose(window_)) {
    glfwPollEvents();
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    if (w == 0 || h == 0) {  // minimised
      glfwWaitEventsTimeout(0.1);
      continue;
    }
    if (!ui_.requestOpen.empty()) {
      const std::string path = ui_.requestOpen;
      ui_.requestOpen.clear();
      openScene(path);
    }
    const bool fresh = sim_->poll();
    if (fresh || !haveSnapshot_) {
      shown_ = sim_->snapshot();
      haveSnapshot_ = true;
      if (fresh) {
        ui_.kineticHistory.push_back(float(shown_.stats.kineticEnergy));
        ui_.brokenHistory.push_back(float(shown_.stats.bondsBroken));
        while (ui_.kineticHistory.size() > 240) ui_.kineticHistory.pop_front();
        while (ui_.brokenHistory.size() > 240) ui_.brokenHistory.pop_front();
      }
      ui_.materialNames = shown_.frame.materialNames;
    }
    // Unattended (demos, tests): the divergence's roll-back offer is taken as soon as it is made, as B would.
    if (options_.rollBackOnDivergence && sim_->rollBack(/*runOn=*/true)) ++rollbacks_;
    if (fresh && shown_.sharedCapacityExceeded) shareInstancesWithSimulation();  // throws outgrew the shared buffers
    if (shown_.documentVersion != ui_.documentVersion) {
      ui_.document = sim_->document();
      ui_.documentVersion = shown_.documentVersion;
    }
    const auto now = std::chrono::steady_clock::now();
    const double dt = std::chrono::duration<double>(now - last).count();
    last = now;
    fpsAccumulator += dt;
    if (++fpsFrames >= 10) {
      ui_.uiFps = fpsFrames / fpsAccumulator;
      if (getenv("FRAC_DEBUG_FPS")) fprintf(stderr, "ui fps %.1f\n", ui_.uiFps);
      fpsAccumulator = 0.0;
      fpsFrames = 0;
    }
    if (ui_.record.startRequested && !recording_.active()) recording_.start(ui_, *sim_);
    if (ui_.record.stopRequested) recording_.stop(ui_, *sim_);
    updateRangeRender();

    const int playTo = ui_.player.advance(dt, shown_, ui_.document.value("fps", 60.0));
    if (playTo >= 0) sim_->scrubTo(playTo);

    thumbnails_.update(ui_, *imgui_);  // between frames: it may rebuild the font texture
    ImGui_ImplGlfw_NewFrame();
    imgui_->newFrame(0.0f, 0.0f, float(dt));
    input_.handle(window_, target_->extent(), shown_, haveSnapshot_, camera_, throwTool_, ui_, *sim_);
    ui::drawMainWindow(ui_, shown_);
    ui::drawThrowArrow(throwTool_, camera_.camera(), target_->extent(), ui_.throwing);
    ui::drawGrabLine(shown_, camera_.camera(), target_->extent());
    if (soak_ && !soak_->tick(dt, ui_, shown_, camera_.camera(), context_->validationMessages())) {
      ImGui::EndFrame();
      break;
    }
    sim_->setInstanceScalar(render::elementScalar(ui_.render.colorMode));
    updateSurfaceRequest();
    if (fresh || changed(camera_.camera(), drawnCamera_) || changed(ui_.render, drawnSettings_)) sceneDirty_ = true;
    drawnCamera_ = camera_.camera();
    drawnSettings_ = ui_.render;

    // A recording takes each simulated frame exactly once (the simulation waits for it in lockstep).
    const bool recordThis = recording_.due(shown_, fresh);
    // --exit-after N: quit once frame N is shown (twice: ImGui lays out on the first); with --scrub-to F, first scrub
    // back to timeline frame F and quit once that is shown.
    bool exiting = options_.exitAfterFrames >= 0 &&
                   (scrubbedBack_ ? shown_.frameIndex == options_.scrubToFrame
                                  : shown_.frameIndex >= options_.exitAfterFrames) &&
                   ++uiFrames_ >= 2;
    if (exiting && options_.scrubToFrame >= 0 && !scrubbedBack_) {
      sim_->scrubTo(options_.scrubToFrame);
      scrubbedBack_ = true;
      uiFrames_ = 0;
      exiting = false;
    }
    const bool screenshot = ui_.screenshotRequested || (exiting && !options_.screenshotPath.empty());
    const bool drawn = renderFrame(screenshot || (recordThis && ui_.record.withUi), recordThis && !ui_.record.withUi);
    recording_.retryNextLoop(recordThis && !drawn);  // not captured: the simulation still waits
    if (recordThis && drawn) {
      const VkExtent2D e = target_->extent();
      recording_.write(ui_, *sim_, shown_, int(e.width), int(e.height), capturedPixels(ui_.record.withUi));
    }
    // --exit-after holds every frame; a recording releases the frames it writes, and one it waits for (its surfaces or
    // data are on the way: the simulation publishes the held frame again with them) stays held.
    if (options_.exitAfterFrames >= 0 && fresh && !recording_.active() && shown_.frameIndex < options_.exitAfterFrames)
      sim_->releaseFrame();
    if (screenshot) {
      const std::string path = exiting && !options_.screenshotPath.empty()
                                   ? options_.screenshotPath
                                   : "out/screenshots/screenshot_" + std::to_string(screenshotCount_++) + ".png";
      const VkExtent2D e = target_->extent();
      if (writeScreenshot(path, int(e.width), int(e.height), capturedPixels(true))) ui_.lastScreenshot = path;
      ui_.screenshotRequested = false;
    }
    if (exiting) {
      if (!options_.statsPath.empty()) writeExitStats();
      break;
    }
  }
  return 0;
}

}  // namespace

int runWindow(const WindowOptions& options) {
  return exitCodeOf([&] {
    WindowApp app(options);
    return app.run();
  });
}

}  // namespace frac
