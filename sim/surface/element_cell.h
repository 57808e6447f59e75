#pragma once
// The solid an element stands for, as the fracture surfaces see it (Lu et al. 2021 sec. 3.2): a convex cell, the
// intersection of half-spaces, whose union over a fragment's elements is that fragment's solid. Its implicit
// function f(p) = max(|p - x| - 3 r, max_k (n_k . p - d_k)) is negative inside; a fragment's is the min over its
// elements (the sub-group rule of Fig. 15c taken to single elements: a crack inside a fragment, or two cracks one
// element apart, stay visible). The half-spaces come from the element's frame:
//  - a broken bond leaves a fracture point (Lu: the bond's cross-section, where it broke, and its direction) that
//    moves and turns with the element; the element's fracture points are grouped by direction (opposite faces of a
//    slab one element thick stay apart) and each group gives the plane of eq. 19 with equal weights: through the
//    group's mean point, normal to its mean direction;
//  - an intact bond bounds the cell half a radius beyond the bond's cross-section (neighbouring cells overlap, so the
//    inside of a body has no inner surfaces);
//  - a boundary sample (the body's shape at t = 0, geometry/shapes.h nearestSurface) is a plane of the outer surface,
//    so that an intact box shows flat faces and sharp edges.
// Pure functions of plain data, host and device.
#include "core/math.h"

namespace frac {

// A half-space n . p <= d (n a unit vector).
struct CellPlane {
  vec3 normal;
  float offset;
  FRAC_HD float distance(const vec3& p) const { return glm::dot(normal, p) - offset; }
};

constexpr float kCellBallRadius = 3.0f;       // in element radii: bounds a cell no plane closes
constexpr float kIntactPlaneMargin = 0.5f;    // in element radii beyond an intact bond's cross-section
constexpr int kMaxFractureGroups = 3;

FRAC_HD inline float cellValue(const vec3& centre, float radius, const CellPlane* planes, int count, const vec3& p) {
  float f = sqrtf(length2(p - centre)) - kCellBallRadius * radius;
  for (int k = 0; k < count; ++k) {
    const float d = planes[k].distance(p);
    f = d > f ? d : f;
  }
  return f;
}

// An element's fracture points grouped by direction: farthest-point seeds (a point starts a group when it is more
// than ~73 degrees from every seed), each point to the nearest seed, then groups less than ~78 degrees apart merged.
// HCP bonds crossing one crack plane (tilted up to ~55 degrees from its normal) form one group; the two faces of a
// slab between two cracks, two.
struct FractureGroups {
  vec3 directionSum[kMaxFractureGroups];
  vec3 pointSum[kMaxFractureGroups];
  int count[kMaxFractureGroups];
  int groups = 0;

  // points, normals: the element's fracture points in world space (n of them, in bond order).
  FRAC_HD void build(const vec3* points, const vec3* normals, int n) {
    vec3 seed[kMaxFractureGroups];
    groups = 0;
    for (int i = 0; i < n && groups < kMaxFractureGroups; ++i) {
      float nearest = -2.0f;
      for (int g = 0; g < groups; ++g) nearest = glm::max(nearest, glm::dot(normals[i], seed[g]));
      if (groups == 0 || nearest < 0.3f) seed[groups++] = normals[i];
    }
    for (int g = 0; g < groups; ++g) {
      directionSum[g] = pointSum[g] = vec3(0.0f);
      count[g] = 0;
    }
    for (int i = 0; i < n; ++i) {
      int best = 0;
      for (int g = 1; g < groups; ++g)
        if (glm::dot(normals[i], seed[g]) > glm::dot(normals[i], seed[best])) best = g;
      directionSum[best] += normals[i];
      pointSum[best] += points[i];
      ++count[best];
    }
    for (int a = 0; a < groups; ++a)
      for (int b = a + 1; b < groups; ++b) {
        if (count[a] == 0 || count[b] == 0) continue;
        const vec3 da = glm::normalize(directionSum[a]), db = glm::normalize(directionSum[b]);
        if (glm::dot(da, db) <= 0.2f) continue;
        directionSum[a] += directionSum[b];
        pointSum[a] += pointSum[b];
        count[a] += count[b];
        count[b] = 0;
      }
  }
  // Group g's plane (false for an empty or cancelled group).
  FRAC_HD bool plane(int g, CellPlane& out) const {
    const float len = sqrtf(length2(directionSum[g]));
    if (count[g] == 0 || !(len > 1e-6f)) return false;
    out.normal = directionSum[g] / len;
    out.offset = glm::dot(out.normal, pointSum[g] / float(count[g]));
    return true;
  }
};

}  // namespace frac
