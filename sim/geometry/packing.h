#pragma once
// Fill a shape with equal spheres of radius r: hexagonal close packing (Lu sec. 4.1), simple cubic, or random close
// packing (geometry/random_packing.h).
#include <vector>

#include "geometry/shapes.h"

namespace frac {

// An element is kept when its whole sphere lies in the shape: the centre and its six axis extremes are inside, so a
// body's surface is the shape's surface (a box of height h rests on the ground when its centre is at h / 2).
bool sphereInShape(const Shape& shape, const vec3& centre, float radius);

// Returns element centres in the shape's local frame, in a deterministic order; neighbours touch at distance 2r and
// every sphere lies inside the shape (its centre and the six axis extremes pass the inside test). Random: see
// packRandom.
std::vector<vec3> packShape(const Shape& shape, float radius, Packing packing);

// How many elements packShape would keep, without packing: exact when the lattice has at most `samples` candidate
// sites, else estimated from that many seeded random sites (unbiased; ~1% at 32,768 samples unless the shape fills
// under a few percent of its bounds). For refusing scenes that would not fit before building them.
double estimatePackedCount(const Shape& shape, float radius, Packing packing, int samples = 32768);

// A thrown breakable ball: centres of elements of `elementRadius` filling a sphere of `ballRadius` around `centre`
// (world frame). Throws std::invalid_argument when the element radius is not in (0, ballRadius], when nothing fits,
// or beyond 20,000 elements (a throw must not stall the simulation).
std::vector<vec3> packBall(const vec3& centre, float ballRadius, float elementRadius, Packing packing);

}  // namespace frac
