// Solver::castRay (solvers/ray_pick.h): the element a ray enters first, picked where the state lives, against a
// brute-force pass over the frame's spheres with the ray-sphere entry of closed-form geometry.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "io/scene_loader.h"
#include "solvers/simulation.h"

using namespace frac;

namespace {

// |o + t d - c| = r for the smaller root t > 0, solved in double; the nearest sphere (ties: the smaller index).
struct Expected {
  int element = -1;
  double distance = 0.0;
};

Expected bruteForce(const RenderFrame& frame, const vec3& origin, const vec3& direction) {
  Expected best;
  for (size_t i = 0; i < frame.elementCount(); ++i) {
    const glm::dvec4 s = frame.spheres[i];
    if (s.w <= 0.0) continue;
    const glm::dvec3 c = glm::dvec3(s) - glm::dvec3(origin), d = glm::dvec3(direction);
    const double b = glm::dot(c, d), h = b * b - (glm::dot(c, c) - s.w * s.w);
    if (h < 0.0) continue;
    const double t = b - std::sqrt(h);
    if (t > 0.0 && (best.element < 0 || t < best.distance)) best = Expected{int(i), t};
  }
  return best;
}

void checkRays(const std::string& scene, const std::vector<std::string>& overrides, int steps) {
  CAPTURE(scene);
  std::vector<std::string> cpu = overrides;
  cpu.push_back("solver.backend=cpu");
  Simulation sim(loadScene(std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/" + scene, cpu), 0);
  for (int s = 0; s < steps; ++s) sim.step();
  RenderFrame frame;
  sim.solver().writeFrame(frame, false);
  // Rays from eyes around the elements towards (near) elements spread over the frame: most hit, some miss.
  vec3 lo(1e30f), hi(-1e30f);
  for (const glm::vec4& s : frame.spheres) {
    lo = glm::min(lo, vec3(s));
    hi = glm::max(hi, vec3(s));
  }
  const float size = glm::length(hi - lo);
  int hits = 0, misses = 0;
  for (int k = 0; k < 24; ++k) {
    const float a = 0.2618f * float(k);
    const glm::vec4 target = frame.spheres[size_t(k) * frame.elementCount() / 24];
    const vec3 offset = (0.5f * float(k % 3)) * target.w * vec3(std::cos(3.0f * a), 0.0f, std::sin(3.0f * a));
    const vec3 aim = vec3(target) + offset;
    const vec3 eye = aim + size * vec3(std::cos(a), 0.3f + 0.05f * float(k % 5), std::sin(a));
    const vec3 direction = glm::normalize(aim - eye);
    const Expected expected = bruteForce(frame, eye, direction);
    const std::optional<ElementHit> hit = sim.solver().castRay(eye, direction);
    CAPTURE(k);
    REQUIRE(hit.has_value() == (expected.element >= 0));
    if (!hit) {
      ++misses;
      continue;
    }
    ++hits;
    CHECK(hit->element == expected.element);
    const glm::vec4 s = frame.spheres[size_t(hit->element)];
    // Within 1% of the sphere's radius (a pick needs far less than a radius; the float form b - sqrt(b^2 - |c|^2 +
    // r^2) loses ~1e-5 m to cancellation half a metre away).
    INFO("distance " << hit->distance << " m, expected " << expected.distance << " m");
    CHECK(std::abs(hit->distance - expected.distance) <= 0.01 * s.w);
    CHECK(glm::length(hit->point - vec3(s)) == RelApprox(s.w).epsilon(0.01));  // on the sphere, as precise as above
    CHECK(glm::dot(hit->normal, direction) < 0.0f);                                 // facing the eye
  }
  // Rays that cannot meet anything: from above every element, upwards; and past the side, parallel to it.
  const vec3 above(0.5f * (lo.x + hi.x), hi.y + size, 0.5f * (lo.z + hi.z));
  for (const vec3& direction : {vec3(0.0f, 1.0f, 0.0f), glm::normalize(vec3(1.0f, 0.0f, 1.0f))}) {
    CHECK_FALSE(bruteForce(frame, above, direction).element >= 0);
    CHECK_FALSE(sim.solver().castRay(above, direction).has_value());
    ++misses;
  }
  MESSAGE(hits << " rays hit, " << misses << " missed");
  CHECK(hits >= 12);
}

}  // namespace

TEST_CASE("castRay picks the element a ray enters first: BDEM wall with its ball, peridynamic cylinder and indenter") {
  checkRays("wall_impact.json", {}, 50);
  checkRays("lammps_peri_pmb.json", {}, 300);  // the indenter is the last element (a projectile)
}
