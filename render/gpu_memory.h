#pragma once
// The memory helper: one VkDeviceMemory per buffer or image (the renderer owns a handful of them), host-visible
// buffers stay mapped. Move-only owners that free what they hold.
#include <cstddef>

#include <vulkan/vulkan.h>

namespace frac::render {

class Context;

// A buffer's memory shared with another API (CUDA's cudaImportExternalMemory) or device through an opaque POSIX file
// descriptor (VK_KHR_external_memory_fd): `exportable` makes memory that exportFd() can hand out; importFd >= 0 makes
// the buffer use memory another side exported (Vulkan takes ownership of that descriptor).
struct ExternalMemoryFd {
  bool exportable = false;
  int importFd = -1;
};

class Buffer {
 public:
  Buffer() = default;
  // hostVisible: mapped, coherent memory the CPU writes directly; otherwise device-local. `external`: see
  // ExternalMemoryFd (needs Context::supportsExternalMemoryFd()).
  Buffer(const Context& context, VkDeviceSize size, VkBufferUsageFlags usage, bool hostVisible,
         const ExternalMemoryFd& external = {});
  // A new descriptor of this buffer's memory (the caller owns it); the buffer must have been made exportable.
  int exportFd() const;
  VkDeviceSize allocationSize() const { return allocationSize_; }
  ~Buffer() { release(); }
  Buffer(Buffer&& other) noexcept { *this = static_cast<Buffer&&>(other); }
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  VkBuffer handle() const { return buffer_; }
  VkDeviceSize size() const { return size_; }
  void* mapped() const { return mapped_; }
  explicit operator bool() const { return buffer_ != VK_NULL_HANDLE; }

 private:
  void release();
  VkDevice device_ = VK_NULL_HANDLE;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceSize size_ = 0;
  VkDeviceSize allocationSize_ = 0;
  void* mapped_ = nullptr;
  PFN_vkGetMemoryFdKHR getMemoryFd_ = nullptr;
};

// Makes the host-visible `buffer` hold `bytes`: a new one a quarter larger than that when it is too small (room to
// grow), or when it is more than four times what is needed, so that a large scene's buffers do not outlive it (the
// soak test's memory grew by each largest scene seen). Only for buffers no frame in flight still reads.
void fitHostBuffer(const Context& context, Buffer& buffer, VkDeviceSize bytes, VkBufferUsageFlags usage);

// The same rule for host staging vectors: their capacity follows what is needed, down as well as up.
template <class Vector>
void fitCapacity(Vector& v, size_t n) {
  if (v.capacity() > 4 * n + 4096) Vector(n).swap(v);  // "+ 4096": small ones are left alone
  v.resize(n);
}

class Image {
 public:
  Image() = default;
  Image(const Context& context, uint32_t width, uint32_t height, VkFormat format, VkImageUsageFlags usage,
        VkImageAspectFlags aspect);
  ~Image() { release(); }
  Image(Image&& other) noexcept { *this = static_cast<Image&&>(other); }
  Image& operator=(Image&& other) noexcept;
  Image(const Image&) = delete;
  Image& operator=(const Image&) = delete;

  VkImage handle() const { return image_; }
  VkImageView view() const { return view_; }
  VkFormat format() const { return format_; }

 private:
  void release();
  VkDevice device_ = VK_NULL_HANDLE;
  VkImage image_ = VK_NULL_HANDLE;
  VkImageView view_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkFormat format_ = VK_FORMAT_UNDEFINED;
};

}  // namespace frac::render
