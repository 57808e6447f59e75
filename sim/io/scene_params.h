#pragma once
// The scene structs and the registry: which group describes each struct, structs with the registry's defaults,
// reading a validated object into a struct through the bindings, and live edits.
#include <nlohmann/json.hpp>

#include "core/params.h"
#include "io/scene_desc.h"

namespace frac {

// The registry group that describes a scene struct.
template <class T>
inline constexpr const char* kGroupOf = nullptr;
template <> inline constexpr const char* kGroupOf<SceneDesc> = "scene";
template <> inline constexpr const char* kGroupOf<SolverDesc> = "solver";
template <> inline constexpr const char* kGroupOf<MaterialDesc> = "material";
template <> inline constexpr const char* kGroupOf<BodyDesc> = "body";
template <> inline constexpr const char* kGroupOf<KinematicDesc> = "kinematic";
template <> inline constexpr const char* kGroupOf<ShapeDesc> = "shape";
template <> inline constexpr const char* kGroupOf<ProjectileDesc> = "projectile";
template <> inline constexpr const char* kGroupOf<CrackDesc> = "crack";
template <> inline constexpr const char* kGroupOf<PlaneDesc> = "plane";
template <> inline constexpr const char* kGroupOf<ProbeDesc> = "probe";
template <> inline constexpr const char* kGroupOf<CameraDesc> = "camera";

// Reads every bound key of T's group that `object` has (a validated object; other members stay as they are).
template <class T>
void readBound(const nlohmann::json& object, T& out) {
  static_assert(kGroupOf<T> != nullptr, "not a scene struct");
  for (const ParamSpec& spec : paramGroup(kGroupOf<T>).params) {
    const auto value = object.find(spec.key);
    if (spec.binding && value != object.end()) spec.binding.readInto(out, *value);
  }
}

// T with the defaults of its group's bound keys; keys without one (required ones) stay value-initialised.
template <class T>
T boundDefaults() {
  static_assert(kGroupOf<T> != nullptr, "not a scene struct");
  T out{};
  for (const ParamSpec& spec : paramGroup(kGroupOf<T>).params)
    if (spec.binding && !spec.defaultValue.is_null()) spec.binding.readInto(out, spec.defaultValue);
  return out;
}

// What a scene struct is before a file sets anything: the registry's defaults. A SceneDesc also gets its solver's
// and its camera's (its lists stay empty); a body's shape is required and stays value-initialised.
template <class T>
T defaultsOf() {
  return boundDefaults<T>();
}
template <>
SceneDesc defaultsOf<SceneDesc>();

// A live edit of a running scene: copies every live-editable key of the scene, its solver and its materials
// (matched by index) from `fresh` to `current`.
void copyLiveSettings(const SceneDesc& fresh, SceneDesc& current);

}  // namespace frac
