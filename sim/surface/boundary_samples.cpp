#include "surface/boundary_samples.h"

#include "geometry/shapes.h"

namespace frac {

void BoundarySamples::addElement(const Shape& shape, const Transform& placement, const vec3& centre, float r) {
  const quat toLocal = conjugate(placement.orientation);
  const vec3 local = rotate(toLocal, centre - placement.position);
  const int first = int(point.size());
  const vec3 probes[7] = {local,
                          local + vec3(r, 0, 0), local - vec3(r, 0, 0),
                          local + vec3(0, r, 0), local - vec3(0, r, 0),
                          local + vec3(0, 0, r), local - vec3(0, 0, r)};
  for (const vec3& probe : probes) {
    const SurfaceSample s = shape.nearestSurface(probe);
    // Reach: a cell spans about 2.5 radii towards a missing neighbour (element_cell.h).
    if (length2(s.point - local) > 2.7f * 2.7f * r * r) continue;
    bool known = false;  // the same face seen from two probes
    for (int k = first; k < int(point.size()) && !known; ++k) {
      const vec3 n = rotate(toLocal, normal[k]);
      known = glm::dot(n, s.normal) > 0.999f && std::abs(glm::dot(n, s.point - (local + rotate(toLocal, point[k])))) <
                                                     1e-3f * r;
    }
    if (known) continue;
    point.push_back(rotate(placement.orientation, s.point - local));
    normal.push_back(rotate(placement.orientation, s.normal));
  }
  start.push_back(int32_t(point.size()));
}

}  // namespace frac
