#pragma once
// Fill a shape with equal spheres of radius r: hexagonal close packing (Lu sec. 4.1), simple cubic, or random close
// packing (geometry/random_packing.h).
#include <cstdint>
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

// The order a solver lists a packed body's elements in: entry k is the index, in packShape's list, of the k-th
// element. A lattice is cut into slabs one lattice pitch thick across the body's longest axis, each slab in packShape's
// own order. The solvers' threads take contiguous ranges of elements, so two threads' ranges then meet across the
// body's smallest section (a beam's or a slab's cross-section) instead of across one of packShape's y layers, and a
// bond's two ends lie at most two slabs apart. A body longest along y (packShape's slowest axis already) and a random
// packing (listed along a Morton curve) keep packShape's order.
std::vector<int32_t> longAxisOrder(const std::vector<vec3>& centres, float radius, Packing packing);

// How many elements packShape would keep, without packing: exact when the lattice has at most `samples` candidate
// sites, else estimated from that many seeded random sites (unbiased; ~1% at 32,768 samples unless the shape fills
// under a few percent of its bounds). For refusing scenes that would not fit before building them.
double estimatePackedCount(const Shape& shape, float radius, Packing packing, int samples = 32768);

// An element's share of the lattice it was packed on, over the element radius: half its cell along each of the
// lattice's axes and the cell's volume. HCP: sites 2r apart along x, rows sqrt(3) r apart along z, layers
// 2 sqrt(6) / 3 r apart along y (4 sqrt 2 r^3 a site); simple cubic: 2r on every axis (8 r^3). A random packing has
// no cell: zero volume, and half-widths of r (its spheres reach the shape's faces).
struct LatticeCell {
  vec3 halfPerRadius{1.0f};
  float volumePerRadius3 = 0.0f;
};
LatticeCell latticeCell(Packing packing);

// A thrown breakable ball: centres of elements of `elementRadius` filling a sphere of `ballRadius` around `centre`
// (world frame). Throws std::invalid_argument when the element radius is not in (0, ballRadius], when nothing fits,
// or beyond 20,000 elements (a throw must not stall the simulation).
std::vector<vec3> packBall(const vec3& centre, float ballRadius, float elementRadius, Packing packing);

}  // namespace frac
