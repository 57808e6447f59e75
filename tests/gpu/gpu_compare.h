#pragma once
// Runs a shipped scene on a backend and compares a CUDA run with a CPU run (issue 6's bounds): positions within 1e-4
// of the scene size, identical broken-bond sets, energies within 1e-3 relative.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "io/scene_loader.h"
#include "solvers/simulation.h"

namespace frac::test {


struct RunResult {
  std::vector<vec3> position;
  std::vector<uint8_t> broken;
  SimStats stats;
  std::string backendLine;
};

// Runs `steps` steps of the scene on `backend`; `between(sim, step)` may edit the simulation before each step.
inline RunResult runScene(const std::string& scene, std::vector<std::string> overrides, const std::string& backend,
                   int steps, const std::function<void(Simulation&, int)>& between = {}) {
  overrides.push_back("solver.backend=" + backend);
  Simulation sim(loadScene(std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/" + scene, overrides), 0);
  for (int s = 0; s < steps; ++s) {
    if (between) between(sim, s);
    sim.step();
  }
  // Positions and broken flags through the RenderFrame: the same for every method.
  RenderFrame frame;
  sim.solver().writeFrame(frame, true);
  RunResult r;
  for (const glm::vec4& s : frame.spheres) r.position.push_back(vec3(s));
  r.broken = frame.bondBroken;
  r.stats = sim.stats();
  r.backendLine = sim.backendLine();
  return r;
}

inline double sceneSize(const std::vector<vec3>& p) {
  vec3 lo(1e30f), hi(-1e30f);
  for (const vec3& x : p) {
    lo = glm::min(lo, x);
    hi = glm::max(hi, x);
  }
  return glm::length(hi - lo);
}

inline void compareRuns(const RunResult& cpu, const RunResult& cuda) {
  INFO("CUDA backend: " << cuda.backendLine);
  REQUIRE(cuda.backendLine.rfind("CUDA", 0) == 0);
  REQUIRE(cpu.position.size() == cuda.position.size());
  double worst = 0.0;
  for (size_t i = 0; i < cpu.position.size(); ++i)
    worst = std::max(worst, double(glm::length(cpu.position[i] - cuda.position[i])));
  const double size = sceneSize(cpu.position);
  MESSAGE("largest position difference " << worst << " m = " << worst / size << " of the scene size " << size
                                         << " m; bonds broken CPU " << cpu.stats.bondsBroken << ", CUDA "
                                         << cuda.stats.bondsBroken);
  CHECK(worst <= 1e-4 * size);
  long long differing = 0;
  for (size_t b = 0; b < cpu.broken.size(); ++b) differing += cpu.broken[b] != cuda.broken[b];
  CHECK(differing == 0);
  CHECK(cuda.stats.bondsBroken == cpu.stats.bondsBroken);
  CHECK(cuda.stats.fragments == cpu.stats.fragments);  // CUDA's counted on the device (solver_stats.h)
  auto relative = [](double a, double b) { return a == b ? 0.0 : std::abs(a - b) / std::max(std::abs(a), std::abs(b)); };
  const double kinetic = relative(cuda.stats.kineticEnergy, cpu.stats.kineticEnergy);
  const double elastic = relative(cuda.stats.elasticEnergy, cpu.stats.elasticEnergy);
  MESSAGE("kinetic energy " << cpu.stats.kineticEnergy << " J (CPU) vs " << cuda.stats.kineticEnergy
                            << " J (CUDA), elastic " << cpu.stats.elasticEnergy << " vs " << cuda.stats.elasticEnergy);
  CHECK(kinetic <= 1e-3);
  CHECK(elastic <= 1e-3);
}

}  // namespace frac::test
