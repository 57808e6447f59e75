// PeridynamicsSolver's state besides its arrays, for checkpoints (Solver::saveState): the grips' centres, the
// projectiles' launches and masses, and the contact list's state.
#include "io/checkpoint_file.h"
#include "solvers/peridynamics/pd_solver.h"

namespace frac {

template <class Io>
void PeridynamicsSolver::checkpointFields(Io& io) {
  grips_.checkpointFields(io, "pd/grip_centres");
  io.field("pd/projectile_launch", projectileLaunch_);
  io.field("pd/projectile_material", projectileMaterial_);
  io.field("pd/projectile_mass", projectileMass_);
  io.field("pd/list_position", listPosition_);
  io.field("pd/list_valid", listValid_);
  io.field("pd/skin", skin_);
  io.field("pd/params", params_);
}

void PeridynamicsSolver::saveExtra(CheckpointWriter& out) const {
  CheckpointSave io{out};
  const_cast<PeridynamicsSolver*>(this)->checkpointFields(io);  // writes only
}

void PeridynamicsSolver::restoreExtra(const CheckpointReader& in) {
  CheckpointLoad io{in};
  checkpointFields(io);
  // The slots as the file has them may be another layout's (a device run's, or a file from before the CPU's own):
  // laid out again for where the passes run, from the families and the per-bond state.
  PdArrays& a = arrays_.edit();
  a.bonds.slotGroupShift = -1;
  arrangeForcePass(a, forcePass(), slotGroupShift());
}

}  // namespace frac
