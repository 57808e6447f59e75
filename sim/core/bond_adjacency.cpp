#include "core/bond_adjacency.h"

namespace frac {

BondAdjacency buildBondAdjacency(int elements, const std::vector<int32_t>& first, const std::vector<int32_t>& second) {
  const long long bonds = (long long)first.size();
  BondAdjacency a;
  a.start.assign(elements + 1, 0);
  for (long long b = 0; b < bonds; ++b) {
    ++a.start[first[b] + 1];
    ++a.start[second[b] + 1];
  }
  for (int i = 0; i < elements; ++i) a.start[i + 1] += a.start[i];
  a.entry.assign(2 * bonds, 0);
  a.neighbor.assign(2 * bonds, 0);
  std::vector<int32_t> fill(a.start.begin(), a.start.end() - 1);
  for (long long b = 0; b < bonds; ++b) {  // bonds in index order: each element's list is sorted by bond index
    const int i = first[b], j = second[b];
    a.entry[fill[i]] = int32_t(2 * b);
    a.neighbor[fill[i]++] = j;
    a.entry[fill[j]] = int32_t(2 * b + 1);
    a.neighbor[fill[j]++] = i;
  }
  return a;
}

}  // namespace frac
