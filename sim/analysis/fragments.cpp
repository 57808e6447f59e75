#include "analysis/fragments.h"

#include <numeric>

namespace frac {

FragmentLabels labelFragments(int elementCount, const std::vector<uint8_t>& include, const int32_t* first,
                              const int32_t* second, const uint8_t* broken, long long bondCount) {
  std::vector<int32_t> parent(elementCount);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (long long b = 0; b < bondCount; ++b) {
    if (broken[b] || !include[first[b]] || !include[second[b]]) continue;
    const int32_t a = find(first[b]), c = find(second[b]);
    if (a != c) parent[a < c ? c : a] = a < c ? a : c;  // the smaller index becomes the root
  }
  FragmentLabels out;
  out.label.assign(elementCount, -1);
  std::vector<int32_t> rootLabel(elementCount, -1);
  for (int i = 0; i < elementCount; ++i) {
    if (!include[i]) continue;
    const int32_t r = find(i);
    if (rootLabel[r] < 0) rootLabel[r] = out.count++;
    out.label[i] = rootLabel[r];
  }
  return out;
}

}  // namespace frac
