#pragma once
// The parts of Solver::writeInstances every solver shares, written once as parallel_for over plain arrays so that the
// CPU (tests) and CUDA (interop: instances written into the renderer's buffer) run the same code:
//  - fragment keys (RenderFrame::fragment: the smallest element index of each bonded piece) by hooking and pointer
//    jumping, the parallel counterpart of analysis/fragments.h's union-find;
//  - writing the instances and summarising them (InstanceSummary) for the renderer, which cannot read them.
#include <cstdint>

#include "backend/atomics.h"
#include "core/sphere_instance.h"

namespace frac {

// Follows parent links to the root; links only ever point to smaller indices of the same piece.
FRAC_HD inline int32_t fragmentRoot(const int32_t* parent, int32_t i) {
  int32_t p = atomicLoadInt(&parent[i]);
  while (p != i) {
    i = p;
    p = atomicLoadInt(&parent[i]);
  }
  return i;
}

// key[i] = the smallest index of i's piece: elements joined by intact bonds (broken[b] == 0) between two members
// (member(i) true) form a piece; non-members keep their own index (as frame_parts.h fragmentKeys). Each round links
// every root that an intact bond joins to another piece below the smaller root (atomic min), then points every element
// at its root; rounds repeat until one finds no bond between two pieces. `changed`: one int32 in the exec's memory.
template <class Exec, class Member>
void fragmentKeysParallel(const Exec& exec, int n, const Member& member, int bondCount, const int32_t* first,
                          const int32_t* second, const uint8_t* broken, int32_t* key, int32_t* changed) {
  parallel_for(exec, n, [=] FRAC_HD(int i) { key[i] = i; });
  for (;;) {
    const int32_t zero = 0;
    writeValues(exec, changed, &zero, 1);
    parallel_for(exec, bondCount, [=] FRAC_HD(int b) {
      if (broken[b]) return;
      const int32_t i = first[b], j = second[b];
      if (!member(i) || !member(j)) return;
      const int32_t ri = fragmentRoot(key, i), rj = fragmentRoot(key, j);
      if (ri == rj) return;
      atomicMinInt(&key[ri > rj ? ri : rj], ri < rj ? ri : rj);
      atomicStoreInt(changed, 1);
    });
    parallel_for(exec, n, [=] FRAC_HD(int i) { atomicStoreInt(&key[i], fragmentRoot(key, i)); });
    int32_t again = 0;
    readValues(exec, &again, changed, 1);
    if (!again) break;
  }
}

// The box of drawn centres, largest radius and largest body speed over instances added one by one (the summary's
// fields; a body element is one whose kind, materialKind >> 16, is 0).
struct InstanceExtent {
  vec3 lo{3.0e38f}, hi{-3.0e38f};
  float radius = 0.0f, speed = 0.0f;
  FRAC_HD void add(const SphereInstance& s) {
    if (!(s.sphere.w > 0.0f)) return;  // not drawn
    const vec3 centre(s.sphere);
    lo = glm::min(lo, centre);
    hi = glm::max(hi, centre);
    radius = glm::max(radius, s.sphere.w);
    if ((s.materialKind >> 16) == 0) speed = glm::max(speed, s.speed);
  }
};

// The InstanceSummary reduction: 8 int32 in the exec's memory (ordered float bits: lo xyz, hi xyz, max radius,
// max body speed).
constexpr int kInstanceSummaryWords = 8;

// Writes out[i] = instance(i) for i < n and summarises them into `words` (kInstanceSummaryWords in the exec's memory).
// `instance(i)` returns a SphereInstance.
template <class Exec, class Instance>
InstanceSummary writeInstancesSummarised(const Exec& exec, int n, const Instance& instance, SphereInstance* out,
                                         int32_t* words) {
  parallel_for(exec, n, [=] FRAC_HD(int i) { out[i] = instance(i); });
  const InstanceExtent none;
  const int32_t start[kInstanceSummaryWords] = {
      orderedFloatBits(none.lo.x), orderedFloatBits(none.lo.y), orderedFloatBits(none.lo.z),
      orderedFloatBits(none.hi.x), orderedFloatBits(none.hi.y), orderedFloatBits(none.hi.z),
      orderedFloatBits(none.radius), orderedFloatBits(none.speed)};
  writeValues(exec, words, start, kInstanceSummaryWords);
  // A few thousand strided partial reductions, then one atomic per word each: no hot spot on the 8 words.
  const int partials = n < 4096 ? n : 4096;
  parallel_for(exec, partials, [=] FRAC_HD(int c) {
    InstanceExtent extent;
    for (int i = c; i < n; i += partials) extent.add(out[i]);
    for (int k = 0; k < 3; ++k) {
      atomicMinInt(&words[k], orderedFloatBits(extent.lo[k]));
      atomicMaxInt(&words[3 + k], orderedFloatBits(extent.hi[k]));
    }
    atomicMaxInt(&words[6], orderedFloatBits(extent.radius));
    atomicMaxInt(&words[7], orderedFloatBits(extent.speed));
  });
  int32_t result[kInstanceSummaryWords];
  readValues(exec, result, words, kInstanceSummaryWords);
  InstanceSummary summary;
  summary.count = n;
  for (int k = 0; k < 3; ++k) {
    summary.lo[k] = floatFromOrderedBits(result[k]);
    summary.hi[k] = floatFromOrderedBits(result[3 + k]);
  }
  summary.maxRadius = floatFromOrderedBits(result[6]);
  summary.maxBodySpeed = floatFromOrderedBits(result[7]);
  return summary;
}

// Adds instances written on the host (projectiles that move on the host) to a summary.
inline InstanceSummary mergeInstanceSummary(InstanceSummary summary, const SphereInstance* extra, int count) {
  InstanceExtent extent{summary.lo, summary.hi, summary.maxRadius, summary.maxBodySpeed};
  for (int k = 0; k < count; ++k) extent.add(extra[k]);
  summary.lo = extent.lo;
  summary.hi = extent.hi;
  summary.maxRadius = extent.radius;
  summary.maxBodySpeed = extent.speed;
  if (summary.count >= 0) summary.count += count;
  return summary;
}

}  // namespace frac
