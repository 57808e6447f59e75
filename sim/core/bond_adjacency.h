#pragma once
// Per-element bond lists (CSR) of bonds stored once per pair: what every bonded method gathers over.
#include <cstdint>
#include <vector>

namespace frac {

struct BondAdjacency {
  std::vector<int32_t> start;     // elements + 1
  std::vector<int32_t> entry;     // 2 * bond + (1 if the element is the bond's second end), in bond order
  std::vector<int32_t> neighbor;  // the other end
};

BondAdjacency buildBondAdjacency(int elements, const std::vector<int32_t>& first, const std::vector<int32_t>& second);

}  // namespace frac
