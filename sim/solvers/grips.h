#pragma once
// Grips: scene kinematics with "grip": true that take over the body points (particles, mesh nodes) inside their
// shape and move them at the grip's velocity between its start and stop: clamps for tension and torsion-free
// loading in peridynamics and fem-debris (BDEM's kinematic bodies are rigid element sets of their own). A solver that
// builds the other kinematics as bodies of their own (fem-debris: a mesh whose every node the kinematic moves) loads
// them too; they take over no body's points.
#include <cstdint>
#include <string>
#include <vector>

#include "io/scene_desc.h"
#include "solvers/solver.h"

namespace frac {

class Grips {
 public:
  // The scene's kinematics as grips; a SceneError naming the scene and the kinematic unless each one has, unless
  // `ownBodies`, "grip": true and, unless `turning`, no angular_velocity (`method` names the solver in the message).
  void load(const SceneDesc& scene, const std::string& method, bool ownBodies = false, bool turning = false);
  int size() const { return int(grips_.size()); }

  // For each point, the first grip (with "grip": true) whose shape holds it, or -1; empty when the scene has no
  // kinematics.
  std::vector<int16_t> assign(const SceneDesc& scene, const std::vector<vec3>& points) const;

  // The grips' velocities for the step from `time` to time + dt (a grip moves while the mid-step lies in
  // [start, stop), as BDEM's kinematic bodies), written into `velocities` (one per grip); their centres move along.
  void advance(double time, double dt, std::vector<vec3>& velocities);
  // As above, with each grip's angular velocity (about its centre) and its centre at the start of the step.
  void advance(double time, double dt, std::vector<vec3>& velocities, std::vector<vec3>& spins,
               std::vector<vec3>& centres);

  // Checkpoints: where each grip's centre is now, under `name` (io/checkpoint_file.h's CheckpointSave or Load).
  template <class Io>
  void checkpointFields(Io& io, const std::string& name) {
    std::vector<vec3> centres;
    for (const Grip& g : grips_) centres.push_back(g.centre);
    io.field(name, centres);
    if (centres.size() != grips_.size())
      io.mismatch(std::to_string(centres.size()) + " grips, the scene has " + std::to_string(grips_.size()));
    for (size_t k = 0; k < grips_.size(); ++k) grips_[k].centre = centres[k];
  }
  // Per grip, 1 on the world axes its points slide along ("hold": "roller_x" one, "axial_x" the two across x ...),
  // 0 elsewhere: the coordinates the step integrates rather than prescribes (prescribedOrFree).
  std::vector<vec3> slideMasks() const;
  // The grip called `name`; -1 when there is none.
  int find(const std::string& name) const;
  // The load on grip k from the sum of the forces its points receive and their moment about centre(k), at `time`, as
  // a load cell reads it.
  KinematicLoad loadOn(int k, const vec3& force, const vec3& moment, double time) const;
  vec3 centre(int k) const { return grips_.at(size_t(k)).centre; }

 private:
  struct Grip {
    std::string name;
    vec3 velocity{0.0f}, spin{0.0f}, initialCentre{0.0f}, centre{0.0f};
    double start = 0.0, stop = 1e30;
    int slideAxes = 0;  // bit a: free along world axis a (slideAxes(KinematicHold))
  };
  std::vector<Grip> grips_;
};

}  // namespace frac
