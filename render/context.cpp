#include "context.h"

#include <algorithm>
#include <iterator>

#include <cstring>
#include <iostream>

#include "vk_check.h"

namespace frac::render {

namespace {

bool hasLayer(const char* name) {
  uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  for (const VkLayerProperties& l : layers)
    if (std::strcmp(l.layerName, name) == 0) return true;
  return false;
}

int typeRank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
  }
}

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

}  // namespace

Context::Context(const ContextOptions& options) {
  createInstance(options);
  pickDevice(options);
  createDevice(options);
}

Context::~Context() {
  if (device_) {
    vkDeviceWaitIdle(device_);
    vkDestroyCommandPool(device_, pool_, nullptr);
    vkDestroyDevice(device_, nullptr);
  }
  if (messenger_) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy) destroy(instance_, messenger_, nullptr);
  }
  if (instance_) vkDestroyInstance(instance_, nullptr);
}

VKAPI_ATTR VkBool32 VKAPI_CALL Context::onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                  VkDebugUtilsMessageTypeFlagsEXT,
                                                  const VkDebugUtilsMessengerCallbackDataEXT* data, void* self) {
  if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    static_cast<Context*>(self)->validationMessages_++;
    std::cerr << "vulkan validation: " << (data && data->pMessage ? data->pMessage : "(no text)") << "\n";
  }
  return VK_FALSE;
}

void Context::createInstance(const ContextOptions& options) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "fracture-sandbox";
  app.pEngineName = "frac_render";
  app.apiVersion = VK_API_VERSION_1_2;
  std::vector<const char*> extensions;
  for (const std::string& e : options.instanceExtensions) extensions.push_back(e.c_str());
  std::vector<const char*> layers;
  const bool validation = options.validation && hasLayer(kValidationLayer);
  if (options.validation && !validation)
    std::cerr << "note: validation requested but " << kValidationLayer
              << " is not installed (Debian: vulkan-validationlayers)\n";
  if (validation) {
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  }
  VkDebugUtilsMessengerCreateInfoEXT messenger{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messenger.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger.pfnUserCallback = &Context::onMessage;
  messenger.pUserData = this;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  info.enabledExtensionCount = uint32_t(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  info.enabledLayerCount = uint32_t(layers.size());
  info.ppEnabledLayerNames = layers.data();
  if (validation) info.pNext = &messenger;  // also covers instance creation and destruction
  FRAC_VK(vkCreateInstance(&info, nullptr, &instance_));
  if (validation) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
    if (create) FRAC_VK(create(instance_, &messenger, nullptr, &messenger_));
  }
}

void Context::pickDevice(const ContextOptions& options) {
  uint32_t count = 0;
  FRAC_VK(vkEnumeratePhysicalDevices(instance_, &count, nullptr));
  std::vector<VkPhysicalDevice> devices(count);
  FRAC_VK(vkEnumeratePhysicalDevices(instance_, &count, devices.data()));
  int best = 1 << 30;
  for (VkPhysicalDevice d : devices) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(d, &props);
    if (props.apiVersion < VK_API_VERSION_1_2) continue;
    uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(d, &families, nullptr);
    std::vector<VkQueueFamilyProperties> fams(families);
    vkGetPhysicalDeviceQueueFamilyProperties(d, &families, fams.data());
    int family = -1;
    for (uint32_t f = 0; f < families; ++f)
      if (fams[f].queueFlags & VK_QUEUE_GRAPHICS_BIT) {
        family = int(f);
        break;
      }
    if (family < 0) continue;
    int rank = typeRank(props.deviceType);
    if (!options.preferDevice.empty() && std::string(props.deviceName).find(options.preferDevice) != std::string::npos)
      rank = -1;
    if (rank < best) {
      best = rank;
      physical_ = d;
      queueFamily_ = uint32_t(family);
      deviceName_ = props.deviceName;
      cpuDevice_ = props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    }
  }
  if (!physical_)
    throw RenderError("no Vulkan 1.2 device with a graphics queue (on a machine without a GPU install "
                      "mesa-vulkan-drivers for the lavapipe CPU driver)");
  vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);
}

void Context::createDevice(const ContextOptions& options) {
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueFamilyIndex = queueFamily_;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  std::vector<const char*> extensions;
  if (options.swapchain) extensions.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
  // External memory (sharing buffers with CUDA) where the device has it; Vulkan 1.1 core holds the base extension.
  uint32_t available = 0;
  vkEnumerateDeviceExtensionProperties(physical_, nullptr, &available, nullptr);
  std::vector<VkExtensionProperties> properties(available);
  vkEnumerateDeviceExtensionProperties(physical_, nullptr, &available, properties.data());
  for (const VkExtensionProperties& p : properties) {
    if (std::string(p.extensionName) == VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME) externalMemoryFd_ = true;
    if (std::string(p.extensionName) == VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME) externalSemaphoreFd_ = true;
  }
  if (externalMemoryFd_) extensions.push_back(VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME);
  if (externalSemaphoreFd_) extensions.push_back(VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME);
  VkPhysicalDeviceFeatures features{};
  VkPhysicalDeviceFeatures availableFeatures{};
  vkGetPhysicalDeviceFeatures(physical_, &availableFeatures);
  features.wideLines = availableFeatures.wideLines;
  // Timeline semaphores (Vulkan 1.2 core): CUDA signals one when the instances it wrote are ready (interop).
  VkPhysicalDeviceVulkan12Features available12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceFeatures2 available2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  available2.pNext = &available12;
  vkGetPhysicalDeviceFeatures2(physical_, &available2);
  timelineSemaphore_ = available12.timelineSemaphore == VK_TRUE;
  VkPhysicalDeviceVulkan12Features enabled12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  enabled12.timelineSemaphore = available12.timelineSemaphore;
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.pNext = &enabled12;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue;
  info.enabledExtensionCount = uint32_t(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  info.pEnabledFeatures = &features;
  FRAC_VK(vkCreateDevice(physical_, &info, nullptr, &device_));
  vkGetDeviceQueue(device_, queueFamily_, 0, &queue_);
  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool.queueFamilyIndex = queueFamily_;
  FRAC_VK(vkCreateCommandPool(device_, &pool, nullptr, &pool_));
}

std::array<uint8_t, 16> Context::deviceUuid() const {
  VkPhysicalDeviceIDProperties id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
  VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  properties.pNext = &id;
  vkGetPhysicalDeviceProperties2(physical_, &properties);
  std::array<uint8_t, 16> uuid{};
  std::copy(std::begin(id.deviceUUID), std::end(id.deviceUUID), uuid.begin());
  return uuid;
}

void Context::submitAndWait(const std::function<void(VkCommandBuffer)>& record) const {
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = pool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cmd;
  FRAC_VK(vkAllocateCommandBuffers(device_, &alloc, &cmd));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  FRAC_VK(vkBeginCommandBuffer(cmd, &begin));
  record(cmd);
  FRAC_VK(vkEndCommandBuffer(cmd));
  VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  FRAC_VK(vkCreateFence(device_, &fenceInfo, nullptr, &fence));
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  const VkResult r = vkQueueSubmit(queue_, 1, &submit, fence);
  if (r == VK_SUCCESS) vkWaitForFences(device_, 1, &fence, VK_TRUE, UINT64_MAX);
  vkDestroyFence(device_, fence, nullptr);
  vkFreeCommandBuffers(device_, pool_, 1, &cmd);
  check(r, "vkQueueSubmit");
}

uint32_t Context::memoryType(uint32_t typeBits, VkMemoryPropertyFlags properties) const {
  for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i)
    if ((typeBits & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & properties) == properties) return i;
  throw RenderError("no Vulkan memory type with the requested properties");
}

}  // namespace frac::render
