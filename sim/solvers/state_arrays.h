#pragma once
// A solver's arrays, named once. Each method lists its arrays in X-macros, one line per array:
//
//   X(type, name, travel, digest)   e.g.   X(vec3, position, State, true)
//
// and that one line gives the array its host storage (std::vector in the method's *Arrays struct), its pointer in the
// plain view the stages run on (the *View struct, the same on host and device), its upload and download between the
// host and a CUDA device (backend/cuda/device_arrays.cuh), and its place in the state digest. Adding an array to a
// solver is adding its line; a view field without a line cannot exist.
//
// `type` is the view's element type (const for arrays the stages only read); `travel` says how it crosses between
// host and device; `digest` whether Solver::stateDigest hashes it (in list order: equal digests = equal states).
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/state_digest.h"

namespace frac {

enum class Travel : uint8_t {
  Constant,  // set on the host (building, live edits) and uploaded with the state; steps only read it
  State,     // changed by steps: uploaded with the state, downloaded when the host reads it
  Input,     // set on the host before every step (kinematic poses, projectiles): uploaded before each device step
  Scratch,   // work space a step fills before reading: allocated on the device at its host size, never copied
  HostOnly,  // the CPU's own (its Verlet list); a device builds its own and leaves the view's pointer to it
};

// What the visitor learns of an array besides its storage, as constants (a device mirror's copies are chosen at
// compile time: an array the stages only read has a const view pointer and is never written back).
template <Travel kTravel, bool kDigest>
struct ArrayTag {
  static constexpr Travel travel = kTravel;
  static constexpr bool digest = kDigest;
  const char* name;
  const char* group;  // the struct it belongs to: "elements" (one entry per element: nodes, particles), "bonds", ...
};

}  // namespace frac

// The host storage of one listed array, and its view pointer.
#define FRAC_ARRAY_HOST_MEMBER(type, name, travel, digest) std::vector<std::remove_const_t<type>> name;
#define FRAC_ARRAY_VIEW_MEMBER(type, name, travel, digest) type* name = nullptr;
// One call of the visitor `f(hostVector, viewPointer, info)` (see forEachArray below); `arrayGroup` names the group
// in the scope where the list is visited.
#define FRAC_ARRAY_VISIT(type, name, travel, digest) \
  f(host.name, view.name, ::frac::ArrayTag<::frac::Travel::travel, digest>{#name, arrayGroup});

// forEachArray(host, view, f) for one group called GROUP: f(std::vector<T>& host, T*& view, ArrayTag) for each line
// of LIST, in order. A method's top-level forEachArray calls those of its groups.
#define FRAC_ARRAY_GROUP_VISITOR(HostType, ViewType, GROUP, LIST)   \
  template <class F>                                               \
  void forEachArray(HostType& host, ViewType& view, F&& f) {       \
    [[maybe_unused]] constexpr const char* arrayGroup = GROUP;     \
    LIST(FRAC_ARRAY_VISIT)                                         \
  }

namespace frac {

// Points every view pointer at its host vector (null for an empty one). The scalar fields (counts, parameters) are
// the caller's.
template <class Host, class Views>
void bindHostArrays(Host& host, Views& views) {
  forEachArray(host, views, [](auto& vector, auto*& pointer, const auto&) {
    pointer = vector.empty() ? nullptr : vector.data();
  });
}

// The digest of the arrays marked for it, in list order.
template <class Host, class Views>
uint64_t digestArrays(Host& host) {
  Views unused;
  StateDigest digest;
  forEachArray(host, unused, [&](auto& vector, auto*&, const auto& tag) {
    if constexpr (std::decay_t<decltype(tag)>::digest) digest.add(vector);
  });
  return digest.value();
}

}  // namespace frac
