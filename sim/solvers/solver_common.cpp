#include "solvers/solver_common.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "geometry/shapes.h"
#include "io/scene_error.h"
#include "solvers/mirrored_arrays.h"

namespace frac {

std::string cpuBackendLine(Backend requested, const std::string& whyNotCuda) {
  if (requested == Backend::Cpu || whyNotCuda.empty()) return "CPU (OpenMP)";
  return std::string("CPU (OpenMP); ") + (requested == Backend::Auto ? "auto" : "cuda") +
         " fell back to the CPU: " + whyNotCuda;
}

std::string sceneDirectory(const SceneDesc& scene) {
  const std::filesystem::path p(scene.path);
  return p.has_parent_path() ? p.parent_path().string() : std::string(".");
}

int sceneMaterial(const SceneDesc& scene, const std::string& name, const std::string& where) {
  const int m = scene.materialIndex(name);
  if (m < 0) throw SceneError(scene.path + ": " + where + ": unknown material '" + name + "'");
  return m;
}

bool placedShapeContains(const PlacedShapeDesc& placed, const Shape& shape, const vec3& p) {
  return shape.inside(rotate(conjugate(placed.transform.orientation), p - placed.transform.position));
}

SimStats simStats(double time, long long steps, int elements, long long bonds, const StatsTerms& sums) {
  SimStats s;
  s.time = time;
  s.steps = steps;
  s.elements = elements;
  s.bonds = bonds;
  s.bondsBroken = sums.bondsBroken;
  s.bondsIntact = bonds - sums.bondsBroken;
  s.kineticEnergy = sums.kineticEnergy;
  s.elasticEnergy = sums.elasticEnergy;
  s.fragments = int(sums.fragments);
  return s;
}

KinematicLoad loadAgainstMotion(const vec3& velocity, const vec3& centre, const vec3& initialCentre,
                                const vec3& force) {
  const float speed = glm::length(velocity);
  KinematicLoad load;
  load.direction = speed > 0.0f ? velocity / speed : vec3(0, -1, 0);
  load.initialCentre = initialCentre;
  load.displacement = glm::dot(centre - initialCentre, load.direction);
  load.force = -glm::dot(force, load.direction);  // the material pushes back against the motion
  return load;
}

void addTurning(KinematicLoad& load, const vec3& spin, double start, double stop, double time, const vec3& moment) {
  const float rate = glm::length(spin);
  if (!(rate > 0.0f)) return;
  load.angle = double(rate) * (std::clamp(time, start, stop) - std::min(start, time));
  load.torque = -glm::dot(moment, spin / rate);  // the material turns back against the spin
}

float throwDensity(const std::vector<MaterialDesc>& materials, int material, float density) {
  if (material < 0 || material >= int(materials.size())) throw std::invalid_argument("no such material");
  return density > 0.0f ? density : materials[material].density;
}

std::vector<int> editedMaterials(const std::vector<MaterialDesc>& current, const SceneDesc& scene) {
  std::vector<int> edited;
  for (size_t m = 0; m < current.size() && m < scene.materials.size(); ++m) {
    MaterialDesc fresh = scene.materials[m];
    fresh.density = current[m].density;
    if (!(fresh == current[m])) edited.push_back(int(m));
  }
  return edited;
}

std::vector<int> ReferenceElements::nearLine(const vec3& point, const vec3& direction, float distance) const {
  std::vector<int> found;
  for (size_t k = 0; k < index.size(); ++k) {
    const vec3 d = position[k] - point;
    if (length2(d - glm::dot(d, direction) * direction) <= distance * distance) found.push_back(index[k]);
  }
  return found;
}

double ReferenceElements::extent(const vec3& direction) const {
  double lo = 1e30, hi = -1e30;
  for (size_t k = 0; k < index.size(); ++k) {
    const double x = glm::dot(position[k], direction), r = meshNodes ? 0.0 : radius[k];
    lo = std::min(lo, x - r);
    hi = std::max(hi, x + r);
  }
  return hi > lo ? hi - lo : 0.0;
}

}  // namespace frac
