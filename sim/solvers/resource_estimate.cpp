#include "solvers/resource_estimate.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>

#include "core/rng.h"
#include "geometry/packing.h"
#include "geometry/shapes.h"
#include "io/json_validate.h"
#include "solvers/solver_common.h"

namespace frac {
namespace {

// fem-debris's TetGen meshes of edge 2r have 2.53 nodes per (2r)^3 of the shape's volume (measured: the stone plate
// at r 4.8 and 2.4 mm, 3,838 and 30,879 nodes); the volume by seeded random points over the bounds.
double femNodes(const Shape& shape, double r) {
  const Aabb box = shape.bounds();
  const vec3 size = box.hi - box.lo;
  constexpr int kPoints = 32768;
  int inside = 0;
  for (int k = 0; k < kPoints; ++k) {
    const vec3 t(float(uniform01(2, kStreamVolumeSamples, 3 * uint64_t(k))),
                 float(uniform01(2, kStreamVolumeSamples, 3 * uint64_t(k) + 1)),
                 float(uniform01(2, kStreamVolumeSamples, 3 * uint64_t(k) + 2)));
    inside += shape.inside(box.lo + t * size) ? 1 : 0;
  }
  const double volume = double(size.x) * double(size.y) * double(size.z) * double(inside) / double(kPoints);
  return 2.53 * volume / std::pow(2.0 * r, 3.0);
}

// Resident bytes per element, measured as the growth of a headless run's peak resident size between two element
// radii of the same scene (VM, 2026-11-27): bdem wall_impact 64k -> 571k elements 3.5 KB; rbdem the same 6.3 KB;
// pd-bond and pd-state pd_wall_elastic 3k -> 200k particles (56 bonds each) 13.6 KB; fem-debris the stone plate
// 3.8k -> 30.9k nodes 4.0 KB. Rounded up.
double bytesPerElement(const std::string& method) {
  if (method == "rbdem") return 6.5e3;
  if (method == "pd-bond" || method == "pd-state") return 14e3;
  if (method == "fem-debris") return 4.2e3;
  return 3.7e3;
}

std::string gigabytes(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g GB", bytes / 1e9);
  return text;
}

}  // namespace

std::vector<BodyEstimate> estimateScene(const SceneDesc& scene) {
  const std::string baseDir = sceneDirectory(scene);
  std::vector<BodyEstimate> out;
  auto add = [&](const std::string& pointer, const ShapeDesc& shapeDesc, float radius, Packing packing) {
    if (!(radius > 0.0f)) return;  // the loader's range checks report it
    std::unique_ptr<Shape> shape;
    try {
      shape = makeShape(shapeDesc, baseDir);
    } catch (const std::exception&) {
      return;  // the solver's load reports a shape it cannot make, with its own message
    }
    BodyEstimate e;
    e.pointer = pointer;
    // The particle methods' count by their own lattice (peridynamics: simple cubic, spacing 2r), fem-debris's nodes.
    const bool pd = scene.solver.method == "pd-bond" || scene.solver.method == "pd-state";
    e.elements = scene.solver.method == "fem-debris"
                     ? femNodes(*shape, double(radius))
                     : estimatePackedCount(*shape, radius, pd ? Packing::SimpleCubic : packing);
    e.bytes = e.elements * bytesPerElement(scene.solver.method);
    out.push_back(e);
  };
  for (size_t b = 0; b < scene.bodies.size(); ++b)
    add("/bodies/" + std::to_string(b), scene.bodies[b].shape, scene.bodies[b].elementRadius, scene.bodies[b].packing);
  if (scene.solver.method != "fem-debris")  // fem-debris kinematics are meshes too, but coarse ones: counted alike
    for (size_t k = 0; k < scene.kinematics.size(); ++k)
      if (!scene.kinematics[k].grip)  // a grip takes over body elements
        add("/kinematics/" + std::to_string(k), scene.kinematics[k].shape, scene.kinematics[k].elementRadius,
            scene.kinematics[k].packing);
  return out;
}

namespace {

// The "KEY: N kB" line of a /proc file, in bytes (0 when absent).
double procKilobytes(const char* file, const char* format) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    long long kb = 0;
    if (std::sscanf(line.c_str(), format, &kb) == 1) return double(kb) * 1024.0;
  }
  return 0.0;
}

}  // namespace

double availableMemoryBytes() { return procKilobytes("/proc/meminfo", "MemAvailable: %lld kB"); }

double residentMemoryBytes() { return procKilobytes("/proc/self/status", "VmRSS: %lld kB"); }

double estimatedElementCount(const SceneDesc& scene) {
  double n = 0.0;
  for (const BodyEstimate& b : estimateScene(scene)) n += b.elements;
  return n;
}

namespace {

struct SceneTotals {
  double bytes = 0.0, elements = 0.0;
  BodyEstimate largest;
  bool any = false;
};

SceneTotals sceneTotals(const SceneDesc& scene) {
  SceneTotals t;
  for (const BodyEstimate& b : estimateScene(scene)) {
    t.bytes += b.bytes;
    t.elements += b.elements;
    if (!t.any || b.bytes > t.largest.bytes) t.largest = b;
    t.any = true;
  }
  return t;
}

}  // namespace

std::string checkSceneFitsDevice(const SceneDesc& scene, double deviceFreeBytes) {
  if (scene.solver.backend == Backend::Cpu || !(deviceFreeBytes > 0.0)) return "";
  const SceneTotals t = sceneTotals(scene);
  if (!t.any || t.bytes <= deviceFreeBytes) return "";
  char text[512];
  std::snprintf(text, sizeof text,
                "the scene needs about %s of GPU memory (%.3g elements under %s) and the GPU has %s free", 
                gigabytes(t.bytes).c_str(), t.elements, scene.solver.method.c_str(),
                gigabytes(deviceFreeBytes).c_str());
  if (scene.solver.backend == Backend::Cuda)
    throwSceneError(scene.path, "/solver/backend",
                    std::string(text) + ": use solver.backend auto or cpu, or a larger element_radius");
  return text;
}

void checkSceneFits(const SceneDesc& scene, double availableBytes) {
  if (!(availableBytes > 0.0)) return;  // not known here: nothing to check against
  const SceneTotals totals = sceneTotals(scene);
  const double total = totals.bytes, elements = totals.elements;
  const BodyEstimate* largest = &totals.largest;
  if (!totals.any || total <= availableBytes) return;
  char text[512];
  std::snprintf(text, sizeof text,
                "%s needs about %.3g elements (%s of memory; the scene %.3g elements, %s) but this machine has %s "
                "free: use a larger element_radius (elements grow as 1 / radius^3)",
                scene.solver.method.c_str(), largest->elements, gigabytes(largest->bytes).c_str(), elements,
                gigabytes(total).c_str(), gigabytes(availableBytes).c_str());
  throwSceneError(scene.path, largest->pointer + "/element_radius", text);
}

}  // namespace frac
