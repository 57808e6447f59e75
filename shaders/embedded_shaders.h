#pragma once
// SPIR-V of the shaders in this folder, compiled at build time and embedded (see embed_spirv.cmake).
#include <cstddef>
#include <cstdint>

namespace frac::shaders {

struct Spirv {
  const uint32_t* words;
  size_t count;  // 32-bit words; 0 when there is no such shader
};

// name: the source file name, e.g. "sphere.vert".
Spirv find(const char* name);

}  // namespace frac::shaders
