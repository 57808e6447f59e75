#pragma once
// Connected pieces of a bond graph (union-find with path halving; deterministic labels in element order).
#include <cstdint>
#include <vector>

namespace frac {

struct FragmentLabels {
  std::vector<int32_t> label;  // per element: 0..count-1, or -1 when left out
  int count = 0;
};

// include[i] == 0 leaves element i out; bonds with broken[b] != 0 do not connect.
FragmentLabels labelFragments(int elementCount, const std::vector<uint8_t>& include, const int32_t* first,
                              const int32_t* second, const uint8_t* broken, long long bondCount);

}  // namespace frac
