#include "analysis/damage.h"

namespace frac {

std::vector<float> brokenBondFraction(int elements, const int32_t* first, const int32_t* second, const uint8_t* broken,
                                      long long bonds, float noBonds, const float* partial) {
  std::vector<int> initial(elements, 0);
  std::vector<float> lost(elements, 0.0f);
  for (long long b = 0; b < bonds; ++b)
    for (const int i : {first[b], second[b]}) {
      ++initial[i];
      lost[i] += broken[b] != 0 ? 1.0f : partial ? partial[b] : 0.0f;
    }
  std::vector<float> damage(elements, 0.0f);
  for (int i = 0; i < elements; ++i) damage[i] = initial[i] ? lost[i] / float(initial[i]) : noBonds;
  return damage;
}

}  // namespace frac
