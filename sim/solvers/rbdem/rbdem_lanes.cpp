// The CG's bond products on the CPU, 8 bonds at a time: rodProductWords (kernels/rbdem_rod_product.h) over a GCC
// vector of 8 floats, so each operation of the formula is one AVX2 instruction for a whole block of bonds. Each lane
// rounds exactly as the one-bond float version does (no fused multiply-add: -ffp-contract=off and -mno-fma), so the
// results are the bits every other backend computes.
#include "solvers/rbdem/rbdem_step.h"

namespace frac::rbdem {

namespace {

// 8 floats in one AVX2 register (naturally aligned: the values the formula works on, and its template argument), and
// the same vector read from or written to memory that is only float-aligned (a block's word, a gathered row):
// may_alias and 4-byte alignment. (A template argument drops a typedef's attributes, so the formula's T must be the
// aligned type: locals declared with the unaligned one were 4-byte aligned and read as 32-byte aligned, which UBSan
// reported once the stack laid them out so.)
typedef float Lanes __attribute__((vector_size(sizeof(float) * kRodWordLanes)));
typedef float LanesInMemory
    __attribute__((vector_size(sizeof(float) * kRodWordLanes), aligned(sizeof(float)), may_alias));

}  // namespace

void rodProductsLanes(const CpuExec& exec, const BdemViews& v) {
  const RbdemSolveView sv = v.solve;
  const int bonds = v.bonds.count;
  parallel_for(exec, rodWordBlocks(bonds), [=](int k) {
    const RodWordBlock& block = v.rods.jacobian[k];
    const int first = k * kRodWordLanes, count = bonds - first < kRodWordLanes ? bonds - first : kRodWordLanes;
    float gathered[14][kRodWordLanes], result[14][kRodWordLanes];  // by unknown, then lane
    for (int lane = 0; lane < kRodWordLanes; ++lane) {  // a short last block repeats its first bond
      const int b = first + (lane < count ? lane : 0), i = v.bonds.first[b], j = v.bonds.second[b];
      float one[14];
      dofsToArray(RodDofs{sv.directionX[i], sv.directionQ[i], sv.directionX[j], sv.directionQ[j]}, one);
      for (int u = 0; u < 14; ++u) gathered[u][lane] = one[u];
    }
    Lanes in[14], out[14];
    for (int u = 0; u < 14; ++u) in[u] = *reinterpret_cast<const LanesInMemory*>(gathered[u]);
    rodProductWords<Lanes>([&](int w) -> Lanes { return *reinterpret_cast<const LanesInMemory*>(block.word[w]); }, in,
                           out);
    for (int u = 0; u < 14; ++u) *reinterpret_cast<LanesInMemory*>(result[u]) = out[u];
    for (int lane = 0; lane < count; ++lane) {
      const int b = first + lane;
      if (v.bonds.broken[b]) continue;  // (its slot is never read)
      float one[14];
      for (int u = 0; u < 14; ++u) one[u] = result[u][lane];
      v.rods.out[b] = dofsFromArray(one);
    }
  });
}

}  // namespace frac::rbdem
