// FemSolver's state besides its arrays, for checkpoints (Solver::saveState): the nodes' drawn radii, the balls'
// launches, the grips' and kinematics' centres, which bodies are kinematic, and the step parameters the host switches
// on (the debris contacts). The split surface's cache (split points, debris frames) starts afresh after a resume.
#include "io/checkpoint_file.h"
#include "solvers/fem/fem_solver.h"

namespace frac {

template <class Io>
void FemSolver::checkpointFields(Io& io) {
  grips_.checkpointFields(io, "fem/grip_centres");
  io.field("fem/node_radius", nodeRadius_);
  io.field("fem/projectile_launch", projectileLaunch_);
  io.field("fem/projectile_material", projectileMaterial_);
  io.field("fem/kinematic_body", kinematicBody_);
  io.field("fem/params", params_);
}

void FemSolver::saveExtra(CheckpointWriter& out) const {
  CheckpointSave io{out};
  const_cast<FemSolver*>(this)->checkpointFields(io);  // writes only
}

void FemSolver::restoreExtra(const CheckpointReader& in) {
  CheckpointLoad io{in};
  checkpointFields(io);
  splitSurface_.reset();
}

}  // namespace frac
