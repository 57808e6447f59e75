#pragma once
// The scratch a solver's queries (writeInstances, stats, castRay) need in the exec's memory, the same for every
// method: fragment keys, the summary words, partial sums and partial hits. HostQueryScratch owns it in host memory
// for one query; a device mirror allocates it once (device_query_scratch.cuh).
#include <cstdint>
#include <vector>

#include "solvers/element_instances.h"
#include "solvers/ray_pick.h"
#include "solvers/solver_stats.h"

namespace frac {

struct QueryScratch {
  int32_t* fragmentKey = nullptr;    // n
  int32_t* changed = nullptr;        // 1
  int32_t* summaryWords = nullptr;   // kInstanceSummaryWords
  StatsTerms* statsPartial = nullptr;  // kStatsChunks
  SphereHit* pickPartial = nullptr;    // kPickChunks
};

class HostQueryScratch {
 public:
  explicit HostQueryScratch(int n)
      : fragmentKey_(size_t(n)), summaryWords_(kInstanceSummaryWords), statsPartial_(kStatsChunks),
        pickPartial_(kPickChunks) {}
  QueryScratch view() {
    return QueryScratch{fragmentKey_.data(), &changed_, summaryWords_.data(), statsPartial_.data(),
                        pickPartial_.data()};
  }

 private:
  std::vector<int32_t> fragmentKey_, summaryWords_;
  int32_t changed_ = 0;
  std::vector<StatsTerms> statsPartial_;
  std::vector<SphereHit> pickPartial_;
};

}  // namespace frac
