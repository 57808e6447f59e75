#pragma once
// Solver::castRay where the state lives (CPU or device): the element a ray meets first, as a reduction over the
// elements' spheres in a fixed order (solver_stats.h stridedPartials), so that a click picks the same element on both
// backends and a device sends back one partial per chunk instead of every position.
#include <optional>
#include <vector>

#include "core/math.h"
#include "solvers/solver_stats.h"

namespace frac {

// The first sphere a ray enters: distance along the ray, element index (-1: none), its sphere.
struct SphereHit {
  float distance = 3.0e38f;
  int32_t element = -1;
  glm::vec4 sphere{0.0f};
};

// The nearer of two hits; at equal distance the smaller element index (so the order of combining does not matter).
struct NearerHit {
  FRAC_HD SphereHit operator()(const SphereHit& a, const SphereHit& b) const {
    if (b.element < 0) return a;
    if (a.element < 0 || b.distance < a.distance || (b.distance == a.distance && b.element < a.element)) return b;
    return a;
  }
};

template <class Sphere>
struct RayEntry {
  Sphere sphere;  // sphere(i): glm::vec4 centre and radius (radius <= 0: not pickable)
  vec3 origin, direction;
  FRAC_HD SphereHit operator()(int i) const {
    const glm::vec4 s = sphere(i);
    SphereHit hit;
    if (!(s.w > 0.0f)) return hit;
    const float t = raySphereEntry(origin, direction, vec3(s), s.w);
    if (t < 0.0f) return hit;
    hit.distance = t;
    hit.element = i;
    hit.sphere = s;
    return hit;
  }
};

constexpr int kPickChunks = 1024;

// The first of spheres [0, n) that the ray (unit direction) enters. partial: kPickChunks in the exec's memory.
template <class Exec, class Sphere>
SphereHit nearestSphereHit(const Exec& exec, int n, const Sphere& sphere, const vec3& origin, const vec3& direction,
                           SphereHit* partial) {
  stridedPartials(exec, n, kPickChunks, RayEntry<Sphere>{sphere, origin, direction}, SphereHit{}, NearerHit{}, partial);
  std::vector<SphereHit> host(kPickChunks);
  readValues(exec, host.data(), partial, kPickChunks);
  SphereHit best;
  for (const SphereHit& h : host) best = NearerHit{}(best, h);
  return best;
}

// Where a ray enters an element's sphere (Solver::castRay).
struct ElementHit {
  vec3 point{0.0f}, normal{0.0f, 1.0f, 0.0f};  // normal: outward from the sphere's centre
  float distance = 0.0f;                        // along the ray
  int element = -1;
};

inline std::optional<ElementHit> elementHit(const SphereHit& hit, const vec3& origin, const vec3& direction) {
  if (hit.element < 0) return std::nullopt;
  const vec3 point = origin + hit.distance * direction;
  return ElementHit{point, glm::normalize(point - vec3(hit.sphere)), hit.distance, hit.element};
}

}  // namespace frac
