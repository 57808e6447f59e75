#pragma once
// An axis-aligned box grown point by point (grid windows, extents): the one bounding-box loop.
#include <limits>

#include "core/math.h"

namespace frac {

struct Bounds {
  vec3 lo{std::numeric_limits<float>::max()};
  vec3 hi{-std::numeric_limits<float>::max()};

  void add(const vec3& p) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  bool empty() const { return lo.x > hi.x; }
  // The box, or a point at the origin when nothing was added.
  Bounds orOrigin() const { return empty() ? Bounds{vec3(0.0f), vec3(0.0f)} : *this; }
};

// The box of positions[i] over the indices i in [begin, end) where take(i).
template <class Position, class Take>
Bounds boundsOf(int begin, int end, const Position& position, const Take& take) {
  Bounds b;
  for (int i = begin; i < end; ++i)
    if (take(i)) b.add(position(i));
  return b;
}

}  // namespace frac
