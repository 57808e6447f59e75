// BdemSolver's state besides its arrays, for checkpoints (Solver::saveState): the kinematic bodies' poses, the
// elements' start positions (probes), the projectiles' launches, the surfaces' samples and the Verlet list's state.
#include <stdexcept>

#include "io/checkpoint_file.h"
#include "solvers/bdem/bdem_solver.h"

namespace frac {

template <class Io>
void BdemSolver::checkpointFields(Io& io) {
  const size_t bodies = kinematicBodies_.size();
  std::vector<vec3> centre, initialCentre, velocity, angularVelocity;
  std::vector<quat> orientation;
  std::vector<double> start, stop, travel;
  for (const KinematicBody& b : kinematicBodies_) {
    travel.insert(travel.end(), b.travel, b.travel + 3);
    centre.push_back(b.centre);
    initialCentre.push_back(b.initialCentre);
    orientation.push_back(b.orientation);
    velocity.push_back(b.velocity);
    angularVelocity.push_back(b.angularVelocity);
    start.push_back(b.start);
    stop.push_back(b.stop);
  }
  io.field("bdem/kinematic/centre", centre);
  io.field("bdem/kinematic/initial_centre", initialCentre);
  io.field("bdem/kinematic/orientation", orientation);
  io.field("bdem/kinematic/velocity", velocity);
  io.field("bdem/kinematic/angular_velocity", angularVelocity);
  io.field("bdem/kinematic/start", start);
  io.field("bdem/kinematic/stop", stop);
  io.field("bdem/kinematic/travel", travel);
  for (const size_t n : {centre.size(), initialCentre.size(), orientation.size(), velocity.size(),
                         angularVelocity.size(), start.size(), stop.size(), travel.size() / 3})
    if (n != bodies) io.mismatch(std::to_string(n) + " kinematic bodies, the scene has " + std::to_string(bodies));
  for (size_t b = 0; b < bodies; ++b) {
    KinematicBody& body = kinematicBodies_[b];
    body.centre = centre[b];
    body.initialCentre = initialCentre[b];
    body.orientation = orientation[b];
    body.velocity = velocity[b];
    body.angularVelocity = angularVelocity[b];
    body.start = start[b];
    body.stop = stop[b];
    for (int c = 0; c < 3; ++c) body.travel[c] = travel[3 * b + c];
  }
  io.field("bdem/initial_position", initialPosition_);
  io.field("bdem/bonded_body", bondedBody_);
  io.field("bdem/launch_time", launchTime_);
  io.field("bdem/launch_velocity", launchVelocity_);
  io.field("bdem/samples/start", samples_.start);
  io.field("bdem/samples/point", samples_.point);
  io.field("bdem/samples/normal", samples_.normal);
  io.field("bdem/list_position", listPosition_);
  io.field("bdem/list_valid", listValid_);
  io.field("bdem/params", params_);
}

void BdemSolver::saveExtra(CheckpointWriter& out) const {
  CheckpointSave io{out};
  const_cast<BdemSolver*>(this)->checkpointFields(io);  // writes only
}

void BdemSolver::restoreExtra(const CheckpointReader& in) {
  CheckpointLoad io{in};
  checkpointFields(io);
}

}  // namespace frac
