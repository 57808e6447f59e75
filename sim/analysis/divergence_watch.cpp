#include "analysis/divergence_watch.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/render_frame.h"

namespace frac {
namespace {

constexpr double kMargin = 10.0;  // the kinetic energy may reach this many times what the scene can supply
constexpr double kUnstableStep = 2.0;   // dt above this many stable steps: torn bonds count as divergence
constexpr double kTornFraction = 0.1;   // of the bonds intact at the last check

}  // namespace

double ballKineticEnergy(float density, float radius, const vec3& velocity) {
  const double mass = double(density) * 4.0 / 3.0 * kPi * double(radius) * radius * radius;
  return 0.5 * mass * double(glm::dot(velocity, velocity));
}

DivergenceWatch::DivergenceWatch(Simulation& sim, double thrownEnergy) {
  const SceneDesc& scene = sim.scene();
  const bool bonded = scene.solver.method == "bdem" || scene.solver.method == "rbdem";
  // Kinematic bodies do unbounded work; so do the projectiles of peridynamics (unless dynamic) and fem-debris,
  // and the balls thrown into them, which keep their velocity whatever resists them.
  watchEnergy_ = scene.kinematics.empty() && (bonded || thrownEnergy == 0.0);
  const SimStats start = sim.stats();
  explicitStep_ = !(scene.solver.method == "rbdem" && scene.solver.integration == RodIntegration::Implicit);
  intactBonds_ = start.bondsIntact;
  checkedStep_ = start.steps;
  supplied_ = start.kineticEnergy + start.elasticEnergy + thrownEnergy;
  for (const ProjectileDesc& p : scene.projectiles) {
    if (!bonded && !(scene.solver.method != "fem-debris" && p.dynamic)) watchEnergy_ = false;
    const int m = scene.materialIndex(p.material);
    const float density = m >= 0 ? scene.materials[size_t(m)].density : 0.0f;
    supplied_ += ballKineticEnergy(density, p.radius, p.velocity);
  }
  // Gravity's work: the free mass falling from the highest free element down to the lowest plane that stops it.
  mass_ = sim.solver().freeMass();
  gravity_ = double(glm::length(scene.solver.gravity));
  const vec3 down = gravity_ > 0.0 ? scene.solver.gravity / float(gravity_) : vec3(0.0f, -1.0f, 0.0f);
  RenderFrame frame;
  sim.solver().writeFrame(frame, false);
  double highest = -1e300;
  for (size_t i = 0; i < frame.spheres.size(); ++i) {
    if (frame.kind[i] == ElementKind::Kinematic) continue;
    fastest_ = std::max(fastest_, double(frame.speed[i]));
    highest = std::max(highest, -double(glm::dot(vec3(frame.spheres[i]), down)));
  }
  double lowestPlane = 1e300;  // height (against gravity) of the lowest plane that stops a fall
  for (const PlaneDesc& plane : scene.planes)
    if (glm::dot(plane.normal, down) < -0.5f) lowestPlane = std::min(lowestPlane, -double(glm::dot(plane.point, down)));
  freeFall_ = gravity_ > 0.0 && (lowestPlane > 1e299 || highest < lowestPlane);
  if (!freeFall_ && highest > -1e299) supplied_ += mass_ * gravity_ * std::max(0.0, highest - lowestPlane);
}

double DivergenceWatch::energyBound(double time) const {
  double supplied = supplied_;
  if (freeFall_) supplied += 0.5 * mass_ * (fastest_ + gravity_ * time) * (fastest_ + gravity_ * time);
  return kMargin * std::max(supplied, 1e-30);
}

std::optional<std::string> DivergenceWatch::check(Simulation& sim) {
  const SimStats s = sim.stats();
  char head[256];
  std::snprintf(head, sizeof head, "the run diverged at step %lld (t = %.6g s) with dt %.3g s (stable step %.3g s): ",
                s.steps, s.time, sim.dt(), sim.solver().stableDt());
  const char* advice = "; lower solver.dt or solver.safety";
  if (!std::isfinite(s.kineticEnergy) || !std::isfinite(s.elasticEnergy)) {
    RenderFrame frame;
    sim.solver().writeFrame(frame, false);
    std::string where = "its energies are not finite";
    for (size_t i = 0; i < frame.spheres.size(); ++i) {
      const glm::vec4& e = frame.spheres[i];
      if (std::isfinite(e.x) && std::isfinite(e.y) && std::isfinite(e.z) && std::isfinite(frame.speed[i])) continue;
      where += "; element " + std::to_string(i) + " is the first whose position or speed is not finite";
      break;
    }
    return head + where + advice;
  }
  const long long torn = intactBonds_ - s.bondsIntact, since = checkedStep_;
  const double stepRatio = sim.dt() / sim.solver().stableDt();
  const bool tornApart = explicitStep_ && stepRatio > kUnstableStep && intactBonds_ > 0 &&
                         double(torn) > kTornFraction * double(intactBonds_);
  intactBonds_ = s.bondsIntact;
  checkedStep_ = s.steps;
  if (tornApart) {
    char body[256];
    std::snprintf(body, sizeof body,
                  "at %.3g times its stable step, %lld of its %lld intact bonds (%.0f%%) broke since step %lld: the "
                  "stiffest modes grew until they tore the bonds",
                  stepRatio, torn, torn + s.bondsIntact, 100.0 * double(torn) / double(torn + s.bondsIntact), since);
    return head + std::string(body) + advice;
  }
  if (!watchEnergy_) return std::nullopt;
  const double bound = energyBound(s.time);
  if (s.kineticEnergy <= bound) return std::nullopt;
  char body[256];
  std::snprintf(body, sizeof body,
                "its kinetic energy %.4g J is more than ten times the %.4g J the scene can supply (start energy, "
                "projectiles, gravity)",
                s.kineticEnergy, bound / kMargin);
  return head + std::string(body) + advice;
}

}  // namespace frac
