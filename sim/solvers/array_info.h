#pragma once
// A solver's listed array as code outside the method sees it (export, checkpoints, backend comparisons): its name and
// group from the method's list (state_arrays.h), where its values are on the host, and what each entry is made of.
// A writer that knows these needs no code per method: a new method's arrays reach the files by being listed.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "core/math.h"
#include "core/scalar_type.h"
#include "solvers/state_arrays.h"

namespace frac {

struct ArrayInfo {
  const char* name = "";
  const char* group = "";     // "elements": one entry per element (in frame order); "bonds", "tets", ...
  const void* data = nullptr;  // count * entryBytes bytes
  size_t count = 0;
  size_t entryBytes = 0;
  ScalarType scalar = ScalarType::Opaque;
  int components = 1;  // scalars per entry (Opaque: 1)
  Travel travel = Travel::State;
};

// An entry type's scalar and its count: arithmetic types, glm vectors and quaternions; anything else Opaque.
template <class T, class = void>
struct EntryLayout {
  static constexpr ScalarType scalar = ScalarType::Opaque;
  static constexpr int components = 1;
};

template <class T>
constexpr ScalarType scalarTypeOf() {
  if constexpr (std::is_same_v<T, float>) return ScalarType::Float32;
  else if constexpr (std::is_same_v<T, double>) return ScalarType::Float64;
  else if constexpr (std::is_integral_v<T> && sizeof(T) == 1) return std::is_signed_v<T> ? ScalarType::Int8 : ScalarType::UInt8;
  else if constexpr (std::is_integral_v<T> && sizeof(T) == 2) return std::is_signed_v<T> ? ScalarType::Int16 : ScalarType::UInt16;
  else if constexpr (std::is_integral_v<T> && sizeof(T) == 4) return std::is_signed_v<T> ? ScalarType::Int32 : ScalarType::UInt32;
  else if constexpr (std::is_integral_v<T> && sizeof(T) == 8 && std::is_signed_v<T>) return ScalarType::Int64;
  else return ScalarType::Opaque;
}

template <class T>
struct EntryLayout<T, std::enable_if_t<std::is_arithmetic_v<T>>> {
  static constexpr ScalarType scalar = scalarTypeOf<T>();
  static constexpr int components = 1;
};
template <int N, class T, glm::qualifier Q>
struct EntryLayout<glm::vec<N, T, Q>> {
  static constexpr ScalarType scalar = scalarTypeOf<T>();
  static constexpr int components = N;
};
template <class T, glm::qualifier Q>
struct EntryLayout<glm::qua<T, Q>> {  // stored x, y, z, w
  static constexpr ScalarType scalar = scalarTypeOf<T>();
  static constexpr int components = 4;
};

// The ArrayInfo of one host vector visited with its tag (forEachArray's f).
template <class Vector, class Tag>
ArrayInfo arrayInfo(const Vector& vector, const Tag& tag) {
  using Value = typename Vector::value_type;
  ArrayInfo info;
  info.name = tag.name;
  info.group = tag.group;
  info.data = vector.data();
  info.count = vector.size();
  info.entryBytes = sizeof(Value);
  info.scalar = EntryLayout<Value>::scalar;
  info.components = EntryLayout<Value>::components;
  info.travel = Tag::travel;
  return info;
}

}  // namespace frac
