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
  // The file's slots are in the layout of the run that wrote it, the CPU's or the device's (every file from before
  // 2026-12-06): their group tables differ in length (n + 1 entries, or one per 32 particles + 1). Laid out again, from
  // the families and the per-bond state, where the passes now run elsewhere.
  PdArrays& a = arrays_.edit();
  const size_t particles = size_t(a.particles.size());
  a.bonds.slotGroupShift = a.bonds.groupStart.size() == particles + 1 ? kCpuSlotGroupShift : kDeviceSlotGroupShift;
  arrangeForcePass(a, forcePass(), slotGroupShift());
}

}  // namespace frac
