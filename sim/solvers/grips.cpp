#include "solvers/grips.h"

#include "geometry/shapes.h"
#include "io/scene_error.h"
#include "solvers/solver_common.h"

namespace frac {

void Grips::load(const SceneDesc& scene, const std::string& method, bool ownBodies, bool turning) {
  grips_.clear();
  for (size_t k = 0; k < scene.kinematics.size(); ++k) {
    const KinematicDesc& kin = scene.kinematics[k];
    if ((!kin.grip && !ownBodies) || (!turning && kin.angularVelocity != vec3(0.0f)))
      throw SceneError(scene.path + ": /kinematics/" + std::to_string(k) + ": " + method +
                       " takes kinematics as grips only: expected \"grip\": true and no angular_velocity");
    grips_.push_back(Grip{kin.name, kin.velocity, kin.angularVelocity, kin.transform.position,
                          kin.transform.position, kin.start, kin.stop, slideAxes(kin.hold)});
  }
}

std::vector<vec3> Grips::slideMasks() const {
  std::vector<vec3> masks(grips_.size(), vec3(0.0f));
  for (size_t k = 0; k < grips_.size(); ++k)
    for (int a = 0; a < 3; ++a)
      if (grips_[k].slideAxes & (1 << a)) masks[k][a] = 1.0f;
  return masks;
}

std::vector<int16_t> Grips::assign(const SceneDesc& scene, const std::vector<vec3>& points) const {
  if (grips_.empty()) return {};
  std::vector<int16_t> drivenBy(points.size(), -1);
  const std::string baseDir = sceneDirectory(scene);
  for (size_t k = 0; k < scene.kinematics.size(); ++k) {
    const KinematicDesc& kin = scene.kinematics[k];
    if (!kin.grip) continue;  // a body of its own
    const auto shape = makeShape(kin.shape, baseDir);
    for (size_t i = 0; i < points.size(); ++i)
      if (drivenBy[i] < 0 && placedShapeContains(kin, *shape, points[i])) drivenBy[i] = int16_t(k);
  }
  return drivenBy;
}

void Grips::advance(double time, double dt, std::vector<vec3>& velocities) {
  velocities.resize(grips_.size());
  const double mid = time + 0.5 * dt;
  for (size_t k = 0; k < grips_.size(); ++k) {
    Grip& g = grips_[k];
    velocities[k] = mid >= g.start && mid < g.stop ? g.velocity : vec3(0.0f);
    g.centre += float(dt) * velocities[k];
  }
}

void Grips::advance(double time, double dt, std::vector<vec3>& velocities, std::vector<vec3>& spins,
                    std::vector<vec3>& centres) {
  centres.resize(grips_.size());
  spins.resize(grips_.size());
  for (size_t k = 0; k < grips_.size(); ++k) centres[k] = grips_[k].centre;
  advance(time, dt, velocities);
  const double mid = time + 0.5 * dt;
  for (size_t k = 0; k < grips_.size(); ++k)
    spins[k] = mid >= grips_[k].start && mid < grips_[k].stop ? grips_[k].spin : vec3(0.0f);
}

int Grips::find(const std::string& name) const {
  for (size_t k = 0; k < grips_.size(); ++k)
    if (grips_[k].name == name) return int(k);
  return -1;
}

KinematicLoad Grips::loadOn(int k, const vec3& force, const vec3& moment, double time) const {
  const Grip& g = grips_.at(size_t(k));
  KinematicLoad load = loadAgainstMotion(g.velocity, g.centre, g.initialCentre, force);
  addTurning(load, g.spin, g.start, g.stop, time, moment);
  return load;
}

}  // namespace frac
