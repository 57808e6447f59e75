#pragma once
// Which execution backends this build and this machine can use.
#include <string>

namespace frac {

// True when the build has CUDA and a device is usable; otherwise false with the reason in `why`.
bool cudaBackendAvailable(std::string* why);

}  // namespace frac
