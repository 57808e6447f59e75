#pragma once
// Turns a method's elements (a cell_planes.h Source) and their fragment keys into the CellField the extractor takes:
// dense fragment indices and every member element's planes. The method-specific part is only the Source.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "backend/exec.h"
#include "surface/cell_planes.h"
#include "surface/fracture_surfaces.h"

namespace frac {

struct CellFieldStorage {
  std::vector<vec3> centre;
  std::vector<float> radius;
  std::vector<int32_t> fragment, planeStart, planeCount;
  std::vector<uint32_t> fragmentKey;
  std::vector<CellPlane> plane;
  std::vector<uint8_t> kind;

  CellField view(int elements) const {
    CellField f;
    f.elements = elements;
    f.centre = centre.data();
    f.radius = radius.data();
    f.fragment = fragment.data();
    f.fragmentKey = fragmentKey.data();
    f.fragments = int(fragmentKey.size());
    f.planeStart = planeStart.data();
    f.plane = plane.data();
    f.kind = kind.data();
    return f;
  }
};

// fragmentKey[i]: the smallest element index of i's piece (element_instances.h fragmentKeysParallel).
template <class Source>
CellField buildCellField(const CpuExec& exec, const Source& source, int n, const int32_t* fragmentKey,
                         CellFieldStorage& s) {
  s.centre.resize(n);
  s.radius.resize(n);
  s.fragment.assign(n, -1);
  // Dense fragment indices in the order of the keys (the piece's smallest element index).
  std::vector<int32_t> denseOfKey(n, -1);
  s.fragmentKey.clear();
  for (int i = 0; i < n; ++i) {
    if (!source.member(i)) continue;
    const int32_t key = fragmentKey[i];
    if (denseOfKey[key] < 0) {
      denseOfKey[key] = int32_t(s.fragmentKey.size());
      s.fragmentKey.push_back(uint32_t(key));
    }
    s.fragment[i] = denseOfKey[key];
  }
  std::vector<int32_t> capacity(n);
  parallel_for(exec, n, [&](int i) {
    s.centre[i] = source.position(i);
    s.radius[i] = source.radius(i);
    capacity[i] = planeCapacity(source, i);
  });
  std::vector<int32_t> slot(size_t(n) + 1, 0);
  for (int i = 0; i < n; ++i) slot[i + 1] = slot[i] + capacity[i];
  std::vector<CellPlane> planes(size_t(slot[n]));
  std::vector<uint8_t> kinds(size_t(slot[n]));
  s.planeCount.assign(n, 0);
  parallel_for(exec, n, [&](int i) {
    s.planeCount[i] = writeCellPlanes(source, i, planes.data() + slot[i], kinds.data() + slot[i]);
  });
  // Compact: each element's planes back to back.
  s.planeStart.assign(size_t(n) + 1, 0);
  for (int i = 0; i < n; ++i) s.planeStart[i + 1] = s.planeStart[i] + s.planeCount[i];
  s.plane.resize(size_t(s.planeStart[n]));
  s.kind.resize(size_t(s.planeStart[n]));
  parallel_for(exec, n, [&](int i) {
    std::copy(planes.begin() + slot[i], planes.begin() + slot[i] + s.planeCount[i], s.plane.begin() + s.planeStart[i]);
    std::copy(kinds.begin() + slot[i], kinds.begin() + slot[i] + s.planeCount[i], s.kind.begin() + s.planeStart[i]);
  });
  return s.view(n);
}

}  // namespace frac
