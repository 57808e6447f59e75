#pragma once
// Execution policies: a solver step is a sequence of parallel_for(exec, n, f) over plain views.
// CpuExec runs on OpenMP threads with a static schedule: every index is computed by the same code whatever the thread
// count, and nothing is accumulated across indices, so results are bit-identical for any number of threads.
// Small loops run on the calling thread: a parallel region costs more than they do.
#include <omp.h>

#include <algorithm>
#include <cstdint>

namespace frac {

struct CpuExec {
  int threads = 0;  // 0 = all cores
  // Loops shorter than this run on the calling thread (a parallel region costs more than they do); solvers whose
  // per-index work is large (a peridynamic family of ~100 bonds) lower it.
  int minParallel = 4096;
  int resolvedThreads() const { return threads > 0 ? threads : omp_get_max_threads(); }
};

template <class F>
void parallel_for(const CpuExec& exec, int n, F&& f) {
  const int threads = exec.resolvedThreads();
  // One contiguous block of indices per thread. Indices are independent by contract (that is what makes the loop
  // parallel): ivdep tells the vectoriser so, and the bond pass then runs 8 bonds per AVX2 instruction.
#pragma omp parallel num_threads(threads) if (n >= exec.minParallel)
  {
    const int t = omp_get_thread_num(), count = omp_get_num_threads();
    const int begin = int(int64_t(n) * t / count), end = int(int64_t(n) * (t + 1) / count);
    const auto body = f;  // a private copy: its captured views become loop invariants the vectoriser can hoist
#pragma GCC ivdep
    for (int i = begin; i < end; ++i) body(i);
  }
}

// The blocks parallel_for splits [0, n) into: one per thread, or one where the loop is short.
inline int parallelBlocks(const CpuExec& exec, int n) { return n >= exec.minParallel ? exec.resolvedThreads() : 1; }

// f(block, begin, end) for each of `blocks` contiguous blocks of [0, n), in order of index, one per thread: for host
// loops that fill per-block buffers and join them in block order (the same result for any number of blocks).
template <class F>
void parallel_blocks(int n, int blocks, F&& f) {
#pragma omp parallel for num_threads(blocks) schedule(static, 1) if (blocks > 1)
  for (int b = 0; b < blocks; ++b) f(b, int(int64_t(n) * b / blocks), int(int64_t(n) * (b + 1) / blocks));
}

}  // namespace frac

namespace frac {

// One value in the exec policy's memory (host memory for the CPU), read and written from the host: the flags and
// small results of iterative loops (fragment labelling, instance summaries). CUDA's overloads are in cuda_exec.cuh.
template <class T>
void readValues(const CpuExec&, T* host, const T* source, int count) {
  for (int k = 0; k < count; ++k) host[k] = source[k];
}
template <class T>
void writeValues(const CpuExec&, T* destination, const T* host, int count) {
  for (int k = 0; k < count; ++k) destination[k] = host[k];
}

// solver_stats.h's stridedPartials on the CPU: partial[c] = combine(... combine(zero, term(c)), term(c + chunks) ...)
// over the same indices in the same order, so the same bits; but each thread owns a contiguous range of chunks and
// walks the indices row by row (row * chunks + c for its chunks c), reading its arrays in contiguous runs. The
// generic loop, one chunk after another with a stride of `chunks` indices (right for a GPU's threads side by side),
// touched a new cache line for every index on one core: a million-particle block's 59M bonds took 9 s a statistics
// refresh (2026-12-06).
template <class T, class Term, class Combine>
void stridedPartials(const CpuExec& exec, int n, int chunks, const Term& term, const T& zero, const Combine& combine,
                     T* partial) {
#pragma omp parallel num_threads(exec.resolvedThreads()) if (n >= exec.minParallel)
  {
    const int t = omp_get_thread_num(), count = omp_get_num_threads();
    const int begin = int(int64_t(chunks) * t / count), end = int(int64_t(chunks) * (t + 1) / count);
    for (int c = begin; c < end; ++c) partial[c] = zero;
    for (int64_t row = 0; row < n; row += chunks) {
      const int last = int(std::min<int64_t>(end, n - row));
      for (int c = begin; c < last; ++c) partial[c] = combine(partial[c], term(int(row + c)));
    }
  }
}

}  // namespace frac
