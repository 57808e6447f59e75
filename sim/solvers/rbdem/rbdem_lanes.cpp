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

void rodProductsLanes(const CpuExec& exec, const BdemViews& v, const RbdemStepParams* projectiles) {
  const RbdemSolveView sv = v.solve;
  const int bonds = v.bonds.count, blocks = rodWordBlocks(bonds);
  const int chunks = projectiles ? v.projectileCount * kProjectileChunks : 0;
  const RbdemStepParams p = projectiles ? *projectiles : RbdemStepParams{};
  parallel_for(exec, blocks + chunks, [=](int k) {
    if (k >= blocks) {  // a projectile's chunk, after the blocks (a chunk costs about what a block does)
      projectileChunkPass(v, p, k - blocks, sv.directionX);
      return;
    }
    const RodWordBlock& block = v.rods.jacobian[k];
    const int first = k * kRodWordLanes, count = bonds - first < kRodWordLanes ? bonds - first : kRodWordLanes;
    int ends[2][kRodWordLanes];  // the lanes' elements i and j; a short last block repeats its first bond
    for (int lane = 0; lane < kRodWordLanes; ++lane) {
      const int b = first + (lane < count ? lane : 0);
      ends[0][lane] = v.bonds.first[b];
      ends[1][lane] = v.bonds.second[b];
    }
    // Each unknown's 8 lanes built in registers (dofsToArray's order: x_i, q_i, x_j, q_j): 8 scalar stores and a
    // vector load of them from the stack would stall on store forwarding, an eighth of this loop's time.
    auto lanes = [](auto value) -> Lanes {
      return Lanes{value(0), value(1), value(2), value(3), value(4), value(5), value(6), value(7)};
    };
    Lanes in[14], out[14];
    for (int end = 0; end < 2; ++end) {
      const int* e = ends[end];
      for (int c = 0; c < 3; ++c) in[7 * end + c] = lanes([&](int l) { return sv.directionX[e[l]][c]; });
      for (int c = 0; c < 4; ++c) in[7 * end + 3 + c] = lanes([&](int l) { return sv.directionQ[e[l]][c]; });
    }
    float result[14][kRodWordLanes];  // by unknown, then lane
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
