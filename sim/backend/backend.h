#pragma once
// Which execution backends this build and this machine can use, and the user's choice among them.
#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "core/enum_names.h"

namespace frac {

enum class Backend { Auto, Cpu, Cuda };
// Their names: the registry's solver.backend choices, parseBackend and backendName.
inline constexpr EnumName<Backend> kBackendNames[] = {{"auto", Backend::Auto}, {"cpu", Backend::Cpu},
                                                      {"cuda", Backend::Cuda}};

// A name of kBackendNames; nullopt for anything else.
std::optional<Backend> parseBackend(const std::string& name);
const char* backendName(Backend backend);

// True when the build has CUDA and a device is usable; otherwise false with the reason in `why`.
bool cudaBackendAvailable(std::string* why);
// Name of the CUDA device the backend uses (device 0), e.g. "NVIDIA H100 80GB HBM3"; "" when none.
std::string cudaDeviceName();
// The device's free memory (cudaMemGetInfo), bytes; 0 when there is no usable device or the build has no CUDA.
double cudaFreeMemoryBytes();
// Its UUID (the one Vulkan reports as VkPhysicalDeviceIDProperties::deviceUUID); zeros when none.
std::array<uint8_t, 16> cudaDeviceUuid();

}  // namespace frac
