#include "gpu_memory.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "context.h"
#include "vk_check.h"

namespace frac::render {

namespace {

VkDeviceMemory allocate(const Context& context, const VkMemoryRequirements& req, VkMemoryPropertyFlags properties,
                        const void* next = nullptr) {
  VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  info.pNext = next;
  info.allocationSize = req.size;
  info.memoryTypeIndex = context.memoryType(req.memoryTypeBits, properties);
  VkDeviceMemory memory;
  FRAC_VK(vkAllocateMemory(context.device(), &info, nullptr, &memory));
  return memory;
}

}  // namespace

Buffer::Buffer(const Context& context, VkDeviceSize size, VkBufferUsageFlags usage, bool hostVisible,
               const ExternalMemoryFd& external)
    : device_(context.device()), size_(size) {
  const bool shared = external.exportable || external.importFd >= 0;
  if (shared && !context.supportsExternalMemoryFd())
    throw std::runtime_error("Vulkan: " + context.deviceName() + " has no VK_KHR_external_memory_fd");
  VkExternalMemoryBufferCreateInfo externalInfo{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
  externalInfo.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.pNext = shared ? &externalInfo : nullptr;
  info.size = size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  FRAC_VK(vkCreateBuffer(device_, &info, nullptr, &buffer_));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device_, buffer_, &req);
  VkExportMemoryAllocateInfo exportInfo{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
  exportInfo.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkImportMemoryFdInfoKHR importInfo{VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR};
  importInfo.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  importInfo.fd = external.importFd;
  const void* next = external.importFd >= 0 ? static_cast<const void*>(&importInfo)
                     : external.exportable  ? static_cast<const void*>(&exportInfo)
                                            : nullptr;
  allocationSize_ = req.size;
  memory_ = allocate(context, req,
                     hostVisible ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                                 : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                     next);
  if (external.exportable)
    getMemoryFd_ = reinterpret_cast<PFN_vkGetMemoryFdKHR>(vkGetDeviceProcAddr(device_, "vkGetMemoryFdKHR"));
  FRAC_VK(vkBindBufferMemory(device_, buffer_, memory_, 0));
  if (hostVisible) FRAC_VK(vkMapMemory(device_, memory_, 0, VK_WHOLE_SIZE, 0, &mapped_));
}

int Buffer::exportFd() const {
  if (!getMemoryFd_) throw std::logic_error("Buffer::exportFd: the buffer was not made exportable");
  VkMemoryGetFdInfoKHR info{VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
  info.memory = memory_;
  info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  int fd = -1;
  FRAC_VK(getMemoryFd_(device_, &info, &fd));
  return fd;
}

void fitHostBuffer(const Context& context, Buffer& buffer, VkDeviceSize bytes, VkBufferUsageFlags usage) {
  const VkDeviceSize wanted = std::max<VkDeviceSize>(bytes + bytes / 4, 4096);
  if (buffer && buffer.size() >= bytes && buffer.size() <= 4 * wanted) return;
  buffer = Buffer(context, wanted, usage, true);
}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    release();
    device_ = std::exchange(other.device_, VK_NULL_HANDLE);
    buffer_ = std::exchange(other.buffer_, VK_NULL_HANDLE);
    memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
    size_ = std::exchange(other.size_, 0);
    allocationSize_ = std::exchange(other.allocationSize_, 0);
    mapped_ = std::exchange(other.mapped_, nullptr);
    getMemoryFd_ = std::exchange(other.getMemoryFd_, nullptr);
  }
  return *this;
}

void Buffer::release() {
  if (!device_) return;
  if (buffer_) vkDestroyBuffer(device_, buffer_, nullptr);
  if (memory_) vkFreeMemory(device_, memory_, nullptr);  // unmaps implicitly
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
  mapped_ = nullptr;
}

Image::Image(const Context& context, uint32_t width, uint32_t height, VkFormat format, VkImageUsageFlags usage,
             VkImageAspectFlags aspect)
    : device_(context.device()), format_(format) {
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = format;
  info.extent = {width, height, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = usage;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  FRAC_VK(vkCreateImage(device_, &info, nullptr, &image_));
  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(device_, image_, &req);
  memory_ = allocate(context, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  FRAC_VK(vkBindImageMemory(device_, image_, memory_, 0));
  VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view.image = image_;
  view.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view.format = format;
  view.subresourceRange = {aspect, 0, 1, 0, 1};
  FRAC_VK(vkCreateImageView(device_, &view, nullptr, &view_));
}

Image& Image::operator=(Image&& other) noexcept {
  if (this != &other) {
    release();
    device_ = std::exchange(other.device_, VK_NULL_HANDLE);
    image_ = std::exchange(other.image_, VK_NULL_HANDLE);
    view_ = std::exchange(other.view_, VK_NULL_HANDLE);
    memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
    format_ = other.format_;
  }
  return *this;
}

void Image::release() {
  if (!device_) return;
  if (view_) vkDestroyImageView(device_, view_, nullptr);
  if (image_) vkDestroyImage(device_, image_, nullptr);
  if (memory_) vkFreeMemory(device_, memory_, nullptr);
  view_ = VK_NULL_HANDLE;
  image_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
}

}  // namespace frac::render
