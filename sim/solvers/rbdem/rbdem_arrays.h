#pragma once
// The arrays Rod-Bonded DEM (Zhang et al.) adds to BDEM's (bdem_arrays.h holds them as two more groups, empty while
// the method is bdem): the rod rest state per bond, and the work space of the implicit step (eq. 12 solved by one
// Gauss-Newton step with Jacobi-preconditioned CG, Algorithm 1). Named once in the lists below, like every array.
#include <cstdint>
#include <vector>

#include "kernels/block7.h"
#include "kernels/rbdem_coarse_modes.h"
#include "kernels/rbdem_contact.h"
#include "kernels/rbdem_rod.h"
#include "kernels/rbdem_rod_product.h"
#include "solvers/state_arrays.h"

namespace frac {

// The CG's scalars, where its vectors are (one entry in the solve group): the dot products are summed there in a
// fixed tree (fixed_tree_sum.h) and alpha, beta and the stopping test are taken there, so a device runs iterations
// without sending anything back; the host reads this entry every few iterations to learn whether the solve stopped.
struct CgState {
  double rz = 0.0;    // r . z of the current residual
  double stop = 0.0;  // the solve stops once r . z is at most this (tolerance^2 times the first r . z)
  double warmCurvature = 0.0;  // s^T H s of the last step's correction s (warmStart)
  float alpha = 0.0f, beta = 0.0f;
  int32_t iterations = 0;
  int32_t running = 0;  // 1 while iterating
};

// A projectile's contacts with the grid elements, summed per chunk (as BDEM's, bdem_arrays.h kProjectileChunks).
struct RodProjectilePartial {
  vec3 value;     // gradient, or Hessian times the direction
  vec3 diagonal;  // the Jacobi preconditioner's share
};

// Per bond (the bond list's order): rest data and the linearisation of the current Gauss-Newton step (jacobian:
// rodWordBlocks(bonds) blocks, kernels/rbdem_rod_product.h).
#define FRAC_RBDEM_ROD_ARRAYS(X)                                                                           \
  X(const RodRest, rest, Constant, false)                                                                  \
  X(RodWordBlock, jacobian, Scratch, false) /* Jacobians and l C at the linearisation point, 8 bonds a block */ \
  X(RodDofs, out, Scratch, false)          /* this bond's gradient, or Hessian times the CG direction */   \
  X(RodDofs, diagonal, Scratch, false)     /* its share of the Hessian's diagonal (the Jacobi preconditioner) */

// Per element: the start of the step, the CG vectors over the 7 unknowns (x, q) of every element, and the barrier
// contacts found at the prediction (slots per element, as BDEM's contact slots).
#define FRAC_RBDEM_SOLVE_ARRAYS(X)                                                                         \
  X(vec3, startPosition, Scratch, false)  /* x^(n) */                                                      \
  X(vec3, startPositionLow, Scratch, false)  /* its low part (BdemElementView::positionLow) */              \
  X(quat, startOrientation, Scratch, false)  /* q^(n) */                                                   \
  X(glm::vec4, torqueParameter, Scratch, false) /* -dE/dq of bonds (eq. 27), for torques and the solve */ \
  X(float, hydrostatic, Scratch, false)   /* tensile hydrostatic stress of eq. 32 */                      \
  X(vec3, residualX, Scratch, false)                                                                       \
  X(glm::vec4, residualQ, Scratch, false)                                                                  \
  X(vec3, preconditionedX, Scratch, false)                                                                 \
  X(glm::vec4, preconditionedQ, Scratch, false)                                                            \
  X(vec3, directionX, Scratch, false)                                                                      \
  X(glm::vec4, directionQ, Scratch, false)                                                                 \
  X(vec3, productX, Scratch, false)                                                                        \
  X(glm::vec4, productQ, Scratch, false)                                                                   \
  X(vec3, stepX, State, true)  /* the step's correction dx; kept as the next step's first guess */        \
  X(glm::vec4, stepQ, State, true)                                                                         \
  X(vec3, barrierDiagonal, Scratch, false) /* the barriers' share of the Hessian's diagonal (force pass) */ \
  X(Block7, preconditioner, Scratch, false) /* block: M^-1 of the element's unknowns (residualStage) */    \
  X(vec3, inverseDiagonalX, Scratch, false) /* jacobi: M^-1; 0 for fixed unknowns */                      \
  X(glm::vec4, inverseDiagonalQ, Scratch, false)                                                           \
  X(int32_t, contactPartner, Scratch, false) /* slots per element; kNoPartner ends the list */             \
  X(BarrierBlock, contactBlock, Scratch, false)                                                            \
  X(RodProjectilePartial, projectilePartials, Scratch, false) /* kProjectileChunks per projectile */       \
  X(float, terms, Scratch, false)     /* a device's per-element dot-product terms (passWithTreeSum) */     \
  X(double, partials, Scratch, false) /* the dot products' partial sums, treeSumPartials(elements) */     \
  X(CgState, cg, Scratch, false)      /* one entry */                                                  \
  FRAC_RBDEM_COARSE_ARRAYS(X)

// The two-level preconditioner's coarse space (rbdem_coarse.h; empty unless pcg_preconditioner is two_level): the
// aggregates (rbdem_aggregates.h builds them on the host from the bonds), the coarse matrix's 6x6 blocks and which
// bonds' shares each one sums, in a fixed order, and the work space of its assembly and solve.
#define FRAC_RBDEM_COARSE_ARRAYS(X)                                                                        \
  X(const int32_t, aggregateOf, Constant, false)     /* per element; -1: in no aggregate */               \
  X(const int32_t, aggregateStart, Constant, false)  /* aggregates + 1 offsets into aggregateMember */    \
  X(const int32_t, aggregateMember, Constant, false) /* each aggregate's elements, ascending; the first is its reference point */ \
  X(const int32_t, coarseBlockRow, Constant, false)  /* per coarse block: aggregate a of block (a, b), a >= b */ \
  X(const int32_t, coarseBlockColumn, Constant, false)                                                     \
  X(const int32_t, coarseEntryStart, Constant, false) /* coarse blocks + 1 offsets into coarseEntry */     \
  X(const int32_t, coarseEntry, Constant, false) /* bond << 2 | CoarsePart, ascending bond */              \
  X(const int32_t, coarseFirst, Constant, false) /* per coarse row: its first column inside the envelope */ \
  X(CoarseBondBlock, coarseBond, Scratch, false) /* per bond */                                            \
  X(Sym6, coarseOwn, Scratch, false)             /* per element: P^T D P of its own terms */               \
  X(CoarseTerms, coarseTerms, Scratch, false)    /* per element: P^T r of its residual */                  \
  X(double, coarseMatrix, Scratch, false)        /* (6 aggregates)^2, row-major; its Cholesky factor */    \
  X(double, coarseVector, Scratch, false)        /* 6 aggregates: P^T r, then the coarse correction */

struct RbdemRodView {
  float kappa = 5.0f / 6.0f;  // Timoshenko factor of eq. 17 (the stress colour needs it outside a step)
  FRAC_RBDEM_ROD_ARRAYS(FRAC_ARRAY_VIEW_MEMBER)
};
struct RbdemSolveView {
  int aggregates = 0;    // of the two-level preconditioner (0: none)
  int coarseBlocks = 0;  // nonzero 6x6 blocks (a, b), a >= b, of its coarse matrix
  FRAC_RBDEM_SOLVE_ARRAYS(FRAC_ARRAY_VIEW_MEMBER)
};
struct RbdemRodArrays {
  float kappa = 5.0f / 6.0f;
  FRAC_RBDEM_ROD_ARRAYS(FRAC_ARRAY_HOST_MEMBER)
};
struct RbdemSolveArrays {
  FRAC_RBDEM_SOLVE_ARRAYS(FRAC_ARRAY_HOST_MEMBER)
};

FRAC_ARRAY_GROUP_VISITOR(RbdemRodArrays, RbdemRodView, "rods", FRAC_RBDEM_ROD_ARRAYS)
FRAC_ARRAY_GROUP_VISITOR(RbdemSolveArrays, RbdemSolveView, "solve", FRAC_RBDEM_SOLVE_ARRAYS)

}  // namespace frac
