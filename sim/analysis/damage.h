#pragma once
// Damage per element: the broken fraction of its initial bonds (Levine, Chen: damage of a particle).
#include <cstdint>
#include <vector>

namespace frac {

// Bonds as (first[b], second[b]) with broken[b] != 0 once broken; elements without bonds get `noBonds`. `partial`
// (optional): how much of a bond that has not broken is lost (0..1: bdem's softening bonds), counted as that share of
// a broken one.
std::vector<float> brokenBondFraction(int elements, const int32_t* first, const int32_t* second, const uint8_t* broken,
                                      long long bonds, float noBonds, const float* partial = nullptr);

}  // namespace frac
