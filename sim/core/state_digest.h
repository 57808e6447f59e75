#pragma once
// FNV-1a over raw bytes: Solver::stateDigest hashes the bits of a solver's state with it (equal digests mean
// bit-identical states).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace frac {

class StateDigest {
 public:
  template <class T>
  void add(const std::vector<T>& values) {
    addBytes(values.data(), values.size() * sizeof(T));
  }
  void addBytes(const void* data, size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t k = 0; k < bytes; ++k) hash_ = (hash_ ^ p[k]) * 1099511628211ull;
  }
  uint64_t value() const { return hash_; }

 private:
  uint64_t hash_ = 1469598103934665603ull;
};

}  // namespace frac
