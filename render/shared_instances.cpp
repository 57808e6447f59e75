#include "shared_instances.h"

#include <stdexcept>

#include "context.h"
#include "vk_check.h"

namespace frac::render {

namespace {
constexpr VkBufferUsageFlags kUsage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
}  // namespace

bool SharedInstanceRing::supported(const Context& context, std::string* why) {
  std::string reason;
  if (!context.supportsExternalMemoryFd())
    reason = context.deviceName() + " has no VK_KHR_external_memory_fd";
  else if (!context.supportsExternalTimelineSemaphore())
    reason = context.deviceName() + " has no VK_KHR_external_semaphore_fd with timeline semaphores";
  if (reason.empty()) {  // the extensions are there: can these very objects be exported as opaque fds?
    VkPhysicalDeviceExternalBufferInfo bufferInfo{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO};
    bufferInfo.usage = kUsage;
    bufferInfo.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkExternalBufferProperties buffer{VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
    vkGetPhysicalDeviceExternalBufferProperties(context.physicalDevice(), &bufferInfo, &buffer);
    VkSemaphoreTypeCreateInfo timeline{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    timeline.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    VkPhysicalDeviceExternalSemaphoreInfo semaphoreInfo{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO};
    semaphoreInfo.pNext = &timeline;
    semaphoreInfo.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkExternalSemaphoreProperties semaphore{VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES};
    vkGetPhysicalDeviceExternalSemaphoreProperties(context.physicalDevice(), &semaphoreInfo, &semaphore);
    const VkExternalMemoryFeatureFlags memory = buffer.externalMemoryProperties.externalMemoryFeatures;
    if (!(memory & VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT))
      reason = context.deviceName() + " cannot export vertex buffer memory as an opaque fd";
    else if (memory & VK_EXTERNAL_MEMORY_FEATURE_DEDICATED_ONLY_BIT)  // the ring allocates without a dedication
      reason = context.deviceName() + " exports vertex buffer memory only as dedicated allocations";
    else if (!(semaphore.externalSemaphoreFeatures & VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT))
      reason = context.deviceName() + " cannot export a timeline semaphore as an opaque fd";
  }
  if (why) *why = reason;
  return reason.empty();
}

SharedInstanceRing::SharedInstanceRing(const Context& context, int capacity, int slots)
    : context_(context), capacity_(capacity) {
  std::string why;
  if (!supported(context, &why)) throw std::runtime_error("Vulkan: " + why);
  if (capacity <= 0 || slots <= 0) throw std::invalid_argument("SharedInstanceRing: capacity and slots must be > 0");
  ExternalMemoryFd exportable;
  exportable.exportable = true;
  for (int k = 0; k < slots; ++k)
    buffers_.emplace_back(context, bytesPerSlot(), kUsage, false, exportable);
  VkSemaphoreTypeCreateInfo timeline{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  timeline.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  timeline.initialValue = 0;
  VkExportSemaphoreCreateInfo exportInfo{VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO};
  exportInfo.handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  exportInfo.pNext = &timeline;
  VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  info.pNext = &exportInfo;
  FRAC_VK(vkCreateSemaphore(context.device(), &info, nullptr, &semaphore_));
}

SharedInstanceRing::~SharedInstanceRing() {
  vkDeviceWaitIdle(context_.device());
  vkDestroySemaphore(context_.device(), semaphore_, nullptr);
}

unsigned long long SharedInstanceRing::semaphoreValue() const {
  uint64_t value = 0;
  FRAC_VK(vkGetSemaphoreCounterValue(context_.device(), semaphore_, &value));
  return value;
}

int SharedInstanceRing::exportSemaphoreFd() const {
  auto getFd = reinterpret_cast<PFN_vkGetSemaphoreFdKHR>(vkGetDeviceProcAddr(context_.device(), "vkGetSemaphoreFdKHR"));
  if (!getFd) throw std::runtime_error("Vulkan: vkGetSemaphoreFdKHR is missing");
  VkSemaphoreGetFdInfoKHR info{VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR};
  info.semaphore = semaphore_;
  info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  int fd = -1;
  FRAC_VK(getFd(context_.device(), &info, &fd));
  return fd;
}

}  // namespace frac::render
