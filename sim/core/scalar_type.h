#pragma once
// The scalar types a solver's arrays are made of, as files name them (VTK XML and PLY).
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace frac {

// Opaque: a struct of mixed members, passed on as bytes and written into no data file.
enum class ScalarType : uint8_t { Float32, Float64, Int8, UInt8, Int16, UInt16, Int32, UInt32, Int64, Opaque };

constexpr size_t scalarBytes(ScalarType t) {
  switch (t) {
    case ScalarType::Float64:
    case ScalarType::Int64: return 8;
    case ScalarType::Float32:
    case ScalarType::Int32:
    case ScalarType::UInt32: return 4;
    case ScalarType::Int16:
    case ScalarType::UInt16: return 2;
    default: return 1;
  }
}

// VTK XML's type attribute ("Float32", ...); nullptr for Opaque.
constexpr const char* vtkTypeName(ScalarType t) {
  constexpr const char* kNames[] = {"Float32", "Float64", "Int8", "UInt8", "Int16", "UInt16", "Int32", "UInt32", "Int64"};
  return t == ScalarType::Opaque ? nullptr : kNames[int(t)];
}

// PLY's property type ("float", ...); nullptr where PLY has none (Int64, Opaque).
constexpr const char* plyTypeName(ScalarType t) {
  constexpr const char* kNames[] = {"float", "double", "char", "uchar", "short", "ushort", "int", "uint"};
  return int(t) < 8 ? kNames[int(t)] : nullptr;
}

// The scalar of type `t` at `at` (unaligned), as a double; 0 for Opaque.
inline double scalarValue(ScalarType t, const void* at) {
  auto read = [at](auto v) {
    std::memcpy(&v, at, sizeof v);
    return double(v);
  };
  switch (t) {
    case ScalarType::Float32: return read(float());
    case ScalarType::Float64: return read(double());
    case ScalarType::Int8: return read(int8_t());
    case ScalarType::UInt8: return read(uint8_t());
    case ScalarType::Int16: return read(int16_t());
    case ScalarType::UInt16: return read(uint16_t());
    case ScalarType::Int32: return read(int32_t());
    case ScalarType::UInt32: return read(uint32_t());
    case ScalarType::Int64: return read(int64_t());
    default: return 0.0;
  }
}

}  // namespace frac
