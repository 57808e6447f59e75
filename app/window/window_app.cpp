#include "window/window_app.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#define GLFW_INCLUDE_VULKAN
#include <unistd.h>

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <imgui.h>

#include "context.h"
#include "frame_capture.h"
#include "gui_layer.h"
#include "io/scene_error.h"
#include "io/scene_loader.h"
#include "legend.h"
#include "offscreen_target.h"
#include "recorder/frame_recorder.h"
#include "recorder/png_file.h"
#include "scene_renderer.h"
#include "shared_instances.h"
#include "session/replay_file.h"
#include "session/sim_thread.h"
#include "swapchain_target.h"
#include "ui/settings_values.h"
#include "ui/ui_state.h"
#include "vk_check.h"
#include "window/camera_controller.h"
#include "window/throw_tool.h"

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
// Shared instance buffers: one per frame in flight, the newest snapshot's, and one the simulation writes.
constexpr int kSharedInstanceSlots = kFramesInFlight + 2;

// Pixels in the swapchain's format (BGRA or RGBA) -> opaque RGBA for PNGs.
void toOpaqueRgba(std::vector<uint8_t>& pixels, bool bgra) {
  for (size_t p = 0; p < pixels.size(); p += 4) {
    if (bgra) std::swap(pixels[p], pixels[p + 2]);
    pixels[p + 3] = 255;
  }
}

bool changed(const render::Camera& a, const render::Camera& b) {
  return a.eye != b.eye || a.target != b.target || a.up != b.up || a.fovYDegrees != b.fovYDegrees;
}

bool changed(const render::RenderSettings& a, const render::RenderSettings& b) {
  return a.colorMode != b.colorMode || a.scalarMin != b.scalarMin || a.scalarMax != b.scalarMax ||
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

// Per frame in flight: its command buffer, fence and image-available semaphore.
struct FrameSync {
  VkCommandBuffer commands = VK_NULL_HANDLE;
  VkFence done = VK_NULL_HANDLE;
  VkSemaphore imageAvailable = VK_NULL_HANDLE;
};

class WindowApp {
 public:
  explicit WindowApp(const WindowOptions& options);
  ~WindowApp();
  int run();

 private:
  void createSwapchainResources();
  void destroySyncObjects();
  void openScene(const std::string& path);
  // Interop: shares instance buffers with the simulation thread (CUDA writes the elements into them) where Vulkan and
  // CUDA both can; otherwise tells the thread why not.
  void shareInstancesWithSimulation();
  void handleInput();
  void drawUi();
  // False when the frame was not drawn as asked (the swapchain was re-created, or a capture's shared instances were
  // already being rewritten): nothing was captured, try again with the next snapshot.
  bool renderFrame(bool captureUi, bool captureScene);
  void startRecording();
  void stopRecording();
  void writeScreenshot(const std::string& path, const std::vector<uint8_t>& pixels);
  std::vector<uint8_t> readBack(const render::Buffer& buffer) const;

  WindowOptions options_;
  GLFWwindow* window_ = nullptr;
  std::unique_ptr<render::Context> context_;
  VkSurfaceKHR surface_ = VK_NULL_HANDLE;
  std::unique_ptr<render::SwapchainTarget> target_;
  std::unique_ptr<render::SceneRenderer> scene_;
  std::unique_ptr<render::GuiLayer> imgui_;
  std::unique_ptr<render::OffscreenTarget> sceneOnly_;  // recordings without the UI
  render::Buffer uiReadback_;
  FrameSync frames_[kFramesInFlight];
  std::vector<VkSemaphore> renderDone_;  // per swapchain image
  int frameSlot_ = 0;
  bool swapchainStale_ = false;
  bool sceneDirty_ = true;  // the offscreen scene image must be redrawn
  render::Camera drawnCamera_;
  render::RenderSettings drawnSettings_;

  std::unique_ptr<render::SharedInstanceRing> sharedRing_;
  std::shared_ptr<InstanceSlots> sharedSlots_;
  int heldShared_[kFramesInFlight];  // per frame in flight: the shared slot its commands draw (-1: none)
  std::unique_ptr<SimThread> sim_;
  ui::UiState ui_;
  CameraController camera_;
  ThrowTool throwTool_;
  std::unique_ptr<FrameRecorder> recorder_;
  int recordFrom_ = -1, lastRecordedFrame_ = -1;
  bool captureRetry_ = false;
  SimSnapshot shown_;  // the snapshot on screen (copied from the triple buffer's front)
  bool haveSnapshot_ = false;
  int screenshotCount_ = 0;
  double lastX_ = 0, lastY_ = 0;
};

WindowApp::WindowApp(const WindowOptions& options) : options_(options) {
  ui_.showHelp = !options.hideHelp;
  ui_.render = options.render;
  ui_.renderValues = ui::renderValues(options.render);
  ui_.throwValues = ui::groupDefaults("throw");
  ui::applyThrowValues(ui_.throwValues, ui_.throwing);
  std::snprintf(ui_.record.folder, sizeof ui_.record.folder, "%s", options.recordFolder.c_str());
  ui_.record.withUi = options.recordWithUi;
  ui_.record.startRequested = options.recordAtStart;
  ui_.presets = scenePresets();
  std::snprintf(ui_.openPath, sizeof ui_.openPath, "%s", options.session.scenePath.c_str());
  // The simulation first: a bad scene is reported before any window appears.
  sim_ = std::make_unique<SimThread>(options.session, options.paused,
                                     options.replayPath.empty() ? std::vector<Command>{}
                                                                : readReplay(options.replayPath).commands);

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
  for (FrameSync& f : frames_) {
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = context_->commandPool();
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    FRAC_VK(vkAllocateCommandBuffers(context_->device(), &alloc, &f.commands));
    VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    fence.flags = VK_FENCE_CREATE_SIGNALED_BIT;
    FRAC_VK(vkCreateFence(context_->device(), &fence, nullptr, &f.done));
    VkSemaphoreCreateInfo semaphore{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    FRAC_VK(vkCreateSemaphore(context_->device(), &semaphore, nullptr, &f.imageAvailable));
  }
  createSwapchainResources();
  for (int& slot : heldShared_) slot = -1;
  sim_->setInstanceScalar(render::elementScalar(ui_.render.colorMode));  // before the first shared snapshot
  shareInstancesWithSimulation();
  ui_.sim = sim_.get();
  sim_->setBondLines(ui_.render.bonds);
  // --exit-after: the simulation stops exactly at that frame (it waits for the UI after every frame until then).
  if (options.exitAfterFrames >= 0) sim_->setLockstep(true);
  ui_.document = sim_->document();
  camera_.reset(sceneCamera(parseScene(ui_.document, options.session.scenePath).camera));
}

WindowApp::~WindowApp() {
  if (context_) vkDeviceWaitIdle(context_->device());
  if (recorder_) stopRecording();
  sim_.reset();  // releases CUDA's imports of the shared instance buffers
  sharedRing_.reset();
  if (imgui_) {
    ImGui_ImplGlfw_Shutdown();
    imgui_.reset();
  }
  sceneOnly_.reset();
  uiReadback_ = render::Buffer();
  scene_.reset();
  target_.reset();
  if (context_) {
    destroySyncObjects();
    vkDestroySurfaceKHR(context_->instance(), surface_, nullptr);
  }
  context_.reset();
  if (window_) glfwDestroyWindow(window_);
  glfwTerminate();
}

void WindowApp::destroySyncObjects() {
  for (FrameSync& f : frames_) {
    vkDestroyFence(context_->device(), f.done, nullptr);
    vkDestroySemaphore(context_->device(), f.imageAvailable, nullptr);
    vkFreeCommandBuffers(context_->device(), context_->commandPool(), 1, &f.commands);
  }
  for (VkSemaphore s : renderDone_) vkDestroySemaphore(context_->device(), s, nullptr);
  renderDone_.clear();
}

void WindowApp::createSwapchainResources() {
  for (VkSemaphore s : renderDone_) vkDestroySemaphore(context_->device(), s, nullptr);
  renderDone_.assign(target_->imageCount(), VK_NULL_HANDLE);
  for (VkSemaphore& s : renderDone_) {
    VkSemaphoreCreateInfo semaphore{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    FRAC_VK(vkCreateSemaphore(context_->device(), &semaphore, nullptr, &s));
  }
  const VkExtent2D e = target_->extent();
  uiReadback_ = render::Buffer(*context_, VkDeviceSize(e.width) * e.height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
  sceneOnly_ = std::make_unique<render::OffscreenTarget>(*context_, e.width, e.height, target_->format());
  sceneDirty_ = true;
}

void WindowApp::shareInstancesWithSimulation() {
  SharedInstanceExport shared;
  if (!render::SharedInstanceRing::supported(*context_, &shared.unavailable) ||
      !cudaBackendAvailable(&shared.unavailable)) {
    sim_->shareInstances(shared);  // the Solver panel says why
    return;
  }
  if (context_->deviceUuid() != cudaDeviceUuid()) {  // both APIs must drive the same GPU
    shared.unavailable = "Vulkan renders on " + context_->deviceName() + ", CUDA runs on " + cudaDeviceName();
    sim_->shareInstances(shared);
    return;
  }
  // Room for the scene and what throws add to it; a scene that outgrows it gets a larger ring.
  if (!haveSnapshot_) sim_->poll();  // the thread's first snapshot (the main loop takes it too)
  const SimSnapshot& latest = haveSnapshot_ ? shown_ : sim_->snapshot();
  const int elements = std::max({latest.stats.elements, latest.frame.elementsOnDevice.count,
                                 int(latest.frame.elementCount()), 1});
  const int capacity = std::max(2 * elements, elements + 65536);
  vkDeviceWaitIdle(context_->device());  // no frame in flight draws the old buffers
  for (int& slot : heldShared_) slot = -1;
  if (sharedRing_ && sharedRing_->capacity() < capacity) {  // CUDA lets go of the old buffers before they go
    SharedInstanceExport none;
    none.unavailable = "making larger shared buffers";
    sim_->shareInstances(none);
    sharedRing_.reset();
  }
  try {
    if (!sharedRing_)
      sharedRing_ = std::make_unique<render::SharedInstanceRing>(*context_, capacity, kSharedInstanceSlots);
    shared.firstValue = sharedRing_->semaphoreValue();
    sharedSlots_ = std::make_shared<InstanceSlots>(sharedRing_->slots());
    shared.slots = sharedSlots_;
    shared.capacity = sharedRing_->capacity();
    for (int k = 0; k < sharedRing_->slots(); ++k) {
      shared.memoryFds.push_back(sharedRing_->exportMemoryFd(k));
      shared.memoryBytes.push_back(size_t(sharedRing_->allocationSize(k)));
    }
    shared.semaphoreFd = sharedRing_->exportSemaphoreFd();
  } catch (const std::exception& e) {
    for (int fd : shared.memoryFds) close(fd);
    shared = SharedInstanceExport{};
    shared.unavailable = e.what();
  }
  const std::string why = sim_->shareInstances(shared);
  if (!why.empty()) std::cerr << "renderer: instances through host memory: " << why << "\n";
}

void WindowApp::openScene(const std::string& path) {
  if (recorder_) stopRecording();
  SessionOptions session = options_.session;
  session.scenePath = path;
  session.overrides.clear();
  try {
    auto next = std::make_unique<SimThread>(session, false);
    sim_ = std::move(next);
    sim_->setInstanceScalar(render::elementScalar(ui_.render.colorMode));
    shareInstancesWithSimulation();
    sim_->setBondLines(ui_.render.bonds);
    options_.session = session;
    ui_.sim = sim_.get();
    ui_.documentVersion = -1;
    ui_.document = sim_->document();
    haveSnapshot_ = false;
    camera_.reset(sceneCamera(parseScene(ui_.document, path).camera));
    ui_.record.status = "opened " + path;
  } catch (const std::exception& e) {  // a bad file: keep the current scene and say why
    std::cerr << "error: " << e.what() << "\n";
    ui_.record.status = std::string("error: ") + e.what();
  }
}

void WindowApp::handleInput() {
  ImGuiIO& io = ImGui::GetIO();
  double x = 0, y = 0;
  glfwGetCursorPos(window_, &x, &y);
  const float dx = float(x - lastX_), dy = float(y - lastY_);
  lastX_ = x;
  lastY_ = y;
  const VkExtent2D e = target_->extent();
  const float aspect = float(e.width) / float(std::max(e.height, 1u));
  if (!io.WantCaptureMouse) {
    const bool shift = glfwGetKey(window_, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS ||
                       glfwGetKey(window_, GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS;
    const bool right = glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS;
    const bool middle = glfwGetMouseButton(window_, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS;
    // GLFW reports cursor positions in window coordinates; the framebuffer may be larger (HiDPI).
    int ww = 1, wh = 1;
    glfwGetWindowSize(window_, &ww, &wh);
    const float scale = float(e.height) / float(std::max(wh, 1));
    if (middle || (right && shift)) camera_.pan(dx * scale, dy * scale, float(e.height));
    else if (right) camera_.orbit(dx, dy);
    if (io.MouseWheel != 0.0f) camera_.zoom(io.MouseWheel);
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left) && haveSnapshot_) {
      const float ndcX = 2.0f * float(x) / float(std::max(ww, 1)) - 1.0f, ndcY = 2.0f * float(y) / float(std::max(wh, 1)) - 1.0f;
      const render::Camera& c = camera_.camera();
      throwTool_.press(shown_.frame, c.eye, c.rayDirection(ndcX, ndcY, aspect), ui_.throwing.radius, float(x) * scale,
                       float(y) * scale);
    }
  }
  if (throwTool_.active()) {
    int ww = 1, wh = 1;
    glfwGetWindowSize(window_, &ww, &wh);
    const float scale = float(e.height) / float(std::max(wh, 1));
    throwTool_.drag(float(x) * scale, float(y) * scale);
    if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
      const std::string material = ui_.throwing.material < int(ui_.materialNames.size())
                                       ? ui_.materialNames[ui_.throwing.material]
                                       : std::string();
      if (auto command = throwTool_.release(camera_.camera(), aspect, float(e.height), ui_.throwing, material))
        sim_->submit(*command);
    }
  }
  if (!io.WantCaptureKeyboard) {
    if (ImGui::IsKeyPressed(GLFW_KEY_SPACE)) sim_->setPaused(!shown_.paused);
    if (ImGui::IsKeyPressed(GLFW_KEY_S)) sim_->stepOnce();
    if (ImGui::IsKeyPressed(GLFW_KEY_R)) sim_->submit(Command::reset());
    if (ImGui::IsKeyPressed(GLFW_KEY_H)) ui_.showHelp = !ui_.showHelp;
    if (ImGui::IsKeyPressed(GLFW_KEY_F12)) ui_.screenshotRequested = true;
  }
}

void WindowApp::drawUi() {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(8, 8), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(380, display.y - 16), ImGuiCond_FirstUseEver);
  if (ImGui::Begin("Fracture Sandbox")) {
    ImGui::PushItemWidth(ImGui::GetWindowWidth() * 0.5f);
    ui::drawScenePanel(ui_, shown_);
    ui::drawStatsPanel(ui_, shown_);
    ui::drawMaterialPanel(ui_, shown_);
    ui::drawSolverPanel(ui_, shown_);
    ui::drawProjectilePanel(ui_);
    ui::drawRenderPanel(ui_, shown_);
    ui::drawRecordPanel(ui_, shown_);
    const std::string message = sim_->lastMessage();
    if (!message.empty()) {
      ImGui::Separator();
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextUnformatted(message.c_str());
      ImGui::PopTextWrapPos();
    }
    ImGui::PopItemWidth();
  }
  ImGui::End();
  ui::drawHelpOverlay(ui_);
  ui::drawRecordingIndicator(ui_);
  if (throwTool_.active()) {  // the arrow: where the ball starts, where it heads and how fast
    const render::Camera& c = camera_.camera();
    const VkExtent2D e = target_->extent();
    const glm::mat4 viewProj = c.projection(float(e.width) / float(e.height)) * c.view();
    auto toScreen = [&](const glm::vec3& p) {
      const glm::vec4 q = viewProj * glm::vec4(p, 1.0f);
      const float scale = ImGui::GetIO().DisplaySize.y / float(e.height);
      return ImVec2((0.5f + 0.5f * q.x / q.w) * float(e.width) * scale, (0.5f + 0.5f * q.y / q.w) * float(e.height) * scale);
    };
    const glm::vec3 v = throwTool_.velocity(c, float(e.height), ui_.throwing);
    const float length = glm::length(c.target - c.eye) * 0.02f;  // 1 m/s = 2% of the view distance
    const ImVec2 a = toScreen(throwTool_.start()), b = toScreen(throwTool_.start() + v * length);
    ImDrawList* draw = ImGui::GetForegroundDrawList();
    draw->AddCircleFilled(a, 5.0f, IM_COL32(255, 220, 60, 255));
    draw->AddLine(a, b, IM_COL32(255, 220, 60, 255), 3.0f);
    const ImVec2 d(b.x - a.x, b.y - a.y);
    const float n = std::max(std::sqrt(d.x * d.x + d.y * d.y), 1e-3f);
    const ImVec2 u(d.x / n, d.y / n), p(-u.y, u.x);
    draw->AddTriangleFilled(b, ImVec2(b.x - 14 * u.x + 7 * p.x, b.y - 14 * u.y + 7 * p.y),
                            ImVec2(b.x - 14 * u.x - 7 * p.x, b.y - 14 * u.y - 7 * p.y), IM_COL32(255, 220, 60, 255));
    char text[64];
    std::snprintf(text, sizeof text, "%.1f m/s", glm::length(v));
    draw->AddText(ImVec2(b.x + 8, b.y), IM_COL32(255, 255, 255, 255), text);
  }
}

std::vector<uint8_t> WindowApp::readBack(const render::Buffer& buffer) const {
  const VkExtent2D e = target_->extent();
  std::vector<uint8_t> pixels(size_t(e.width) * e.height * 4);
  std::memcpy(pixels.data(), buffer.mapped(), pixels.size());
  toOpaqueRgba(pixels, target_->isBgra());
  return pixels;
}

void WindowApp::writeScreenshot(const std::string& path, const std::vector<uint8_t>& pixels) {
  const VkExtent2D e = target_->extent();
  std::error_code ec;
  if (fs::path(path).has_parent_path()) fs::create_directories(fs::path(path).parent_path(), ec);
  std::string error;
  if (writePngFile(path, int(e.width), int(e.height), pixels.data(), error))
    ui_.lastScreenshot = path;
  else
    std::cerr << "error: screenshot " << path << ": " << error << "\n";
}

// Records and submits one frame; with captureUi / captureScene it waits for it and returns the pixels through the
// recorder or the screenshot path.
bool WindowApp::renderFrame(bool captureUi, bool captureScene) {
  FrameSync& f = frames_[frameSlot_];
  FRAC_VK(vkWaitForFences(context_->device(), 1, &f.done, VK_TRUE, UINT64_MAX));
  if (heldShared_[frameSlot_] >= 0) {  // that frame no longer draws its shared instance buffer
    sharedSlots_->release(heldShared_[frameSlot_]);
    heldShared_[frameSlot_] = -1;
  }
  uint32_t image = 0;
  if (swapchainStale_ || !target_->acquire(f.imageAvailable, image)) {
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    target_->recreate(uint32_t(w), uint32_t(h));
    createSwapchainResources();
    swapchainStale_ = false;
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
  unsigned long long waitForValue = 0;
  if (redraw && shown_.sharedSlot >= 0) {
    if (sharedRing_ && sharedSlots_ && shown_.sharedSlot < sharedRing_->slots() &&
        sharedSlots_->hold(shown_.sharedSlot, shown_.ready)) {
      heldShared_[frameSlot_] = shown_.sharedSlot;
      external.buffer = sharedRing_->buffer(shown_.sharedSlot);
      external.summary = shown_.frame.elementsOnDevice;
      waitForValue = shown_.ready;
    } else {
      redraw = false;
      captureScene = false;  // the image would be the previous snapshot's
    }
  }
  const bool drawnAsAsked = redraw || !wanted;
  if (redraw)
    ui_.range = scene_->prepare(frameSlot_, shown_.frame, camera_.camera(), e, ui_.render,
                                external.buffer ? &external : nullptr);
  const float clear[3] = {ui_.render.background.r, ui_.render.background.g, ui_.render.background.b};
  FRAC_VK(vkResetCommandBuffer(f.commands, 0));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  FRAC_VK(vkBeginCommandBuffer(f.commands, &begin));
  if (redraw) {
    scene_->recordExternalAcquire(f.commands, frameSlot_);  // (vertex input waits for the shared instances, below)
    scene_->recordShadow(f.commands, frameSlot_);
    sceneOnly_->begin(f.commands, clear);
    scene_->record(f.commands, frameSlot_);
    if (captureScene)
      sceneOnly_->endAndCopy(f.commands);  // the scene alone, for a recording without the UI
    else
      vkCmdEndRenderPass(f.commands);
    scene_->recordExternalRelease(f.commands, frameSlot_);
    sceneDirty_ = false;
  }
  target_->beginOver(f.commands, image, sceneOnly_->colorImage());
  imgui_->record(f.commands);
  target_->end(f.commands);
  if (captureUi) target_->copyToBuffer(f.commands, image, uiReadback_.handle());
  FRAC_VK(vkEndCommandBuffer(f.commands));
  FRAC_VK(vkResetFences(context_->device(), 1, &f.done));
  const VkSemaphore waitFor[2] = {f.imageAvailable, sharedRing_ ? sharedRing_->semaphore() : VK_NULL_HANDLE};
  const VkPipelineStageFlags waitStages[2] = {VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                              VK_PIPELINE_STAGE_VERTEX_INPUT_BIT};
  const uint64_t waitValues[2] = {0, waitForValue};  // the binary semaphore's value is ignored
  VkTimelineSemaphoreSubmitInfo timeline{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
  timeline.waitSemaphoreValueCount = 2;
  timeline.pWaitSemaphoreValues = waitValues;
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.pNext = waitForValue ? &timeline : nullptr;
  submit.waitSemaphoreCount = waitForValue ? 2 : 1;
  submit.pWaitSemaphores = waitFor;
  submit.pWaitDstStageMask = waitStages;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &f.commands;
  submit.signalSemaphoreCount = 1;
  submit.pSignalSemaphores = &renderDone_[image];
  FRAC_VK(vkQueueSubmit(context_->queue(), 1, &submit, f.done));
  if (!target_->present(renderDone_[image], image)) swapchainStale_ = true;
  if (captureUi || captureScene) FRAC_VK(vkWaitForFences(context_->device(), 1, &f.done, VK_TRUE, UINT64_MAX));
  frameSlot_ = (frameSlot_ + 1) % kFramesInFlight;
  return drawnAsAsked;
}

void WindowApp::startRecording() {
  ui_.record.startRequested = false;
  RecorderOptions options;
  options.directory = ui_.record.folder;
  options.fps = int(std::lround(ui_.document.value("fps", 60.0)));
  try {
    recorder_ = std::make_unique<FrameRecorder>(options);
  } catch (const std::exception& e) {
    ui_.record.status = std::string("error: ") + e.what();
    return;
  }
  ui_.record.active = true;
  ui_.record.framesWritten = 0;
  recordFrom_ = -1;
  lastRecordedFrame_ = -1;
  sim_->setLockstep(true);  // every simulated frame from now on waits until it is written
  ui_.record.status = "recording into " + recorder_->framesDirectory().string();
}

void WindowApp::stopRecording() {
  ui_.record.stopRequested = false;
  sim_->setLockstep(options_.exitAfterFrames >= 0);  // --exit-after keeps stopping at every frame
  if (!recorder_) return;
  try {
    recorder_->finish();
  } catch (const std::exception& e) {
    ui_.record.status = std::string("error: ") + e.what();
  }
  ReplayLog log;
  log.session = options_.session;
  log.session.overrides = sim_->resetOverrides();
  log.commands = sim_->commandLog();
  log.frames = lastRecordedFrame_ >= 0 ? lastRecordedFrame_ : 0;
  log.recordFrom = std::max(recordFrom_, 0);
  const std::string replayPath = (fs::path(ui_.record.folder) / "replay.jsonl").string();
  try {
    writeReplay(replayPath, log);
    ui_.record.status = std::to_string(recorder_->framesWritten()) + " frames in " +
                        recorder_->framesDirectory().string() + ", " + replayPath;
  } catch (const std::exception& e) {
    ui_.record.status = std::string("error: ") + e.what();
  }
  recorder_.reset();
  ui_.record.active = false;
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
    if (ui_.record.startRequested && !recorder_) startRecording();
    if (ui_.record.stopRequested) stopRecording();

    ImGui_ImplGlfw_NewFrame();
    imgui_->newFrame(0.0f, 0.0f, float(dt));
    handleInput();
    drawUi();
    sim_->setInstanceScalar(render::elementScalar(ui_.render.colorMode));
    if (fresh || changed(camera_.camera(), drawnCamera_) || changed(ui_.render, drawnSettings_)) sceneDirty_ = true;
    drawnCamera_ = camera_.camera();
    drawnSettings_ = ui_.render;

    // A recording takes each simulated frame exactly once (the simulation waits for it in lockstep).
    const bool recordThis = recorder_ && (fresh || captureRetry_) && shown_.frameIndex != lastRecordedFrame_ &&
                            shown_.frameIndex > 0;
    const bool exiting = options_.exitAfterFrames >= 0 && shown_.frameIndex >= options_.exitAfterFrames;
    const bool screenshot = ui_.screenshotRequested || (exiting && !options_.screenshotPath.empty());
    const bool drawn = renderFrame(screenshot || (recordThis && ui_.record.withUi), recordThis && !ui_.record.withUi);
    captureRetry_ = recordThis && !drawn;  // not captured: the next loop tries again (the simulation still waits)
    if (recordThis && drawn) {
      if (recordFrom_ < 0) recordFrom_ = shown_.frameIndex - 1;
      std::vector<uint8_t> pixels;
      if (ui_.record.withUi) {
        pixels = readBack(uiReadback_);
      } else {
        sceneOnly_->readPixels(pixels);
        toOpaqueRgba(pixels, target_->isBgra());
      }
      try {
        const VkExtent2D e = target_->extent();
        recorder_->submit(shown_.frameIndex - 1 - recordFrom_, int(e.width), int(e.height), std::move(pixels));
        ui_.record.framesWritten = recorder_->framesWritten() + 1;
      } catch (const std::exception& e) {
        ui_.record.status = std::string("error: ") + e.what();
        stopRecording();
      }
      lastRecordedFrame_ = shown_.frameIndex;
      sim_->releaseFrame();
    }
    if (options_.exitAfterFrames >= 0 && fresh && !recordThis && shown_.frameIndex < options_.exitAfterFrames)
      sim_->releaseFrame();
    if (screenshot) {
      const std::string path = exiting && !options_.screenshotPath.empty()
                                   ? options_.screenshotPath
                                   : "out/screenshots/screenshot_" + std::to_string(screenshotCount_++) + ".png";
      writeScreenshot(path, readBack(uiReadback_));
      ui_.screenshotRequested = false;
    }
    if (exiting) {
      if (!options_.statsPath.empty()) {
        const nlohmann::json stats = {{"frames", shown_.frameIndex},
                                      {"steps", shown_.step},
                                      {"elements", shown_.stats.elements},
                                      {"bonds", shown_.stats.bonds},
                                      {"bonds_broken", shown_.stats.bondsBroken},
                                      {"fragments", shown_.stats.fragments},
                                      {"sim_time", shown_.stats.time},
                                      {"ui_fps", ui_.uiFps},
                                      {"validation_messages", context_->validationMessages()},
                                      {"state_digest", std::to_string(shown_.stateDigest)}};
        std::ofstream(options_.statsPath) << stats.dump(2) << "\n";
      }
      break;
    }
  }
  return 0;
}

}  // namespace

int runWindow(const WindowOptions& options) {
  try {
    WindowApp app(options);
    return app.run();
  } catch (const SceneError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const std::invalid_argument& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace frac
