#pragma once
// bind(spec, &Struct::member): ties a registry spec to the scene struct member that holds its value, on the registry
// line itself (io/scene_params.cpp). The member's type decides the conversion: numbers, bools and strings as they
// are; vec3 as [x, y, z], normalised for direction specs; std::optional<double> as a number or "auto" (empty); a
// float of a NumberOrInf spec as a number or "inf" (kUnbreakable); a quaternion as Euler degrees (q = qz qy qx); a
// profile as [[r, y], ...]; an enum through its table of names, which also gives the spec its choices.
#include <charconv>
#include <cstddef>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/enum_names.h"
#include "core/params.h"
#include "io/scene_desc.h"

namespace frac::registry {

// Euler angles in degrees, applied about x, then y, then z: q = qz * qy * qx.
inline quat eulerDegreesToQuat(const vec3& degrees) {
  const vec3 r = degrees * (kPi / 180.0f);
  const quat qx = fromRotationVector(vec3(r.x, 0, 0));
  const quat qy = fromRotationVector(vec3(0, r.y, 0));
  const quat qz = fromRotationVector(vec3(0, 0, r.z));
  return normalized(mul(qz, mul(qy, qx)));
}

namespace detail {

using json = nlohmann::json;
using Profile = std::vector<glm::vec2>;

// A float as the shortest decimal that reads back as it (0.3f -> 0.3, not 0.300000012).
inline json jsonOf(float f) {
  char text[32];
  const std::to_chars_result end = std::to_chars(text, text + sizeof text, f);
  return std::strtod(std::string(text, end.ptr).c_str(), nullptr);
}
inline vec3 vec3Of(const json& v) { return vec3(v[0].get<float>(), v[1].get<float>(), v[2].get<float>()); }
inline json jsonOf(const vec3& v) { return json::array({jsonOf(v.x), jsonOf(v.y), jsonOf(v.z)}); }

// What of the spec the conversion depends on.
struct Form {
  ParamType type;
  bool unitVector;
};

template <class M>
bool fits(ParamType t) {
  if constexpr (std::is_same_v<M, vec3> || std::is_same_v<M, quat>) return t == ParamType::Vec3;
  else if constexpr (std::is_same_v<M, std::optional<double>>) return t == ParamType::NumberOrAuto;
  else if constexpr (std::is_same_v<M, Profile>) return t == ParamType::Profile;
  else if constexpr (std::is_same_v<M, float>) return t == ParamType::Number || t == ParamType::NumberOrInf;
  else if constexpr (std::is_same_v<M, bool>) return t == ParamType::Bool;
  else if constexpr (std::is_floating_point_v<M>) return t == ParamType::Number;
  else if constexpr (std::is_integral_v<M>) return t == ParamType::Integer;
  else if constexpr (std::is_same_v<M, std::string>) return t == ParamType::String || t == ParamType::Enum;
  else return false;
}

template <class M>
void readValue(M& m, const json& v, Form form) {
  if constexpr (std::is_same_v<M, vec3>) {
    m = form.unitVector ? glm::normalize(vec3Of(v)) : vec3Of(v);
  } else if constexpr (std::is_same_v<M, quat>) {
    m = eulerDegreesToQuat(vec3Of(v));
  } else if constexpr (std::is_same_v<M, std::optional<double>>) {
    m = v.is_string() ? std::nullopt : std::optional<double>(v.get<double>());
  } else if constexpr (std::is_same_v<M, Profile>) {
    m.clear();
    for (const json& p : v) m.emplace_back(p[0].get<float>(), p[1].get<float>());
  } else if constexpr (std::is_same_v<M, float>) {
    m = form.type == ParamType::NumberOrInf && v.is_string() ? kUnbreakable : v.get<float>();
  } else {
    m = v.get<M>();
  }
}

template <class M>
json writeValue(const M& m, Form form) {
  if constexpr (std::is_same_v<M, vec3>) {
    return jsonOf(m);
  } else if constexpr (std::is_same_v<M, quat>) {
    return jsonOf(glm::degrees(glm::eulerAngles(m)));  // glm's angles are about x, y, z with q = qz qy qx
  } else if constexpr (std::is_same_v<M, std::optional<double>>) {
    return m ? json(*m) : json("auto");
  } else if constexpr (std::is_same_v<M, Profile>) {
    json out = json::array();
    for (const glm::vec2& p : m) out.push_back(json::array({jsonOf(p.x), jsonOf(p.y)}));
    return out;
  } else if constexpr (std::is_same_v<M, float>) {
    return form.type == ParamType::NumberOrInf && m >= kUnbreakable ? json("inf") : jsonOf(m);
  } else {
    return json(m);
  }
}

// The binding of the member `access(object)` of Owner, converted by read(member, value) and write(member).
template <class Owner, class Access, class Read, class Write>
ParamBinding makeBinding(Access access, Read read, Write write) {
  ParamBinding b;
  b.owner = &typeid(Owner);
  b.read = [=](void* object, const json& value) { read(access(*static_cast<Owner*>(object)), value); };
  b.write = [=](const void* object) { return write(access(*static_cast<const Owner*>(object))); };
  b.copy = [=](void* to, const void* from) {
    access(*static_cast<Owner*>(to)) = access(*static_cast<const Owner*>(from));
  };
  return b;
}

template <class Owner, class M, class Access>
ParamSpec bindValue(ParamSpec spec, Access access) {
  static_assert(!std::is_enum_v<M>, "an enum member is bound with its table of names");
  if (!fits<M>(spec.type))
    throw std::logic_error("registry: '" + spec.key + "' (" + paramTypeName(spec.type) +
                           ") is bound to a member of another type");
  const Form form{spec.type, spec.unitVector};
  spec.binding = makeBinding<Owner>(
      access, [form](M& m, const json& v) { readValue(m, v, form); },
      [form](const M& m) { return writeValue(m, form); });
  return spec;
}

template <class Owner, class Class>
using OwnerOf = std::conditional_t<std::is_void_v<Owner>, Class, Owner>;

}  // namespace detail

// `member` of Owner (by default the class that declares it; name a derived struct to bind a base's member there).
template <class Owner = void, class Class, class M>
ParamSpec bind(ParamSpec spec, M Class::*member) {
  using O = detail::OwnerOf<Owner, Class>;
  static_assert(std::is_base_of_v<Class, O>);
  return detail::bindValue<O, M>(std::move(spec), [member](auto& object) -> auto& { return object.*member; });
}

// A field of a member: bind<T>(spec, &PlacedShapeDesc::transform, &Transform::position).
template <class Owner = void, class Class, class Outer, class M>
ParamSpec bind(ParamSpec spec, Outer Class::*outer, M Outer::*field) {
  using O = detail::OwnerOf<Owner, Class>;
  static_assert(std::is_base_of_v<Class, O>);
  return detail::bindValue<O, M>(std::move(spec),
                                 [outer, field](auto& object) -> auto& { return (object.*outer).*field; });
}

// An enum member with its names, e.g. {{"levine", PdContact::Levine}, {"off", PdContact::Off}}: the spec's choices.
template <class Owner = void, class Class, class E, std::size_t N>
ParamSpec bind(ParamSpec spec, E Class::*member, const EnumName<E> (&names)[N]) {
  using O = detail::OwnerOf<Owner, Class>;
  static_assert(std::is_base_of_v<Class, O> && std::is_enum_v<E>);
  if (spec.type != ParamType::Enum) throw std::logic_error("registry: '" + spec.key + "' is not an enum");
  const std::vector<EnumName<E>> table(names, names + N);
  spec.choices.clear();
  for (const EnumName<E>& n : table) spec.choices.push_back(n.name);
  const std::string key = spec.key;
  spec.binding = detail::makeBinding<O>(
      [member](auto& object) -> auto& { return object.*member; },
      [table, key](E& e, const nlohmann::json& v) {
        for (const EnumName<E>& n : table)
          if (v.get<std::string>() == n.name) return void(e = n.value);
        throw std::logic_error("registry: '" + key + "' has no value named " + v.dump());  // validated before
      },
      [table](const E& e) {
        for (const EnumName<E>& n : table)
          if (e == n.value) return nlohmann::json(n.name);
        return nlohmann::json();
      });
  return spec;
}

}  // namespace frac::registry
