#pragma once
// The FEM step's parameters, one struct for every exec (fem_step.h stepStages; the host sets them each step in
// fem_solver.cpp).
#include "core/math.h"

namespace frac {

struct FemStepParams {
  float dt = 1e-6f;
  vec3 gravity{0.0f, -9.81f, 0.0f};
  float damping = 0.0f;  // mass-proportional damping, 1/s (0: none; quasi-static tests)
  float viscosityQuadratic = 1.5f, viscosityLinear = 0.06f;  // alpha1, alpha2 of eq. 14
  bool meshContact = false;  // the debris contacts (set by the host once anyDebris is)
  bool bodyContact = false;  // node-to-surface contact between pieces (set at load for two or more, or with debris)
  bool labelCheck = false;   // this step relabels the pieces if a tetrahedron failed (every 16 steps: fem_pieces.h)
  float largestRadius = 0.0f;  // of the particles
  FRAC_HD bool contactStages() const { return meshContact || bodyContact; }
};

}  // namespace frac
