#pragma once
// Mouse and keys of the window, each loop after ImGui's new frame: what the panels do not take moves the camera,
// throws (drag-to-throw) or grabs (G: drag pulls the element under the cursor), and runs the keyboard shortcuts
// (pause, step, reset, help, screenshot, grab mode).
#include <vulkan/vulkan.h>

#include "session/sim_thread.h"
#include "ui/ui_state.h"
#include "window/camera_controller.h"
#include "window/throw_tool.h"

struct GLFWwindow;

namespace frac {

class WindowInput {
 public:
  // `extent`: the swapchain's (framebuffer pixels); `shown`: the snapshot on screen (throws start only once there is
  // one, `haveSnapshot`).
  void handle(GLFWwindow* window, VkExtent2D extent, const SimSnapshot& shown, bool haveSnapshot,
              CameraController& camera, ThrowTool& throwTool, ui::UiState& ui, SimThread& sim);

 private:
  double lastX_ = 0, lastY_ = 0;  // the cursor at the last loop
  bool grabbing_ = false;          // the left button holds a grab (ui.grabMode)
  glm::vec3 lastTarget_{0.0f};
};

}  // namespace frac
