#include "frame_pacer.h"

#include "context.h"
#include "swapchain_target.h"
#include "vk_check.h"

namespace frac::render {

FramePacer::FramePacer(const Context& context, SwapchainTarget& target, int framesInFlight)
    : context_(context), target_(target) {
  if (framesInFlight < 1) throw RenderError("FramePacer: at least one frame in flight");
  slots_.resize(size_t(framesInFlight));
  for (Slot& s : slots_) {
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = context.commandPool();
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    FRAC_VK(vkAllocateCommandBuffers(context.device(), &alloc, &s.commands));
    VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    fence.flags = VK_FENCE_CREATE_SIGNALED_BIT;  // the first wait of each slot returns at once
    FRAC_VK(vkCreateFence(context.device(), &fence, nullptr, &s.done));
    VkSemaphoreCreateInfo semaphore{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    FRAC_VK(vkCreateSemaphore(context.device(), &semaphore, nullptr, &s.imageAvailable));
  }
  createRenderDone();
}

FramePacer::~FramePacer() {
  VkDevice device = context_.device();
  vkDeviceWaitIdle(device);
  for (Slot& s : slots_) {
    vkDestroyFence(device, s.done, nullptr);
    vkDestroySemaphore(device, s.imageAvailable, nullptr);
    vkFreeCommandBuffers(device, context_.commandPool(), 1, &s.commands);
  }
  destroyRenderDone();
}

void FramePacer::createRenderDone() {
  destroyRenderDone();
  renderDone_.assign(target_.imageCount(), VK_NULL_HANDLE);
  for (VkSemaphore& s : renderDone_) {
    VkSemaphoreCreateInfo semaphore{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    FRAC_VK(vkCreateSemaphore(context_.device(), &semaphore, nullptr, &s));
  }
}

void FramePacer::destroyRenderDone() {
  for (VkSemaphore s : renderDone_) vkDestroySemaphore(context_.device(), s, nullptr);
  renderDone_.clear();
}

bool FramePacer::beginFrame(Frame& frame) {
  const Slot& s = slots_[size_t(next_)];
  frame = Frame{};
  frame.slot = next_;
  FRAC_VK(vkWaitForFences(context_.device(), 1, &s.done, VK_TRUE, UINT64_MAX));
  if (stale_ || !target_.acquire(s.imageAvailable, frame.image)) return false;
  FRAC_VK(vkResetCommandBuffer(s.commands, 0));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  FRAC_VK(vkBeginCommandBuffer(s.commands, &begin));
  frame.commands = s.commands;
  return true;
}

void FramePacer::submitAndPresent(const Frame& frame, const TimelineWait& wait) {
  if (wait.value && !wait.semaphore) throw RenderError("FramePacer: a timeline wait value without its semaphore");
  const Slot& s = slots_.at(size_t(frame.slot));
  FRAC_VK(vkEndCommandBuffer(s.commands));
  FRAC_VK(vkResetFences(context_.device(), 1, &s.done));
  const VkSemaphore waitFor[2] = {s.imageAvailable, wait.semaphore};
  const VkPipelineStageFlags waitStages[2] = {VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                              VK_PIPELINE_STAGE_VERTEX_INPUT_BIT};
  const uint64_t waitValues[2] = {0, wait.value};  // the binary semaphore's value is ignored
  VkTimelineSemaphoreSubmitInfo timeline{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
  timeline.waitSemaphoreValueCount = 2;
  timeline.pWaitSemaphoreValues = waitValues;
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.pNext = wait.value ? &timeline : nullptr;
  submit.waitSemaphoreCount = wait.value ? 2 : 1;
  submit.pWaitSemaphores = waitFor;
  submit.pWaitDstStageMask = waitStages;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &s.commands;
  submit.signalSemaphoreCount = 1;
  submit.pSignalSemaphores = &renderDone_.at(frame.image);
  FRAC_VK(vkQueueSubmit(context_.queue(), 1, &submit, s.done));
  if (!target_.present(renderDone_[frame.image], frame.image)) stale_ = true;
  next_ = (frame.slot + 1) % framesInFlight();
}

void FramePacer::waitUntilDone(const Frame& frame) const {
  FRAC_VK(vkWaitForFences(context_.device(), 1, &slots_.at(size_t(frame.slot)).done, VK_TRUE, UINT64_MAX));
}

void FramePacer::recreateSwapchain(uint32_t width, uint32_t height) {
  target_.recreate(width, height);
  createRenderDone();
  stale_ = false;
}

}  // namespace frac::render
