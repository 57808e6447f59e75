#pragma once
// The aggregates of rod-bonded DEM's two-level preconditioner (rbdem_coarse.h), built on the host from the element
// positions and bonds as they are when the scene is prepared (and again when bonds or elements are added).
#include "solvers/bdem/bdem_arrays.h"

namespace frac::rbdem {

// At most this many aggregates (6 coarse unknowns each): the coarse factor is one thread's work once a step.
constexpr int kMaxAggregates = 64;

// Elements with bonds that the step solves for, grouped per body into cubic cells of at least 3 element diameters
// (grown until there are at most kMaxAggregates), ordered along the bodies' longest extent so that the coarse
// matrix's envelope stays narrow; the coarse blocks and their entries from the bonds; the coarse work space sized.
void buildAggregates(BdemArrays& a);
// No coarse space (every other preconditioner).
void clearAggregates(RbdemSolveArrays& s);

}  // namespace frac::rbdem
