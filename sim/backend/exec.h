#pragma once
// Execution policies: a solver step is a sequence of parallel_for(exec, n, f) over plain views.
// CpuExec runs on OpenMP threads with a static schedule: every index is computed by the same code whatever the thread
// count, and nothing is accumulated across indices, so results are bit-identical for any number of threads.
// Small loops run on the calling thread: a parallel region costs more than they do.
#include <omp.h>

namespace frac {

struct CpuExec {
  int threads = 0;  // 0 = all cores
  int resolvedThreads() const { return threads > 0 ? threads : omp_get_max_threads(); }
};

template <class F>
void parallel_for(const CpuExec& exec, int n, F&& f) {
  const int threads = exec.resolvedThreads();
#pragma omp parallel for schedule(static) num_threads(threads) if (n >= 4096)
  for (int i = 0; i < n; ++i) f(i);
}

}  // namespace frac
