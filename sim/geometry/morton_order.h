#pragma once
// Points listed along a Morton (Z-order) curve, so that what lies together in space lies together in memory: the
// solvers' threads each take a contiguous range of elements, nodes or tetrahedra, and read their neighbours'.
#include <cstdint>
#include <vector>

#include "core/math.h"

namespace frac {

// The permutation that lists `points` along a Morton curve through their bounding box (1024 cells an axis): entry k is
// the index of the k-th point. Points in the same cell keep their order, so the result depends on the points alone.
std::vector<int32_t> mortonOrder(const std::vector<vec3>& points);

}  // namespace frac
