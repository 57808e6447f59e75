#include "window/window_input.h"

#include <algorithm>
#include <string>

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>
#include <imgui.h>

namespace frac {

void WindowInput::handle(GLFWwindow* window, VkExtent2D e, const SimSnapshot& shown, bool haveSnapshot,
                         CameraController& camera, ThrowTool& throwTool, ui::UiState& ui, SimThread& sim) {
  ImGuiIO& io = ImGui::GetIO();
  double x = 0, y = 0;
  glfwGetCursorPos(window, &x, &y);
  const float dx = float(x - lastX_), dy = float(y - lastY_);
  lastX_ = x;
  lastY_ = y;
  const float aspect = float(e.width) / float(std::max(e.height, 1u));
  if (!io.WantCaptureMouse) {
    const bool shift = glfwGetKey(window, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS ||
                       glfwGetKey(window, GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS;
    const bool right = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS;
    const bool middle = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS;
    // GLFW reports cursor positions in window coordinates; the framebuffer may be larger (HiDPI).
    int ww = 1, wh = 1;
    glfwGetWindowSize(window, &ww, &wh);
    const float scale = float(e.height) / float(std::max(wh, 1));
    if (middle || (right && shift)) camera.pan(dx * scale, dy * scale, float(e.height));
    else if (right) camera.orbit(dx, dy);
    if (io.MouseWheel != 0.0f) camera.zoom(io.MouseWheel);
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left) && haveSnapshot) {
      const float ndcX = 2.0f * float(x) / float(std::max(ww, 1)) - 1.0f;
      const float ndcY = 2.0f * float(y) / float(std::max(wh, 1)) - 1.0f;
      const render::Camera& c = camera.camera();
      throwTool.press(shown.frame, c.eye, c.rayDirection(ndcX, ndcY, aspect), ui.throwing.radius, float(x) * scale,
                      float(y) * scale);
    }
  }
  if (throwTool.active()) {
    int ww = 1, wh = 1;
    glfwGetWindowSize(window, &ww, &wh);
    const float scale = float(e.height) / float(std::max(wh, 1));
    throwTool.drag(float(x) * scale, float(y) * scale);
    if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
      const std::string material = ui.throwing.material < int(ui.materialNames.size())
                                       ? ui.materialNames[ui.throwing.material]
                                       : std::string();
      if (auto command = throwTool.release(camera.camera(), aspect, float(e.height), ui.throwing, material))
        sim.submit(*command);
    }
  }
  if (!io.WantCaptureKeyboard) {
    if (ImGui::IsKeyPressed(GLFW_KEY_SPACE)) sim.setPaused(!shown.paused);
    if (ImGui::IsKeyPressed(GLFW_KEY_S)) sim.stepOnce();
    if (ImGui::IsKeyPressed(GLFW_KEY_R)) sim.submit(Command::reset());
    if (ImGui::IsKeyPressed(GLFW_KEY_H)) ui.showHelp = !ui.showHelp;
    if (ImGui::IsKeyPressed(GLFW_KEY_F12)) ui.screenshotRequested = true;
  }
}

}  // namespace frac
