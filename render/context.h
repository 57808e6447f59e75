#pragma once
// Vulkan instance, device and graphics queue. Prefers a discrete GPU, then integrated, then anything else (Mesa's
// lavapipe is the CPU fallback the tests run on). With validation on, the Khronos validation layer reports through a
// debug messenger that prints each message and counts it (tests assert the count stays zero).
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

namespace frac::render {

struct ContextOptions {
  bool validation = false;
  std::vector<std::string> instanceExtensions;  // e.g. what GLFW needs for a window surface
  bool swapchain = false;                       // enable VK_KHR_swapchain on the device
  std::string preferDevice;                     // substring of the device name to prefer ("" = by type)
};

class Context {
 public:
  explicit Context(const ContextOptions& options = {});
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  VkInstance instance() const { return instance_; }
  VkPhysicalDevice physicalDevice() const { return physical_; }
  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  uint32_t queueFamily() const { return queueFamily_; }
  VkCommandPool commandPool() const { return pool_; }
  const std::string& deviceName() const { return deviceName_; }
  // VkPhysicalDeviceIDProperties::deviceUUID (CUDA reports the same UUID for the same GPU).
  std::array<uint8_t, 16> deviceUuid() const;
  bool isCpuDevice() const { return cpuDevice_; }
  // VK_KHR_external_memory_fd is enabled: buffers can share memory with CUDA (render/gpu_memory.h ExternalMemoryFd).
  bool supportsExternalMemoryFd() const { return externalMemoryFd_; }
  // VK_KHR_external_semaphore_fd and timeline semaphores are enabled: CUDA can signal a semaphore Vulkan waits on.
  bool supportsExternalTimelineSemaphore() const { return externalSemaphoreFd_ && timelineSemaphore_; }
  bool validationEnabled() const { return messenger_ != VK_NULL_HANDLE; }
  // Warnings and errors reported by the validation layer so far.
  int validationMessages() const { return validationMessages_.load(); }

  // Records commands into a one-time command buffer, submits it and waits for it.
  void submitAndWait(const std::function<void(VkCommandBuffer)>& record) const;
  uint32_t memoryType(uint32_t typeBits, VkMemoryPropertyFlags properties) const;

 private:
  static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                  VkDebugUtilsMessageTypeFlagsEXT type,
                                                  const VkDebugUtilsMessengerCallbackDataEXT* data, void* self);
  void createInstance(const ContextOptions& options);
  void pickDevice(const ContextOptions& options);
  void createDevice(const ContextOptions& options);

  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queueFamily_ = 0;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  std::string deviceName_;
  bool externalMemoryFd_ = false;
  bool externalSemaphoreFd_ = false, timelineSemaphore_ = false;
  bool cpuDevice_ = false;
  VkPhysicalDeviceMemoryProperties memory_{};
  std::atomic<int> validationMessages_{0};
};

}  // namespace frac::render
