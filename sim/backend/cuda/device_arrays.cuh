#pragma once
// Moving a solver's listed arrays (solvers/state_arrays.h) between the host and a CUDA device: the list says, per
// array, whether it is uploaded, downloaded, sent before each step or only allocated, so a device mirror names no
// array itself.
#include <type_traits>

#include "backend/cuda/device_arena.cuh"
#include "solvers/state_arrays.h"

namespace frac {

// Device copies of every listed array in `arena` (storage only for Scratch ones), `device`'s pointers set to them;
// HostOnly pointers are nulled for the device to set its own. `device` starts as a copy of the host views (scalars by
// value).
template <class Host, class Views>
void uploadArrays(DeviceArena& arena, Host& host, Views& device) {
  forEachArray(host, device, [&](auto& vector, auto*& pointer, const auto& tag) {
    using T = typename std::remove_reference_t<decltype(vector)>::value_type;
    constexpr Travel travel = std::decay_t<decltype(tag)>::travel;
    if constexpr (travel == Travel::Scratch) pointer = arena.allocate<T>(vector.size());
    else if constexpr (travel == Travel::HostOnly) pointer = nullptr;
    else pointer = arena.copyOf(vector.data(), vector.size());
  });
}

// The State arrays back into the host vectors (sized as uploaded).
template <class Host, class Views>
void downloadArrays(Host& host, Views& device) {
  forEachArray(host, device, [&](auto& vector, auto*& pointer, const auto& tag) {
    if constexpr (std::decay_t<decltype(tag)>::travel == Travel::State) copyToHost(vector.data(), pointer, vector.size());
  });
}

// The Input arrays from the host, before a step.
template <class Host, class Views>
void uploadInputs(Host& host, Views& device) {
  forEachArray(host, device, [&](auto& vector, auto*& pointer, const auto& tag) {
    if constexpr (std::decay_t<decltype(tag)>::travel == Travel::Input) copyToDevice(pointer, vector.data(), vector.size());
  });
}

}  // namespace frac
