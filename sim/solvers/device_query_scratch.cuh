#pragma once
// QueryScratch (query_scratch.h) in device memory, for a device mirror of n elements.
#include "backend/cuda/device_arena.cuh"
#include "solvers/query_scratch.h"

namespace frac {

inline QueryScratch allocateQueryScratch(DeviceArena& arena, int n) {
  QueryScratch s;
  s.fragmentKey = arena.allocate<int32_t>(size_t(n));
  s.changed = arena.allocate<int32_t>(1);
  s.summaryWords = arena.allocate<int32_t>(kInstanceSummaryWords);
  s.statsPartial = arena.allocate<StatsTerms>(kStatsChunks);
  s.pickPartial = arena.allocate<SphereHit>(kPickChunks);
  return s;
}

}  // namespace frac
