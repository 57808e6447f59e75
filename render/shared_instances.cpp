#include "shared_instances.h"

#include <stdexcept>

#include "context.h"
#include "vk_check.h"

namespace frac::render {

bool SharedInstanceRing::supported(const Context& context, std::string* why) {
  std::string reason;
  if (!context.supportsExternalMemoryFd())
    reason = context.deviceName() + " has no VK_KHR_external_memory_fd";
  else if (!context.supportsExternalTimelineSemaphore())
    reason = context.deviceName() + " has no VK_KHR_external_semaphore_fd with timeline semaphores";
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
    buffers_.emplace_back(context, bytesPerSlot(), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                          false, exportable);
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
