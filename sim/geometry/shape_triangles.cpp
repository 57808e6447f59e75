// Closed triangle surfaces of the scene shapes: gridded box faces, revolved (r, y) profiles for every round shape
// (sphere, cylinder, capsule, revolve with its shell cavity) and OBJ meshes as they are.
#include "geometry/shape_triangles.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iterator>
#include <limits>
#include <map>
#include <utility>

#include "geometry/obj_mesh.h"
#include "io/scene_error.h"

namespace frac {
namespace {

using glm::vec2;
using Loop = std::vector<vec2>;  // closed (r, y) polygon: the last point joins the first
constexpr double kTwoPi = 6.283185307179586, kHalfPi = 0.25 * kTwoPi;

int segmentsFor(double length, float h) { return std::max(1, int(std::lround(length / h))); }
vec2 leftNormal(const vec2& d) { return {-d.y, d.x}; }
float cross2(const vec2& a, const vec2& b) { return a.x * b.y - a.y * b.x; }

void addTriangle(TriangleSurface& s, int32_t a, int32_t b, int32_t c, bool reversed) {
  s.triangles.push_back(reversed ? std::array<int32_t, 3>{a, c, b} : std::array<int32_t, 3>{a, b, c});
}

double signedArea(const Loop& loop) {
  double twice = 0.0;
  for (size_t i = 0, j = loop.size() - 1; i < loop.size(); j = i++) twice += double(cross2(loop[j], loop[i]));
  return 0.5 * twice;
}

// Drops repeated consecutive points (including last == first): they would revolve into degenerate triangles.
Loop withoutRepeats(const Loop& loop) {
  Loop out;
  for (const vec2& p : loop)
    if (out.empty() || p != out.back()) out.push_back(p);
  while (out.size() > 1 && out.back() == out.front()) out.pop_back();
  return out;
}

// Appends the arc of `radius` around c from angle a0 to a1 (radians; clockwise when a1 < a0), both ends included,
// in pieces of about h. Points within a hair of the axis are put on it, so that poles are exact.
void appendArc(Loop& loop, const vec2& c, float radius, double a0, double a1, float h) {
  const int pieces = segmentsFor(radius * std::abs(a1 - a0), h);
  for (int k = 0; k <= pieces; ++k) {
    const double a = a0 + (a1 - a0) * k / pieces;
    vec2 p(c.x + radius * float(std::cos(a)), c.y + radius * float(std::sin(a)));
    if (std::abs(p.x) < 1e-6f * radius) p.x = 0.0f;
    loop.push_back(p);
  }
}

// Box of full edge lengths `size`, centred: each face a grid of ~h cells. Vertices are keyed by their integer grid
// coordinates, so the faces share their edges exactly.
void addBox(const vec3& size, float h, TriangleSurface& s) {
  const std::array<int, 3> n{segmentsFor(size.x, h), segmentsFor(size.y, h), segmentsFor(size.z, h)};
  std::map<std::array<int, 3>, int32_t> indexOf;
  auto vertex = [&](int a, int side, int i, int j) {  // grid point (i, j) of face `side` (0: -a, 1: +a) normal to a
    std::array<int, 3> g{};
    g[size_t(a)] = side * n[size_t(a)], g[size_t(a + 1) % 3] = i, g[size_t(a + 2) % 3] = j;
    const auto [it, added] = indexOf.try_emplace(g, int32_t(s.vertices.size()));
    if (added) s.vertices.push_back(size * (vec3(g[0], g[1], g[2]) / vec3(n[0], n[1], n[2]) - 0.5f));
    return it->second;
  };
  for (int a = 0; a < 3; ++a)  // (i, j) run along axes a+1, a+2: e_a+1 x e_a+2 = e_a, counter-clockwise from +a
    for (int side = 0; side < 2; ++side)
      for (int i = 0; i < n[size_t(a + 1) % 3]; ++i)
        for (int j = 0; j < n[size_t(a + 2) % 3]; ++j) {
          const int32_t q0 = vertex(a, side, i, j), q1 = vertex(a, side, i + 1, j);
          const int32_t q2 = vertex(a, side, i + 1, j + 1), q3 = vertex(a, side, i, j + 1);
          addTriangle(s, q0, q1, q2, side == 0);
          addTriangle(s, q0, q2, q3, side == 0);
        }
}

// One ring of a revolved surface: `count` vertices from `first` at angles offset + 2 pi k / count; a point of the
// profile on the axis (r <= 0) is a pole, a ring of one vertex.
struct Ring {
  int32_t first;
  int count;
  double offset;
};

Ring addRing(const vec2& q, float h, bool shifted, TriangleSurface& s) {
  const Ring ring{int32_t(s.vertices.size()), q.x <= 0.0f ? 1 : std::max(3, int(std::lround(kTwoPi * q.x / h))), 0.0};
  if (ring.count == 1) {
    s.vertices.emplace_back(0.0f, q.y, 0.0f);
    return ring;
  }
  // Every other ring turned by half a step: two rings of equal count then make near-isosceles triangles.
  const double offset = shifted ? 0.5 * kTwoPi / ring.count : 0.0;
  for (int k = 0; k < ring.count; ++k) {
    const double angle = offset + kTwoPi * k / ring.count;
    s.vertices.emplace_back(q.x * float(std::cos(angle)), q.y, q.x * float(std::sin(angle)));
  }
  return {ring.first, ring.count, offset};
}

// The band between consecutive rings a -> b of a counter-clockwise profile, zipped by angle: (a_i, b_j, a_i+1) when
// a's next vertex comes first, else (a_i, b_j, b_j+1). With P = (r cos t, y, r sin t) both are counter-clockwise seen
// from outside (the profile's right side). Two poles (an edge on the axis) make no triangle.
void joinRings(const Ring& a, const Ring& b, bool reversed, TriangleSurface& s) {
  const int stepsA = a.count == 1 ? 0 : a.count, stepsB = b.count == 1 ? 0 : b.count;
  auto angle = [](const Ring& r, int k) { return r.offset + kTwoPi * k / r.count; };
  auto at = [](const Ring& r, int k) { return r.first + k % r.count; };
  for (int i = 0, j = 0; i < stepsA || j < stepsB;) {
    const bool advanceA = j >= stepsB || (i < stepsA && angle(a, i + 1) < angle(b, j + 1));
    const int32_t c = advanceA ? at(a, i + 1) : at(b, j + 1);
    addTriangle(s, at(a, i), at(b, j), c, reversed);
    (advanceA ? i : j) += 1;
  }
}

// Revolves a closed counter-clockwise (r, y) loop around y: its edges cut into ~h pieces (edges on the axis are not
// surface and stay whole), one ring per point. `reversed` turns the triangles inward (a cavity).
void revolveLoop(const Loop& loop, float h, bool reversed, TriangleSurface& s) {
  Loop points;
  for (size_t i = 0; i < loop.size(); ++i) {
    const vec2 a = loop[i], b = loop[(i + 1) % loop.size()];
    const int pieces = a.x <= 0.0f && b.x <= 0.0f ? 1 : segmentsFor(glm::length(b - a), h);
    for (int k = 0; k < pieces; ++k) points.push_back(a + (b - a) * (float(k) / float(pieces)));
  }
  std::vector<Ring> rings;
  for (size_t i = 0; i < points.size(); ++i) rings.push_back(addRing(points[i], h, i % 2 == 1, s));
  for (size_t i = 0; i < rings.size(); ++i) joinRings(rings[i], rings[(i + 1) % rings.size()], reversed, s);
}

// Distance from q to the profile's surface edges (edges with both ends on the axis are interior after revolving)
// and the even-odd inside test: RevolveShape's definitions, which decide the shell.
float distanceToSurface(const Loop& profile, const vec2& q) {
  float nearest = std::numeric_limits<float>::infinity();
  for (size_t i = 0, j = profile.size() - 1; i < profile.size(); j = i++) {
    const vec2 a = profile[j], ab = profile[i] - a;
    if (a.x <= 0.0f && profile[i].x <= 0.0f) continue;
    const float t = std::clamp(glm::dot(q - a, ab) / glm::dot(ab, ab), 0.0f, 1.0f);
    nearest = std::min(nearest, glm::length(q - (a + t * ab)));
  }
  return nearest;
}

bool insideProfile(const Loop& profile, const vec2& q) {
  bool in = false;
  for (size_t i = 0, j = profile.size() - 1; i < profile.size(); j = i++) {
    const vec2 a = profile[i], b = profile[j];
    if ((a.y > q.y) != (b.y > q.y) && q.x < a.x + (q.y - a.y) * (b.x - a.x) / (b.y - a.y)) in = !in;
  }
  return in;
}

// Splits a closed polygon at its self-crossings (proper crossings of two non-adjacent edges) into simple loops.
void splitAtCrossings(const Loop& loop, std::vector<Loop>& out) {
  const size_t n = loop.size();
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 2; j < n; ++j) {
      if (i == 0 && j == n - 1) continue;  // adjacent through the closing edge
      const vec2 p = loop[i], r = loop[i + 1] - p, q = loop[j], s = loop[(j + 1) % n] - q;
      const float denom = cross2(r, s);
      if (denom == 0.0f) continue;
      const float t = cross2(q - p, s) / denom, u = cross2(q - p, r) / denom;
      if (t <= 1e-6f || t >= 1.0f - 1e-6f || u <= 1e-6f || u >= 1.0f - 1e-6f) continue;
      const vec2 x = p + t * r;
      Loop inner{x}, outer{x};
      inner.insert(inner.end(), loop.begin() + long(i) + 1, loop.begin() + long(j) + 1);
      outer.insert(outer.end(), loop.begin() + long(j) + 1, loop.end());
      outer.insert(outer.end(), loop.begin(), loop.begin() + long(i) + 1);
      splitAtCrossings(inner, out);
      splitAtCrossings(outer, out);
      return;
    }
  }
  out.push_back(loop);
}

// The cavity of a revolve shell (counter-clockwise profile): the boundary of {q in the profile : distance to the
// surface edges > wall}, the region RevolveShape hollows out. Built as the raw inward offset of the surface edges:
// offset lines meet at convex corners, arcs of radius `wall` round reflex corners (and a corner on the axis whose
// perpendicular foot falls off its edge), and successive chains are joined along the axis. A thick wall makes the raw
// offset cross itself or run too near the profile: it is cleaned up below. Empty: nothing is hollow.
std::vector<Loop> cavityLoops(const Loop& profile, float wall, float h) {
  const size_t n = profile.size();
  auto axisEdge = [&](size_t i) { return profile[i % n].x <= 0.0f && profile[(i + 1) % n].x <= 0.0f; };
  size_t start = 0;  // just after an axis edge, if there is one: chains then run from the axis to the axis
  for (size_t i = 0; i < n; ++i)
    if (axisEdge(i + n - 1)) start = i;
  Loop raw;
  for (size_t k = 0; k < n; ++k) {
    const size_t i = (start + k) % n;
    const bool axisIn = axisEdge(i + n - 1), axisOut = axisEdge(i);
    if (axisIn && axisOut) continue;
    const vec2 v = profile[i];
    const vec2 dIn = glm::normalize(v - profile[(i + n - 1) % n]), dOut = glm::normalize(profile[(i + 1) % n] - v);
    const vec2 nIn = leftNormal(dIn), nOut = leftNormal(dOut);
    const double aIn = std::atan2(nIn.y, nIn.x), aOut = std::atan2(nOut.y, nOut.x);
    if (axisIn) {  // a chain leaves the axis along dOut (dOut.x > 0); the cavity starts above v
      const float t = -wall * nOut.x / dOut.x;  // where the offset line meets r = 0
      if (t >= 0.0f) raw.emplace_back(0.0f, v.y + wall * nOut.y + t * dOut.y);
      else appendArc(raw, v, wall, kHalfPi, aOut, h);  // obtuse corner: round it from straight up
    } else if (axisOut) {  // a chain reaches the axis along dIn (dIn.x < 0); the cavity ends below v
      const float t = -wall * nIn.x / dIn.x;
      if (t <= 0.0f) raw.emplace_back(0.0f, v.y + wall * nIn.y + t * dIn.y);
      else appendArc(raw, v, wall, aIn, -kHalfPi, h);  // obtuse corner: round it down to straight down
    } else {
      const float turn = cross2(dIn, dOut), cosine = glm::dot(nIn, nOut);
      if (turn > 1e-6f && cosine > -0.999f) {
        raw.push_back(v + wall * (nIn + nOut) / (1.0f + cosine));  // convex: the offset lines' intersection
      } else if (turn < -1e-6f || cosine < 0.0f) {
        const double sweep = std::fmod(aIn - aOut + 2.0 * kTwoPi, kTwoPi);  // reflex: clockwise from nIn to nOut
        appendArc(raw, v, wall, aIn, aIn - sweep, h);
      } else {
        raw.push_back(v + wall * nOut);  // straight on
      }
    }
  }
  // Split at crossings, keep the counter-clockwise loops whose vertices are all valid; a loop with some invalid
  // vertices (a short edge's offset swallowed by a neighbour's arc crosses nothing) is tried again without them.
  auto valid = [&](const vec2& q) {
    const vec2 probe(std::max(q.x, 1e-3f * wall), q.y);  // axis points: tested just off the axis
    return q.x >= 0.0f && distanceToSurface(profile, q) >= 0.999f * wall && insideProfile(profile, probe);
  };
  std::vector<Loop> work{withoutRepeats(raw)}, kept;
  for (int pass = 0; pass < 4 && !work.empty(); ++pass) {
    std::vector<Loop> pieces;
    for (const Loop& loop : work)
      if (loop.size() >= 3) splitAtCrossings(loop, pieces);
    work.clear();
    for (Loop& loop : pieces) {
      loop = withoutRepeats(loop);
      if (loop.size() < 3 || signedArea(loop) <= 1e-6 * double(wall) * double(wall)) continue;
      Loop validPart;
      std::copy_if(loop.begin(), loop.end(), std::back_inserter(validPart), valid);
      (validPart.size() == loop.size() ? kept : work).push_back(std::move(validPart));
    }
  }
  return kept;
}

std::string resolvedMeshPath(const std::string& meshPath, const std::string& baseDir) {
  const std::filesystem::path path(meshPath);
  if (path.is_absolute() || baseDir.empty()) return path.string();
  return (std::filesystem::path(baseDir) / path).string();
}

// The OBJ's triangles as they are (loadClosedObj welds them and throws, naming the file, unless every edge has a
// matching opposite edge), checked for edges shared by more than two triangles and turned outward if the whole
// file is consistently inward.
TriangleSurface meshTriangles(const std::string& path, float scale) {
  const TriangleMesh mesh = loadClosedObj(path, scale);
  TriangleSurface s{mesh.vertices, {}};
  std::map<std::pair<int32_t, int32_t>, int> directedUses;
  for (const glm::uvec3& t : mesh.triangles) {
    s.triangles.push_back({int32_t(t[0]), int32_t(t[1]), int32_t(t[2])});
    for (int k = 0; k < 3; ++k) ++directedUses[{int32_t(t[k]), int32_t(t[(k + 1) % 3])}];
  }
  for (const auto& [edge, uses] : directedUses)
    if (uses != 1)
      throw SceneError("mesh file '" + path + "': not a 2-manifold, consistently oriented surface (edge " +
                       std::to_string(edge.first) + "-" + std::to_string(edge.second) + " is used " +
                       std::to_string(uses) + " times in the same direction)");
  if (enclosedVolume(s) < 0.0)
    for (auto& t : s.triangles) std::swap(t[1], t[2]);
  return s;
}

}  // namespace

double enclosedVolume(const TriangleSurface& surface) {
  double sixTimes = 0.0;
  for (const auto& t : surface.triangles) {
    const glm::dvec3 a(surface.vertices[t[0]]), b(surface.vertices[t[1]]), c(surface.vertices[t[2]]);
    sixTimes += glm::dot(a, glm::cross(b, c));
  }
  return sixTimes / 6.0;
}

TriangleSurface shapeTriangles(const ShapeDesc& desc, const std::string& baseDir, float h) {
  if (!(h > 0.0f)) throw SceneError("shape triangles: the edge length must be > 0");
  auto require = [](bool ok, const char* message) {
    if (!ok) throw SceneError(std::string("shape triangles: ") + message);
  };
  TriangleSurface s;
  Loop profile;  // the (r, y) profile of a round shape
  const float r = desc.radius, H = 0.5f * desc.height;
  switch (desc.type) {
    case ShapeType::Box:
      require(desc.size.x > 0.0f && desc.size.y > 0.0f && desc.size.z > 0.0f, "box sizes must be > 0");
      addBox(desc.size, h, s);
      return s;
    case ShapeType::Sphere:
      require(r > 0.0f, "sphere radius must be > 0");
      appendArc(profile, vec2(0.0f), r, -kHalfPi, kHalfPi, h);
      break;
    case ShapeType::Cylinder:
      require(r > 0.0f && H > 0.0f, "cylinder radius and height must be > 0");
      profile = {{0.0f, -H}, {r, -H}, {r, H}, {0.0f, H}};
      break;
    case ShapeType::Capsule:
      require(r > 0.0f && H >= 0.0f, "capsule radius must be > 0 and height >= 0");
      appendArc(profile, vec2(0.0f, -H), r, -kHalfPi, 0.0, h);
      appendArc(profile, vec2(0.0f, H), r, 0.0, kHalfPi, h);
      break;
    case ShapeType::Revolve:
      profile = withoutRepeats(desc.profile);
      require(profile.size() >= 3, "revolve 'profile' needs at least 3 distinct [r, y] points");
      require(std::all_of(profile.begin(), profile.end(), [](const vec2& p) { return p.x >= 0.0f; }),
              "revolve 'profile' radii r must be >= 0");
      break;
    case ShapeType::Mesh:
      return meshTriangles(resolvedMeshPath(desc.meshPath, baseDir), desc.meshScale);
  }
  profile = withoutRepeats(profile);
  if (signedArea(profile) < 0.0) std::reverse(profile.begin(), profile.end());
  revolveLoop(profile, h, false, s);
  if (desc.type == ShapeType::Revolve && desc.wall > 0.0f)
    for (const Loop& cavity : cavityLoops(profile, desc.wall, h)) revolveLoop(cavity, h, true, s);
  return s;
}

}  // namespace frac
