#pragma once
// Vulkan error handling: every failing call becomes a RenderError that names the call and the VkResult.
#include <stdexcept>
#include <string>

#include <vulkan/vulkan.h>

namespace frac::render {

class RenderError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

const char* resultName(VkResult result);

inline void check(VkResult result, const char* call) {
  if (result != VK_SUCCESS) throw RenderError(std::string(call) + " failed: " + resultName(result));
}

}  // namespace frac::render

#define FRAC_VK(call) ::frac::render::check((call), #call)
