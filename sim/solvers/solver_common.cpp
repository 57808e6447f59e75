#include "solvers/solver_common.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <utility>

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
  s.fractureDissipated = sums.fractureDissipated;
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

namespace {

// min and max along `direction` of the centres, widened on each side by `reachPerRadius` times each element's radius.
std::pair<double, double> rangeWithReach(const ReferenceElements& body, const vec3& direction, double reachPerRadius) {
  double lo = 1e30, hi = -1e30;
  for (size_t k = 0; k < body.index.size(); ++k) {
    const double x = glm::dot(body.position[k], direction), r = reachPerRadius * body.radius[k];
    lo = std::min(lo, x - r);
    hi = std::max(hi, x + r);
  }
  return {lo, hi};
}

double spanWithReach(const ReferenceElements& body, const vec3& direction, double reachPerRadius) {
  const auto [lo, hi] = rangeWithReach(body, direction, reachPerRadius);
  return hi > lo ? hi - lo : 0.0;
}

// The area of the cut of a body's tetrahedra by the plane {x : dot(x, along) = at}, moved off it by a thousandth of
// the largest radius so that no corner lies on it: each tetrahedron the plane crosses contributes a triangle (one
// corner on one side) or a quadrilateral (two on each), whose corners are where its edges cross the plane.
double tetSectionArea(const ReferenceElements& body, const vec3& along, double at) {
  at += 1e-3 * double(*std::max_element(body.radius.begin(), body.radius.end()));
  const glm::dvec3 n(along);
  double area = 0.0;
  for (const std::array<int, 4>& t : body.tets) {
    glm::dvec3 p[4];
    double d[4];
    std::vector<int> above, below;
    for (int c = 0; c < 4; ++c) {
      p[c] = glm::dvec3(body.position[t[c]]);
      d[c] = glm::dot(p[c], n) - at;
      (d[c] > 0.0 ? above : below).push_back(c);
    }
    const auto onPlane = [&](int a, int b) { return p[a] + (p[b] - p[a]) * (d[a] / (d[a] - d[b])); };
    if (above.size() == 2) {  // a, b above, c, e below: the quadrilateral ac, ae, be, bc (half |d1 x d2|)
      const int a = above[0], b = above[1], c = below[0], e = below[1];
      area += 0.5 * glm::length(glm::cross(onPlane(a, c) - onPlane(b, e), onPlane(a, e) - onPlane(b, c)));
    } else if (above.size() == 1 || above.size() == 3) {
      const std::vector<int>& one = above.size() == 1 ? above : below;
      const std::vector<int>& three = above.size() == 1 ? below : above;
      const glm::dvec3 q0 = onPlane(one[0], three[0]), q1 = onPlane(one[0], three[1]),
                       q2 = onPlane(one[0], three[2]);
      area += 0.5 * glm::length(glm::cross(q1 - q0, q2 - q0));
    }
  }
  return area;
}

// The area a section's spheres cover, for a body on no lattice (random packing): the convex hull of their centres
// projected onto the plane across (u, v), grown by their mean radius (hull area + perimeter r + pi r^2, Steiner's
// formula). A box's section reads its extents' product less (4 - pi) r^2; a round bar its circle, where the extents'
// box read 4 / pi of it. Fewer than three distinct centres: the extents' product.
double sphereHullArea(const ReferenceElements& slab, const vec3& u, const vec3& v) {
  std::vector<glm::dvec2> p;
  double radius = 0.0;
  for (size_t k = 0; k < slab.index.size(); ++k) {
    p.emplace_back(glm::dot(glm::dvec3(slab.position[k]), glm::dvec3(u)),
                   glm::dot(glm::dvec3(slab.position[k]), glm::dvec3(v)));
    radius += slab.radius[k];
  }
  radius /= double(std::max<size_t>(1, p.size()));
  std::sort(p.begin(), p.end(), [](const glm::dvec2& a, const glm::dvec2& b) {
    return a.x < b.x || (a.x == b.x && a.y < b.y);
  });
  p.erase(std::unique(p.begin(), p.end()), p.end());
  if (p.size() < 3) return slab.extent(u) * slab.extent(v);
  // Andrew's monotone chain: the lower hull left to right, then the upper right to left.
  const auto turn = [](const glm::dvec2& o, const glm::dvec2& a, const glm::dvec2& b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  };
  std::vector<glm::dvec2> hull(2 * p.size());
  size_t n = 0;
  for (size_t k = 0; k < p.size(); ++k) {
    while (n >= 2 && turn(hull[n - 2], hull[n - 1], p[k]) <= 0.0) --n;
    hull[n++] = p[k];
  }
  for (size_t k = p.size() - 1, lower = n + 1; k-- > 0;) {
    while (n >= lower && turn(hull[n - 2], hull[n - 1], p[k]) <= 0.0) --n;
    hull[n++] = p[k];
  }
  hull.resize(n - 1);  // the last point is the first again
  if (hull.size() < 3) return slab.extent(u) * slab.extent(v);
  double area = 0.0, perimeter = 0.0;
  for (size_t k = 0; k < hull.size(); ++k) {
    const glm::dvec2& a = hull[k];
    const glm::dvec2& b = hull[(k + 1) % hull.size()];
    area += 0.5 * (a.x * b.y - b.x * a.y);
    perimeter += glm::length(b - a);
  }
  return area + perimeter * radius + M_PI * radius * radius;
}

}  // namespace

double ReferenceElements::extent(const vec3& direction) const {
  return spanWithReach(*this, direction, meshNodes ? 0.0 : 1.0);
}

double ReferenceElements::depth(const vec3& direction) const {
  if (meshNodes || !(cell.volumePerRadius3 > 0.0f)) return extent(direction);
  return spanWithReach(*this, direction, glm::dot(glm::abs(direction), cell.halfPerRadius));  // the cell box's reach
}

double ReferenceElements::sectionArea(const vec3& along, const vec3& across1, const vec3& across2,
                                     double slab) const {
  if (index.empty()) return 0.0;
  const auto [lo, hi] = rangeWithReach(*this, along, 0.0);  // the centres' range
  const double length = slab > 0.0 ? std::min(slab, (hi - lo) / 3.0) : (hi - lo) / 3.0;
  if (!tets.empty()) return tetSectionArea(*this, along, 0.5 * (lo + hi));
  if (meshNodes || !(cell.volumePerRadius3 > 0.0f)) {
    if (!(slab > 0.0)) return extent(across1) * extent(across2);
    ReferenceElements middle;  // the elements (nodes) within the slab: their extents across
    middle.meshNodes = meshNodes;
    for (size_t k = 0; k < index.size(); ++k)
      if (std::abs(glm::dot(position[k], along) - 0.5 * (lo + hi)) <= 0.5 * length)
        middle.add(index[k], position[k], radius[k]);
    if (middle.index.empty()) return extent(across1) * extent(across2);
    return meshNodes ? middle.extent(across1) * middle.extent(across2) : sphereHullArea(middle, across1, across2);
  }
  const double radiusMax = *std::max_element(radius.begin(), radius.end());
  // A line of sites along an axis of the lattice repeats every two pitches (HCP's A and B layers, its shifted rows).
  const double period = 4.0 * glm::dot(glm::abs(along), cell.halfPerRadius) * radiusMax;
  const double width = period * std::max(1.0, std::round(length / period));
  const double from = 0.5 * (lo + hi) - 0.5 * width + period / 32.0;  // its faces off the planes of sites
  double volume = 0.0;
  for (size_t k = 0; k < index.size(); ++k) {
    const double x = glm::dot(position[k], along) - from;
    if (x >= 0.0 && x < width) volume += double(cell.volumePerRadius3) * radius[k] * radius[k] * radius[k];
  }
  return volume / width;
}

LatticeCell referenceCell(const SceneDesc& scene) {
  LatticeCell common;
  for (size_t b = 0; b < scene.bodies.size(); ++b) {
    const LatticeCell local = latticeCell(scene.bodies[b].packing);
    const glm::mat3 turn = glm::mat3_cast(scene.bodies[b].transform.orientation);
    LatticeCell world{vec3(0.0f), local.volumePerRadius3};
    for (int axis = 0; axis < 3; ++axis)
      for (int l = 0; l < 3; ++l) world.halfPerRadius[axis] += std::abs(turn[l][axis]) * local.halfPerRadius[l];
    if (b == 0) common = world;
    else if (glm::length(world.halfPerRadius - common.halfPerRadius) > 1e-4f ||
             world.volumePerRadius3 != common.volumePerRadius3)
      return {};
  }
  return common;
}

}  // namespace frac
