#pragma once
// The parameter registry: every user-facing scene parameter declared once (name, unit, range, default,
// description, the struct member that holds it). It drives JSON validation and defaults, reading scenes into
// their structs (io/scene_loader), live edits, `--set` overrides, the UI widgets and the replay log. Groups mirror
// the objects of a scene file ("scene" is the top level). The tables are in io/scene_params.cpp.
#include <functional>
#include <string>
#include <string_view>
#include <typeinfo>
#include <vector>

#include <nlohmann/json.hpp>

namespace frac {

enum class ParamType {
  Number,        // JSON number
  Integer,       // JSON number with an integral value
  Bool,
  String,
  Enum,          // one of `choices`
  Vec3,          // [x, y, z], each component in [min, max]
  NumberOrAuto,  // number, or the string "auto"
  NumberOrInf,   // number, or the string "inf" (unbounded)
  Profile,       // [[r, y], ...] with at least 3 points, 0 <= r <= max, |y| <= max
  Object,        // nested object described by group `group`
  Map,           // object: entry name -> object described by group `group`
  List,          // array of objects described by group `group`
};

// The member of a scene struct (`owner`) that holds a spec's value, type-erased (io/param_bind.h makes them).
// The typed calls check that the object is the owner type (std::logic_error otherwise).
struct ParamBinding {
  const std::type_info* owner = nullptr;  // null: unbound (nested objects, window settings)
  std::function<void(void* object, const nlohmann::json& value)> read;  // value: valid for the spec
  std::function<nlohmann::json(const void* object)> write;
  std::function<void(void* to, const void* from)> copy;

  explicit operator bool() const { return owner != nullptr; }
  template <class T>
  void readInto(T& object, const nlohmann::json& value) const {
    checkOwner(typeid(T));
    read(&object, value);
  }
  template <class T>
  nlohmann::json writeFrom(const T& object) const {
    checkOwner(typeid(T));
    return write(&object);
  }
  template <class T>
  void copyMember(const T& from, T& to) const {
    checkOwner(typeid(T));
    copy(&to, &from);
  }
  void checkOwner(const std::type_info& type) const;
};

struct ParamSpec {
  std::string key;
  ParamType type = ParamType::Number;
  std::string unit;                  // SI unit of numeric types; "1" = dimensionless; empty otherwise
  double min = 0.0, max = 0.0;       // allowed range of numeric types (per component for Vec3/Profile)
  bool minExclusive = false;         // range is (min, max] instead of [min, max]
  nlohmann::json defaultValue;       // null when required
  std::string description;           // one line, for docs, tooltips and errors
  std::vector<std::string> choices;  // Enum
  bool required = false;
  bool liveEditable = false;         // may change while a simulation runs (no rebuild), e.g. from the UI
  bool unitVector = false;           // Vec3: normalised on load; a zero vector is an error
  std::string group;                 // Object, Map, List: the group describing the nested objects
  std::vector<std::string> variants; // applies only to these values of the group's variantKey; empty = all
  std::vector<std::string> methods;  // solver methods that read it (the UI shows only those); empty = all
  ParamBinding binding;              // where a scene struct holds it
  bool appliesToMethod(std::string_view method) const {
    if (methods.empty()) return true;
    for (const std::string& m : methods)
      if (m == method) return true;
    return false;
  }
};

struct ParamGroup {
  std::string name;
  std::string description;
  std::vector<ParamSpec> params;
  std::string variantKey;  // e.g. "type" for shapes: selects which params apply (ParamSpec::variants)

  const ParamSpec* find(std::string_view key) const;
  std::vector<std::string> keys() const;
  bool appliesTo(const ParamSpec& spec, std::string_view variant) const;  // variant "" = unknown: true
};

// All groups, in a fixed order: scene, solver, material, body, kinematic, shape, projectile, crack, plane, probe,
// camera (the scene file), then render and throw (the window's settings). Defined in io/scene_params.cpp.
const std::vector<ParamGroup>& allParamGroups();
// Throws std::out_of_range for an unknown group name (a programming error, not a user error).
const ParamGroup& paramGroup(std::string_view name);

bool isNumericType(ParamType type);
const char* paramTypeName(ParamType type);

// Checks one value against a spec. Returns "" when valid, otherwise the problem as one phrase, e.g.
// `expected a number in [100, 1e13] Pa, got 5` or `expected a number (Pa), got a string "abc"`.
// Object/Map/List specs are only checked for the JSON type; their content is checked per group.
std::string checkParamValue(const ParamSpec& spec, const nlohmann::json& value);

// What a spec accepts, e.g. `a number in (0, 1] s or "auto"`.
std::string describeExpected(const ParamSpec& spec);
// A found value for messages, e.g. `a string "abc"`, `an array [1, 2]`, `12.5`.
std::string describeValue(const nlohmann::json& value);
// Compact number text: 1e+13 -> "1e13", 0.05 -> "0.05".
std::string formatNumber(double value);

// The candidate closest to `word` (typo distance), or "" when none is close enough.
std::string closestMatch(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace frac
