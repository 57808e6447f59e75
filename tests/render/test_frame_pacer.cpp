// FramePacer on a real window swapchain (lavapipe under Xvfb), validation on: frames cycle through the slots in
// flight, a frame read back after waitUntilDone has its pixels, a submission waits for its timeline value, and a
// swapchain re-created for a resized window goes on at its new size. Without a display the case re-runs itself under
// xvfb-run (skipped when that is missing).
#include <doctest/doctest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>

#include "context.h"
#include "frame_pacer.h"
#include "gpu_memory.h"
#include "swapchain_target.h"
#include "vk_check.h"

using namespace frac::render;

namespace {

// No ',' in the name: doctest's --test-case filter splits at commas.
constexpr const char* kCaseName = "frame pacer on a window: slots in turn / read-back / timeline wait / re-creation";
constexpr const char* kUnderXvfb = "FRAC_FRAME_PACER_UNDER_XVFB";  // the re-run's marker file: written at the end

bool haveDisplay() {
  const char* display = std::getenv("DISPLAY");
  return display && *display;
}

// The pixel at (x, y) of a read-back swapchain image as RGB.
std::array<int, 3> pixelAt(const Buffer& buffer, const SwapchainTarget& target, uint32_t x, uint32_t y) {
  const uint8_t* p = static_cast<const uint8_t*>(buffer.mapped()) + (size_t(y) * target.extent().width + x) * 4;
  return target.isBgra() ? std::array<int, 3>{p[2], p[1], p[0]} : std::array<int, 3>{p[0], p[1], p[2]};
}

// Clears the acquired image (a colour whose gamma-2 encoding is (255, 128, 0)) and, when asked, copies it out.
void recordClear(const FramePacer::Frame& frame, const SwapchainTarget& target, const Buffer* readBack) {
  const float orange[3] = {1.0f, 0.25f, 0.0f};
  target.begin(frame.commands, frame.image, orange);
  target.end(frame.commands);
  if (readBack) target.copyToBuffer(frame.commands, frame.image, readBack->handle());
}

}  // namespace

TEST_CASE(kCaseName) {
  if (!haveDisplay()) {
    REQUIRE_MESSAGE(!std::getenv(kUnderXvfb), "xvfb-run gave no DISPLAY");
    if (std::system("command -v xvfb-run > /dev/null 2>&1") != 0) {
      MESSAGE("skipped: no display and xvfb-run is not installed (scripts/deps installs it)");
      return;
    }
    const std::filesystem::path marker = std::filesystem::temp_directory_path() /
                                                 ("frac_frame_pacer_ran_" + std::to_string(getpid()));
    std::filesystem::remove(marker);
    const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    const std::string command = std::string(kUnderXvfb) + "='" + marker.string() +
                                "' xvfb-run -a -s '-screen 0 1024x768x24' '" + self + "' --test-case='" + kCaseName +
                                "'";
    const int status = std::system(command.c_str());
    CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
    CHECK_MESSAGE(std::filesystem::exists(marker), "the re-run under xvfb-run did not run this case to its end");
    std::filesystem::remove(marker);
    return;
  }

  REQUIRE(glfwInit());
  glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
  GLFWwindow* window = glfwCreateWindow(320, 240, "frame pacer test", nullptr, nullptr);
  REQUIRE(window);
  ContextOptions options;
  options.validation = true;
  options.swapchain = true;
  uint32_t count = 0;
  const char** extensions = glfwGetRequiredInstanceExtensions(&count);
  REQUIRE(extensions);
  for (uint32_t i = 0; i < count; ++i) options.instanceExtensions.push_back(extensions[i]);
  {
    Context context(options);
    CHECK(context.validationEnabled());
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    FRAC_VK(glfwCreateWindowSurface(context.instance(), window, nullptr, &surface));
    {
      SwapchainTarget target(context, surface, 320, 240);
      FramePacer pacer(context, target, 2);
      CHECK(pacer.framesInFlight() == 2);
      auto readBackBuffer = [&] {
        const VkExtent2D e = target.extent();
        return Buffer(context, VkDeviceSize(e.width) * e.height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
      };
      Buffer readBack = readBackBuffer();

      // Frames take the slots in turn; the last is read back after waiting for it.
      for (int k = 0; k < 5; ++k) {
        FramePacer::Frame frame;
        REQUIRE(pacer.beginFrame(frame));
        CHECK(frame.slot == k % 2);
        CHECK(frame.commands != VK_NULL_HANDLE);
        CHECK(frame.image < target.imageCount());
        recordClear(frame, target, k == 4 ? &readBack : nullptr);
        pacer.submitAndPresent(frame);
        if (k == 4) pacer.waitUntilDone(frame);
      }
      const std::array<int, 3> cleared = pixelAt(readBack, target, 160, 120);
      CHECK(cleared[0] == 255);
      CHECK(std::abs(cleared[1] - 128) <= 1);
      CHECK(cleared[2] == 0);

      // A submission with a timeline wait finishes only after the semaphore reaches the value (signalled from the
      // host a little later, as CUDA would from its stream).
      VkSemaphoreTypeCreateInfo type{};
      type.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO;
      type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
      VkSemaphoreCreateInfo info{};
      info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
      info.pNext = &type;
      VkSemaphore timeline = VK_NULL_HANDLE;
      FRAC_VK(vkCreateSemaphore(context.device(), &info, nullptr, &timeline));
      {
        std::memset(readBack.mapped(), 0, size_t(readBack.size()));
        FramePacer::Frame frame;
        REQUIRE(pacer.beginFrame(frame));
        recordClear(frame, target, &readBack);
        std::atomic<bool> signalled{false};
        std::thread signaller([&] {
          std::this_thread::sleep_for(std::chrono::milliseconds(200));
          signalled = true;
          VkSemaphoreSignalInfo signal{};
          signal.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO;
          signal.semaphore = timeline;
          signal.value = 1;
          FRAC_VK(vkSignalSemaphore(context.device(), &signal));
        });
        pacer.submitAndPresent(frame, TimelineWait{timeline, 1});
        pacer.waitUntilDone(frame);
        CHECK(signalled.load());
        signaller.join();
        CHECK(pixelAt(readBack, target, 10, 10)[0] == 255);
      }

      // A resized window: where the driver says so (out of date at acquire, out of date or suboptimal at present) the
      // pacer reports the swapchain stale until it is re-created; lavapipe's X11 surface keeps presenting at the old
      // size and says nothing. Either way frames go on at the new size after re-creation.
      glfwSetWindowSize(window, 400, 300);
      int stale = -1;
      for (int k = 0; k < 8 && stale < 0; ++k) {
        glfwPollEvents();
        FramePacer::Frame frame;
        if (!pacer.beginFrame(frame)) {
          stale = k;
          break;
        }
        recordClear(frame, target, nullptr);
        pacer.submitAndPresent(frame);
      }
      if (stale >= 0) {
        MESSAGE("stale reported at frame " << stale);
        FramePacer::Frame frame;
        CHECK_FALSE(pacer.beginFrame(frame));  // still stale: nothing acquired until re-created
      } else {
        MESSAGE("this driver did not report the resized window's swapchain stale");
      }
      int w = 0, h = 0;
      glfwGetFramebufferSize(window, &w, &h);
      CHECK(w == 400);
      pacer.recreateSwapchain(uint32_t(w), uint32_t(h));
      CHECK(target.extent().width == 400);
      CHECK(target.extent().height == 300);
      readBack = readBackBuffer();
      for (int k = 0; k < 3; ++k) {
        FramePacer::Frame frame;
        REQUIRE(pacer.beginFrame(frame));
        recordClear(frame, target, k == 2 ? &readBack : nullptr);
        pacer.submitAndPresent(frame);
        if (k == 2) pacer.waitUntilDone(frame);
      }
      CHECK(pixelAt(readBack, target, 399, 299)[0] == 255);
      vkDeviceWaitIdle(context.device());
      vkDestroySemaphore(context.device(), timeline, nullptr);
    }
    vkDestroySurfaceKHR(context.instance(), surface, nullptr);
    CHECK(context.validationMessages() == 0);
  }
  glfwDestroyWindow(window);
  glfwTerminate();
  if (const char* marker = std::getenv(kUnderXvfb)) std::ofstream(marker) << "ran\n";
}
