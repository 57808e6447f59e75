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
    const float ndcX = 2.0f * float(x) / float(std::max(ww, 1)) - 1.0f;
    const float ndcY = 2.0f * float(y) / float(std::max(wh, 1)) - 1.0f;
    const render::Camera& view = camera.camera();
    if (ui.grabMode && ImGui::IsMouseClicked(ImGuiMouseButton_Left) && haveSnapshot) {
      // The session finds the element the ray meets first (where the state is) and starts the grab at that point.
      Command grab = Command::grab(-1, ui.grabRadius, view.eye, ui.grabFrequency);
      grab.aimed = true;
      grab.aimOrigin = view.eye;
      grab.aimDirection = view.rayDirection(ndcX, ndcY, aspect);
      sim.submit(grab);
      grabbing_ = true;
    } else if (grabbing_ && ImGui::IsMouseDown(ImGuiMouseButton_Left) && shown.grabActive) {
      // The target follows the cursor in the plane facing the camera through the current target.
      const glm::vec3 dir = view.rayDirection(ndcX, ndcY, aspect), normal = glm::normalize(view.target - view.eye);
      const float along = glm::dot(dir, normal);
      if (std::abs(along) > 1e-4f) {
        const glm::vec3 target = view.eye + dir * (glm::dot(shown.grabTarget - view.eye, normal) / along);
        if (glm::length(target - lastTarget_) > 1e-5f) {
          sim.submit(Command::grabMove(target));
          lastTarget_ = target;
        }
      }
    }
    if (!ui.grabMode && ImGui::IsMouseClicked(ImGuiMouseButton_Left) && haveSnapshot) {
      throwTool.press(shown.frame, view.eye, view.rayDirection(ndcX, ndcY, aspect), ui.throwing.radius,
                      float(x) * scale, float(y) * scale);
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
  if (grabbing_ && !ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
    sim.submit(Command::release());
    grabbing_ = false;
  }
  if (!io.WantCaptureKeyboard) {
    if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_Z)) {
      if (io.KeyShift)
        ui::redoEdit(ui);
      else
        ui::undoEdit(ui);
    }
    if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_Y)) ui::redoEdit(ui);
    if (io.KeyCtrl) return;  // Ctrl+S and the like are not the plain keys below
    if (ImGui::IsKeyPressed(GLFW_KEY_G)) ui.grabMode = !ui.grabMode;
    if (ImGui::IsKeyPressed(GLFW_KEY_SPACE)) {
      ui.player.stop();
      sim.setPaused(!shown.paused);
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_S)) sim.stepOnce();
    if (ImGui::IsKeyPressed(GLFW_KEY_R)) sim.submit(Command::reset());
    if (ImGui::IsKeyPressed(GLFW_KEY_B)) sim.rollBack();  // after a divergence (SimThread::rollBack)
    if (ImGui::IsKeyPressed(GLFW_KEY_H)) ui.showHelp = !ui.showHelp;
    if (ImGui::IsKeyPressed(GLFW_KEY_F12)) ui.screenshotRequested = true;
  }
}

}  // namespace frac
