// backend/exec_memory.h on the CPU: the exclusive scan the multi-pass algorithms (fracture surfaces) build on gives the
// serial prefix sums on any thread count, with the total after the last entry.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "backend/exec_memory.h"

using namespace frac;

TEST_CASE("exclusive scan: the serial prefix sums and total on 1, 2 and 3 threads, int32 and int64") {
  for (int n : {0, 1, 7, 5000, 100003}) {
    std::vector<int32_t> in(size_t(n) + 1);
    std::vector<int64_t> wide(size_t(n) + 1);
    uint32_t x = 12345u;
    for (int i = 0; i < n; ++i) {
      x = x * 1664525u + 1013904223u;
      in[i] = int32_t(x >> 28);
      wide[i] = int64_t(x) << 8;
    }
    std::vector<int64_t> expected(size_t(n) + 1, 0);
    for (int i = 0; i < n; ++i) expected[i + 1] = expected[i] + in[i];
    for (int threads : {1, 2, 3}) {
      CAPTURE(n);
      CAPTURE(threads);
      CpuExec exec{threads};
      exec.minParallel = 16;
      std::vector<int32_t> out(size_t(n) + 1, -1);
      const int32_t total = scanWithTotal(exec, in.data(), out.data(), n);
      CHECK(total == expected[n]);
      bool same = true;
      for (int i = 0; i <= n; ++i) same = same && out[i] == expected[i];
      CHECK(same);
      std::vector<int64_t> outWide(size_t(n) + 1, -1);
      int64_t wideTotal = scanWithTotal(exec, wide.data(), outWide.data(), n), running = 0;
      for (int i = 0; i < n; ++i) {
        same = same && outWide[i] == running;
        running += wide[i];
      }
      CHECK(same);
      CHECK(wideTotal == running);
    }
  }
}
