#pragma once
// Where a body's outer surface lies for each element near it, in the element's own frame at t = 0 (the world frame
// then: elements start unrotated), so that the surface moves and turns with the element (element_cell.h: an outer
// face of the element's cell). Samples are the shape's nearest surface points (geometry/shapes.h) from the element's
// centre and from the centre moved by one radius along each axis: a face element gets its face, an edge element both
// faces, a corner element all three, so intact bodies keep flat faces and sharp edges.
#include <cstdint>
#include <vector>

#include "core/math.h"
#include "geometry/shape_desc.h"

namespace frac {

class Shape;

// Samples as CSR over elements: element i's are [start[i], start[i + 1]). Appended element by element.
struct BoundarySamples {
  std::vector<int32_t> start{0};
  std::vector<vec3> point, normal;  // relative to the element's centre, in its frame at t = 0

  int elements() const { return int(start.size()) - 1; }
  // An element without samples (projectiles, supports, interior of a thrown ball's surface...).
  void addEmpty() { start.push_back(start.back()); }
  // An element at world position `centre` of radius r in a body of `shape` placed by `placement`: the samples within
  // reach of its cell (elements deeper than ~3 radii get none).
  void addElement(const Shape& shape, const Transform& placement, const vec3& centre, float r);
};

}  // namespace frac
