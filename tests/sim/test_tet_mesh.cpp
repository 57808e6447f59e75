// Triangle surfaces and TetGen tetrahedral meshes of every shape type, against closed-form volumes.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "geometry/shapes.h"
#include "geometry/tet_mesh.h"
#include "io/scene_error.h"

#ifndef FRACTURE_SOURCE_DIR
#define FRACTURE_SOURCE_DIR "."  // CMake defines it; a hand-built test runs from the repository root
#endif

using namespace frac;

namespace {

const double kPiD = 3.141592653589793;
const std::string kSceneDir = std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes";
// The vase of assets/scenes/pd_vase_drop.json: a reflex corner at the neck, corners on the axis.
const std::vector<glm::vec2> kVase = {{0.0f, 0.0f},  {0.035f, 0.0f}, {0.045f, 0.03f}, {0.04f, 0.07f},
                                      {0.022f, 0.1f}, {0.026f, 0.12f}, {0.0f, 0.12f}};

ShapeDesc shape(ShapeType type, float radius = 0.0f, float height = 0.0f) {
  ShapeDesc d;
  d.type = type;
  d.radius = radius;
  d.height = height;
  return d;
}

ShapeDesc boxShape(vec3 size) {
  ShapeDesc d = shape(ShapeType::Box);
  d.size = size;
  return d;
}

ShapeDesc revolveShape(std::vector<glm::vec2> profile, float wall) {
  ShapeDesc d = shape(ShapeType::Revolve);
  d.profile = std::move(profile);
  d.wall = wall;
  return d;
}

ShapeDesc meshShape(const std::string& path) {
  ShapeDesc d = shape(ShapeType::Mesh);
  d.meshPath = path;
  d.meshScale = 1.0f;
  return d;
}

// Directed edges that occur more than once or lack their opposite: 0 for a closed, consistently oriented surface.
size_t badEdges(const TriangleSurface& s) {
  std::map<std::pair<int32_t, int32_t>, int> uses;
  for (const auto& t : s.triangles)
    for (int k = 0; k < 3; ++k) ++uses[{t[k], t[(k + 1) % 3]}];
  size_t bad = 0;
  for (const auto& [edge, count] : uses) bad += count != 1 || !uses.count({edge.second, edge.first});
  return bad;
}

// Solid of revolution of a closed (r, y) polygon, exactly: 2 pi times the integral of r over it (Pappus), by Green's
// theorem pi/3 sum (y1 - y0)(r0^2 + r0 r1 + r1^2) over the edges (counter-clockwise).
double revolvedPolygonVolume(const std::vector<glm::vec2>& p) {
  double v = 0.0;
  for (size_t i = 0; i < p.size(); ++i) {
    const glm::dvec2 a(p[i]), b(p[(i + 1) % p.size()]);
    v += (b.y - a.y) * (a.x * a.x + a.x * b.x + b.x * b.x);
  }
  return kPiD / 3.0 * v;
}

// 2 pi r dr dy summed over the cells of an n x n midpoint grid of the (r, y) bounds whose centre RevolveShape counts
// inside: the shell's volume as the simulation defines it (resolution error ~0.1% at n = 1200 for the vase).
double revolvedInsideVolume(const ShapeDesc& desc, int n) {
  const auto solid = makeShape(desc, "");
  const Aabb b = solid->bounds();
  const double dr = double(b.hi.x) / n, dy = double(b.hi.y - b.lo.y) / n;
  double v = 0.0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double r = (i + 0.5) * dr, y = b.lo.y + (j + 0.5) * dy;
      if (solid->inside(vec3(float(r), float(y), 0.0f))) v += 2.0 * kPiD * r * dr * dy;
    }
  return v;
}

// Circumradius / shortest edge (0.612 for a regular tet), TetGen's quality measure.
double radiusEdgeRatio(const TetMesh& m, size_t t) {
  glm::dvec3 p[4];
  for (int k = 0; k < 4; ++k) p[k] = glm::dvec3(m.nodes[m.tets[t][k]]);
  const glm::dvec3 a = p[1] - p[0], b = p[2] - p[0], c = p[3] - p[0];
  const glm::dvec3 twiceDetTimesCentre =
      glm::dot(a, a) * glm::cross(b, c) + glm::dot(b, b) * glm::cross(c, a) + glm::dot(c, c) * glm::cross(a, b);
  const double radius = glm::length(twiceDetTimesCentre) / (2.0 * std::abs(glm::dot(a, glm::cross(b, c))));
  double shortest = 1e30;
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) shortest = std::min(shortest, glm::length(p[i] - p[j]));
  return radius / shortest;
}

// The smallest of the six dihedral angles (degrees; 70.5 for a regular tet): slivers, which the ratio misses.
double minDihedral(const TetMesh& m, size_t t) {
  glm::dvec3 p[4], n[4];
  for (int k = 0; k < 4; ++k) p[k] = glm::dvec3(m.nodes[m.tets[t][k]]);
  for (int k = 0; k < 4; ++k) {  // outward normal of the face opposite corner k
    const glm::dvec3 a = p[(k + 1) % 4], b = p[(k + 2) % 4], c = p[(k + 3) % 4];
    n[k] = glm::normalize(glm::cross(b - a, c - a));
    if (glm::dot(n[k], p[k] - a) > 0.0) n[k] = -n[k];
  }
  double smallest = 180.0;
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j)
      smallest = std::min(smallest, 180.0 - std::acos(std::clamp(glm::dot(n[i], n[j]), -1.0, 1.0)) * 180.0 / kPiD);
  return smallest;
}

struct MeshStats {
  double meanEdge = 0.0, worstRatio = 0.0, fractionOverBound = 0.0, smallestVolume = 1e30, smallestDihedral = 180.0;
};

MeshStats stats(const TetMesh& m, double ratioBound) {
  MeshStats s;
  std::set<std::pair<int32_t, int32_t>> edges;
  size_t over = 0;
  for (size_t t = 0; t < m.tets.size(); ++t) {
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j) edges.insert(std::minmax(m.tets[t][i], m.tets[t][j]));
    const double ratio = radiusEdgeRatio(m, t);
    s.worstRatio = std::max(s.worstRatio, ratio);
    over += ratio > ratioBound * (1.0 + 1e-3);
    s.smallestVolume = std::min(s.smallestVolume, tetVolume(m, int(t)));
    s.smallestDihedral = std::min(s.smallestDihedral, minDihedral(m, t));
  }
  for (const auto& [a, b] : edges) s.meanEdge += double(glm::length(m.nodes[a] - m.nodes[b]));
  s.meanEdge /= double(edges.size());
  s.fractionOverBound = double(over) / double(m.tets.size());
  return s;
}

// Every check of one shape: a closed surface within `surfaceTolerance` of `volume`, a tet mesh of the same volume,
// positive tets of about the target edge and TetGen's radius-edge bound (1.414) on all but `allowedOver` of them,
// none worse than `worstAllowed` (Y keeps the surface, so tets the bound would refine by splitting it may stay).
TetMesh checkShape(const char* name, const ShapeDesc& desc, float h, double volume, double surfaceTolerance,
                   double allowedOver, double worstAllowed, const std::string& baseDir = "") {
  const TriangleSurface surface = shapeTriangles(desc, baseDir, h);
  CHECK(badEdges(surface) == 0);
  const double enclosed = enclosedVolume(surface);
  CHECK(std::abs(enclosed / volume - 1.0) <= surfaceTolerance);

  const TetMesh mesh = tetrahedralize(surface, h, "test shape");
  CHECK(mesh.tets.size() > 100);
  CHECK(mesh.tets.size() <= 20000);  // keeps the suite fast
  CHECK(std::abs(meshVolume(mesh) / enclosed - 1.0) <= 1e-4);  // the surface is kept (switch Y)
  const MeshStats s = stats(mesh, 1.414);
  CHECK(s.smallestVolume > 0.0);
  CHECK(s.meanEdge / h >= 0.5);
  CHECK(s.meanEdge / h <= 1.5);
  CHECK(s.fractionOverBound <= allowedOver);
  CHECK(s.worstRatio <= worstAllowed);
  CHECK(s.smallestDihedral >= 2.0);  // no true slivers (measured: 7-10 degrees, 3.7 for jelly.obj)
  std::set<int32_t> used;
  for (const auto& tet : mesh.tets) used.insert(tet.begin(), tet.end());
  CHECK(used.size() == mesh.nodes.size());  // every node used, numbered 0..n-1
  CHECK(*used.rbegin() == int32_t(mesh.nodes.size()) - 1);
  MESSAGE(std::string(name) << " h " << h << ": surface volume error " << enclosed / volume - 1.0 << ", tets - surface "
               << meshVolume(mesh) / enclosed - 1.0 << "; " << mesh.tets.size() << " tets, " << mesh.nodes.size()
               << " nodes, mean edge " << s.meanEdge / h << " h, radius-edge worst " << s.worstRatio << ", "
               << 100.0 * s.fractionOverBound << "% over 1.414, smallest dihedral " << s.smallestDihedral
               << " deg, smallest tet " << s.smallestVolume << " m^3");
  return mesh;
}

std::filesystem::path scratchDir() {
  const auto dir = std::filesystem::temp_directory_path() / "frac_test_tet_mesh";
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace

TEST_CASE("tet mesh: box 0.2 x 0.1 x 0.05, exact volume, 8x the tets at half the edge") {
  const ShapeDesc box = boxShape(vec3(0.2f, 0.1f, 0.05f));
  const TetMesh coarse = checkShape("box", box, 0.025f, 1e-3, 1e-5, 0.01, 2.0);
  CHECK(std::abs(meshVolume(coarse) / 1e-3 - 1.0) <= 1e-5);
  const TetMesh fine = checkShape("box", box, 0.0125f, 1e-3, 1e-5, 0.01, 2.0);
  const double growth = double(fine.tets.size()) / double(coarse.tets.size());
  MESSAGE("box: " << growth << "x the tets at half the edge");
  CHECK(growth >= 6.0);
  CHECK(growth <= 11.0);
}

TEST_CASE("tet mesh: sphere r 0.05 within 3% of 4/3 pi r^3") {
  const double r = 0.05;
  checkShape("sphere", shape(ShapeType::Sphere, float(r)), 0.01f, 4.0 / 3.0 * kPiD * r * r * r, 0.03, 0.01,
             2.0);
}

TEST_CASE("tet mesh: cylinder r 0.03 h 0.1 within 3% of pi r^2 h") {
  checkShape("cylinder", shape(ShapeType::Cylinder, 0.03f, 0.1f), 0.008f, kPiD * 0.03 * 0.03 * 0.1, 0.03, 0.01,
             2.0);
}

TEST_CASE("tet mesh: capsule r 0.02 h 0.06 within 3% of pi r^2 h + 4/3 pi r^3") {
  const double r = 0.02, h = 0.06;
  checkShape("capsule", shape(ShapeType::Capsule, float(r), float(h)), 0.005f,
             kPiD * r * r * h + 4.0 / 3.0 * kPiD * r * r * r, 0.03, 0.01, 2.0);
}

TEST_CASE("tet mesh: solid revolve (vase profile) within 3% of the polygon's solid of revolution") {
  checkShape("vase", revolveShape(kVase, 0.0f), 0.008f, revolvedPolygonVolume(kVase), 0.03, 0.01, 2.0);
}

TEST_CASE("tet mesh: revolve shell (vase, wall 5 mm) within 3% of RevolveShape's shell, cavity left empty") {
  const ShapeDesc vase = revolveShape(kVase, 0.005f);
  const double shell = revolvedInsideVolume(vase, 1200);
  CHECK(shell < 0.4 * revolvedPolygonVolume(kVase));  // hollow: TetGen must not fill the cavity
  checkShape("vase shell", vase, 0.005f, shell, 0.03, 0.01, 2.0);
}

// The order the solver's threads meet the mesh in (tet_mesh.cpp orderForLocality): tets listed by their lowest node,
// nodes along a Morton curve, so that a tet's corners lie close together in the node arrays and consecutive nodes
// close together in space. Measured on the vase shell at h 3.5 mm (2026-12-06, 9,067 nodes): in TetGen's order (nodes
// as its tets first use them) a tet's corners lay 4,335 indices apart on average and consecutive nodes 9.9 h apart;
// ordered, 315 and 1.35 h (the curve's jumps between its cells).
TEST_CASE("tet mesh: tets listed by their lowest node, nodes along a Morton curve: a tet's corners lie close in memory") {
  const float h = 0.0035f;
  const TetMesh mesh = tetrahedralize(shapeTriangles(revolveShape(kVase, 0.005f), "", h), h, "vase shell");
  const double nodes = double(mesh.nodes.size());
  double spread = 0.0, step = 0.0;
  int32_t previousLowest = -1;
  bool sorted = true;
  for (const auto& tet : mesh.tets) {
    const int32_t lowest = *std::min_element(tet.begin(), tet.end());
    spread += double(*std::max_element(tet.begin(), tet.end()) - lowest);
    sorted = sorted && lowest >= previousLowest;
    previousLowest = lowest;
  }
  spread /= double(mesh.tets.size());
  for (size_t k = 1; k < mesh.nodes.size(); ++k) step += glm::length(mesh.nodes[k] - mesh.nodes[k - 1]);
  step /= (nodes - 1.0) * h;
  MESSAGE(std::string("vase shell: ") << mesh.nodes.size() << " nodes; a tet's corners " << spread
                                      << " indices apart on average, consecutive nodes " << step << " h apart");
  CHECK(sorted);
  CHECK(spread < 0.08 * nodes);  // TetGen's order: 0.48 of the nodes
  CHECK(step < 3.0);             // TetGen's order: 9.9 h
}

TEST_CASE("shape triangles: thick revolve walls follow RevolveShape (offset cleaned where it crosses itself)") {
  // 20 mm: the neck's arc swallows the next edge's offset; 30 mm: only a small cavity is left; 60 mm: none.
  for (const float wall : {0.002f, 0.02f, 0.03f, 0.06f}) {
    CAPTURE(wall);
    const ShapeDesc vase = revolveShape(kVase, wall);
    const TriangleSurface surface = shapeTriangles(vase, "", 0.004f);
    CHECK(badEdges(surface) == 0);
    const double error = enclosedVolume(surface) / revolvedInsideVolume(vase, 1200) - 1.0;
    MESSAGE("vase wall " << wall << ": surface volume error " << error << " against RevolveShape's grid volume");
    CHECK(std::abs(error) <= 0.01);
  }
  // A ring profile off the axis (the cavity is a torus) and a clockwise profile with an obtuse corner on the axis.
  for (const auto& profile : {std::vector<glm::vec2>{{0.02f, 0.0f}, {0.05f, 0.0f}, {0.05f, 0.03f}, {0.02f, 0.03f}},
                              std::vector<glm::vec2>{{0.0f, 0.05f}, {0.06f, 0.03f}, {0.0f, 0.0f}}}) {
    const ShapeDesc solid = revolveShape(profile, 0.004f);
    const TriangleSurface surface = shapeTriangles(solid, "", 0.004f);
    CHECK(badEdges(surface) == 0);
    CHECK(std::abs(enclosedVolume(surface) / revolvedInsideVolume(solid, 1200) - 1.0) <= 0.01);
    const TetMesh mesh = tetrahedralize(surface, 0.004f, "ring");
    CHECK(meshVolume(mesh) == RelApprox(enclosedVolume(surface)).epsilon(1e-4));
  }
}

TEST_CASE("tet mesh: jelly.obj (bunny_jello's mesh) keeps its triangles and its 1697.9 cm^3") {
  const float h = 0.012f;
  const TriangleSurface surface = shapeTriangles(meshShape("../meshes/jelly.obj"), kSceneDir, h);
  CHECK(surface.triangles.size() == 2208);  // as the file has them
  CHECK(surface.vertices.size() == 1106);
  // The OBJ's own triangles (some 7 degree angles) limit the tets at its surface: a looser share over the bound.
  const TetMesh mesh =
      checkShape("jelly.obj", meshShape("../meshes/jelly.obj"), h, 1.6979e-3, 1e-4, 0.06, 10.0, kSceneDir);
  CHECK(mesh.tets == tetrahedralizeShape(meshShape("../meshes/jelly.obj"), kSceneDir, h, "jelly").tets);
}

TEST_CASE("shape triangles: an open or inconsistently oriented OBJ is a SceneError naming the file") {
  const std::string open = (scratchDir() / "one_triangle.obj").string();
  std::ofstream(open) << "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
  CHECK_THROWS_WITH_AS(shapeTriangles(meshShape(open), "", 0.1f), doctest::Contains(open.c_str()), SceneError);
  CHECK_THROWS_WITH_AS(tetrahedralizeShape(meshShape(open), "", 0.1f, "body 'x'"), doctest::Contains(open.c_str()),
                       SceneError);
  const std::string reversed = (scratchDir() / "reversed_face.obj").string();  // closed, one face turned in
  std::ofstream(reversed) << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 2 3 4\nf 1 3 4\n";
  CHECK_THROWS_WITH_AS(shapeTriangles(meshShape(reversed), "", 0.1f), doctest::Contains(reversed.c_str()), SceneError);
}

TEST_CASE("tet mesh: TetGen's failure on a self-intersecting surface is a SceneError naming the body") {
  TriangleSurface two = shapeTriangles(boxShape(vec3(0.1f)), "", 0.05f);
  const TriangleSurface shifted = shapeTriangles(boxShape(vec3(0.1f)), "", 0.05f);
  const int32_t offset = int32_t(two.vertices.size());
  for (const vec3& v : shifted.vertices) two.vertices.push_back(v + vec3(0.03f, 0.02f, 0.01f));
  for (const auto& t : shifted.triangles) two.triangles.push_back({t[0] + offset, t[1] + offset, t[2] + offset});
  CHECK_THROWS_WITH_AS(tetrahedralize(two, 0.05f, "body 'overlap'"), doctest::Contains("body 'overlap'"), SceneError);
  CHECK_THROWS_AS(tetrahedralize(two, 0.0f, "body 'overlap'"), SceneError);
}
