#pragma once
// The pieces of the meshes: nodes joined by intact tetrahedra, each node labelled with its piece's lowest node index (a
// debris particle, with no intact tetrahedron, is a piece of its own). Contact between bodies (fem_contact_stages.h)
// acts between different pieces, so the pieces of one body collide once a crack has gone through it. Departure: the
// paper (sec. 3.3) has contact between bodies and with the debris; a body's own pieces passing through each other is
// not what it shows.
//
// The labelling is min-label propagation with pointer jumping (label <- min(label[label], labels over intact
// tetrahedra)), Jacobi sweeps until none changes: deterministic on every backend. It runs at load and, from a step
// whose params ask (every 16 steps), when a tetrahedron failed since the last labelling (pieceWords[0], set by the
// stress pass): a piece that split is labelled apart at most 16 steps late.
#include "backend/atomics.h"
#include "backend/exec.h"
#include "solvers/fem/fem_arrays.h"

namespace frac::fem {

template <class Exec>
void labelPieces(const Exec& exec, const FemViews& v) {
  const FemNodeView n = v.nodes;
  const FemTetView t = v.tets;
  int32_t* words = v.pieceWords;
  parallel_for(exec, n.count, [=] FRAC_HD(int i) { n.piece[i] = i; });
  for (int sweep = 0; sweep < n.count; ++sweep) {  // converges in a few tens of sweeps; n bounds it
    parallel_for(exec, 1, [=] FRAC_HD(int) { words[1] = 0; });
    parallel_for(exec, n.count, [=] FRAC_HD(int i) {
      const int32_t own = n.piece[i];
      int32_t lowest = n.piece[own] < own ? n.piece[own] : own;  // pointer jumping
      for (int c = n.cornerStart[i]; c < n.cornerStart[i + 1]; ++c) {
        const int e = n.corner[c] / 4;
        if (t.failed[e]) continue;
        for (int k = 0; k < 4; ++k) {
          const int32_t other = n.piece[t.corners[e].node[k]];
          lowest = other < lowest ? other : lowest;
        }
      }
      n.pieceNext[i] = lowest;
      if (lowest != own) atomicStoreInt(&words[1], 1);
    });
    parallel_for(exec, n.count, [=] FRAC_HD(int i) { n.piece[i] = n.pieceNext[i]; });
    int32_t changed = 0;
    readValues(exec, &changed, words + 1, 1);
    if (!changed) break;
  }
  parallel_for(exec, 1, [=] FRAC_HD(int) { words[0] = 0; });
}

// At the start of a step that checks: labelled anew when a tetrahedron failed since the last labelling.
template <class Exec>
void relabelPiecesIfSplit(const Exec& exec, const FemViews& v) {
  int32_t failed = 0;
  readValues(exec, &failed, v.pieceWords, 1);
  if (failed) labelPieces(exec, v);
}

}  // namespace frac::fem
