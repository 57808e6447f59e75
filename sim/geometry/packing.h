#pragma once
// Fill a shape with equal spheres of radius r: hexagonal close packing (Lu sec. 4.1) or simple cubic.
#include <vector>

#include "geometry/shapes.h"

namespace frac {

// Returns element centres in the shape's local frame, in a deterministic order; neighbours touch at distance 2r and
// every sphere lies inside the shape (its centre and the six axis extremes pass the inside test).
std::vector<vec3> packShape(const Shape& shape, float radius, Packing packing);

}  // namespace frac
