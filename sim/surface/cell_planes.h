#pragma once
// Each element's cell (element_cell.h) as planes in world space, from what a method knows of its elements. A method
// supplies a Source with FRAC_HD accessors:
//   position(i), rotation(i) (its frame: the element's orientation, or a peridynamic particle's fitted rotation),
//   radius(i), member(i) (whether it belongs to a body that has surfaces),
//   bondBegin(i), bondEnd(i) and bond(k, direction, cut, broken): entry k of i's bond list, false when the method
//     leaves that bond out of the surfaces; direction: unit, from i towards the neighbour in i's frame; cut: the
//     distance from i's centre to the bond's cross-section,
//   sampleBegin(i), sampleEnd(i), samplePoint(k), sampleNormal(k): boundary samples in i's frame.
// The planes are written in the element's slot of a CSR list sized by planeCapacity; kinds say which the renderer
// shows as crack faces.
#include <cstdint>

#include "surface/element_cell.h"

namespace frac {

enum CellPlaneKind : uint8_t { kPlaneIntact = 0, kPlaneOuter = 1, kPlaneCrack = 2 };

constexpr int kMaxFractureEnds = 32;  // fracture points of one element taken into its groups (HCP has 12 bonds)

template <class Source>
FRAC_HD inline int planeCapacity(const Source& s, int i) {
  if (!s.member(i)) return 0;
  return (s.bondEnd(i) - s.bondBegin(i)) + (s.sampleEnd(i) - s.sampleBegin(i)) + kMaxFractureGroups;
}

// Writes element i's planes into out / kind (planeCapacity entries available); returns how many.
template <class Source>
FRAC_HD inline int writeCellPlanes(const Source& s, int i, CellPlane* out, uint8_t* kind) {
  if (!s.member(i)) return 0;
  const vec3 x = s.position(i);
  const quat q = s.rotation(i);
  const float r = s.radius(i);
  int count = 0;
  vec3 crackPoint[kMaxFractureEnds], crackNormal[kMaxFractureEnds];
  int cracks = 0;
  for (int k = s.bondBegin(i); k < s.bondEnd(i); ++k) {
    vec3 direction;
    float cut;
    bool broken;
    if (!s.bond(k, direction, cut, broken)) continue;
    const vec3 w = rotate(q, direction);
    const vec3 m = x + cut * w;  // the bond's cross-section: a fracture point once it broke
    if (broken) {
      if (cracks < kMaxFractureEnds) {
        crackPoint[cracks] = m;
        crackNormal[cracks] = w;
        ++cracks;
      }
      continue;
    }
    out[count] = CellPlane{w, glm::dot(w, m) + kIntactPlaneMargin * r};
    kind[count++] = kPlaneIntact;
  }
  for (int k = s.sampleBegin(i); k < s.sampleEnd(i); ++k) {
    const vec3 n = rotate(q, s.sampleNormal(k));
    out[count] = CellPlane{n, glm::dot(n, x + rotate(q, s.samplePoint(k)))};
    kind[count++] = kPlaneOuter;
  }
  FractureGroups groups;
  groups.build(crackPoint, crackNormal, cracks);
  for (int g = 0; g < groups.groups; ++g) {
    CellPlane p;
    if (!groups.plane(g, p)) continue;
    out[count] = p;
    kind[count++] = kPlaneCrack;
  }
  return count;
}

}  // namespace frac
