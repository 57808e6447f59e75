#pragma once
// Turns a method's elements (a cell_planes.h Source) and their fragment keys into the CellField the extractor takes:
// dense fragment indices and every member element's planes. The method-specific part is only the Source. Written
// once for every exec policy (the CPU's threads, a CUDA device): the field lives in that policy's memory.
#include <cstdint>

#include "backend/exec_memory.h"
#include "surface/cell_planes.h"
#include "surface/fragment_grids.h"

namespace frac {

template <class Exec>
struct CellFieldStorage {
  template <class T>
  using Buffer = ExecBuffer<Exec, T>;
  Buffer<vec3> centre;
  Buffer<float> radius;
  Buffer<int32_t> fragment, isKey, dense, capacity, slot, planeCount, planeStart;
  Buffer<uint32_t> fragmentKey;
  Buffer<CellPlane> plane, planeScratch;
  Buffer<uint8_t> kind, kindScratch;
};

// fragmentKey[i]: the smallest element index of i's piece (element_instances.h fragmentKeysParallel). Dense fragment
// indices follow the keys' order (a scan over the elements that are their piece's key).
template <class Exec, class Source>
CellField buildCellField(const Exec& exec, const Source& source, int n, const int32_t* fragmentKey,
                         CellFieldStorage<Exec>& s) {
  vec3* centre = s.centre.ensure(size_t(n));
  float* radius = s.radius.ensure(size_t(n));
  int32_t* fragment = s.fragment.ensure(size_t(n));
  int32_t* isKey = s.isKey.ensure(size_t(n) + 1);
  int32_t* dense = s.dense.ensure(size_t(n) + 1);
  int32_t* capacity = s.capacity.ensure(size_t(n) + 1);
  int32_t* slot = s.slot.ensure(size_t(n) + 1);
  parallel_for(exec, n, [=] FRAC_HD(int i) {
    isKey[i] = source.member(i) && fragmentKey[i] == i;
    centre[i] = source.position(i);
    radius[i] = source.radius(i);
    capacity[i] = planeCapacity(source, i);
  });
  const int fragments = scanWithTotal(exec, isKey, dense, n);
  uint32_t* keys = s.fragmentKey.ensure(size_t(fragments) + 1);
  parallel_for(exec, n, [=] FRAC_HD(int i) {
    const bool member = source.member(i);
    fragment[i] = member ? dense[fragmentKey[i]] : -1;
    if (member && fragmentKey[i] == i) keys[dense[i]] = uint32_t(i);
  });
  const int slots = scanWithTotal(exec, capacity, slot, n);
  CellPlane* planes = s.planeScratch.ensure(size_t(slots) + 1);
  uint8_t* kinds = s.kindScratch.ensure(size_t(slots) + 1);
  int32_t* planeCount = s.planeCount.ensure(size_t(n) + 1);
  parallel_for(exec, n, [=] FRAC_HD(int i) {
    planeCount[i] = writeCellPlanes(source, i, planes + slot[i], kinds + slot[i]);
  });
  // Compact: each element's planes back to back.
  int32_t* planeStart = s.planeStart.ensure(size_t(n) + 1);
  const int total = scanWithTotal(exec, planeCount, planeStart, n);
  CellPlane* plane = s.plane.ensure(size_t(total) + 1);
  uint8_t* kind = s.kind.ensure(size_t(total) + 1);
  parallel_for(exec, n, [=] FRAC_HD(int i) {
    for (int k = 0; k < planeCount[i]; ++k) {
      plane[planeStart[i] + k] = planes[slot[i] + k];
      kind[planeStart[i] + k] = kinds[slot[i] + k];
    }
  });
  CellField f;
  f.elements = n;
  f.centre = centre;
  f.radius = radius;
  f.fragment = fragment;
  f.fragmentKey = keys;
  f.fragments = fragments;
  f.planeStart = planeStart;
  f.plane = plane;
  f.kind = kind;
  return f;
}

}  // namespace frac
