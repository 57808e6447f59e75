// Tetrahedral meshes through TetGen 1.5's library (Debian libtet1.5-dev).
#include "geometry/tet_mesh.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <string>
#include <utility>

#include "geometry/morton_order.h"
#include "io/scene_error.h"

// Debian's libtet is built with TETLIBRARY: TetGen then reports errors by throwing an int from terminatetetgen()
// instead of calling exit(). third_party::tetgen defines it too; this keeps the header's view in line without it.
#ifndef TETLIBRARY
#define TETLIBRARY
#endif
// TetGen 1.5.0's terminatetetgen() (an inline function of tetgen.h) frees the mesh before it throws, and the mesh's
// destructor frees it again while the exception unwinds tetrahedralize(): every TetGen error would crash the process
// (double free). libtet calls terminatetetgen through the PLT (43 calls, exported weak), so the definition below,
// which only throws, takes its place (the mesh is then freed once, by its destructor); the header's copy is renamed
// out of the way. Tested by "TetGen's failure on a self-intersecting surface" in tests/sim/test_tet_mesh.cpp.
#define terminatetetgen tetgen_header_terminatetetgen
#include <tetgen.h>
#undef terminatetetgen

[[noreturn]] void terminatetetgen(tetgenmesh*, int code) { throw code; }

namespace frac {
namespace {

// The error codes of TetGen 1.5's terminatetetgen().
std::string tetgenError(int code) {
  switch (code) {
    case 1: return "out of memory";
    case 2: return "internal error";
    case 3: return "the surface intersects itself";
    case 4: return "a very small input feature size was detected";
    case 5: return "two very close input facets were detected";
    case 10: return "input error";
    default: return "error code " + std::to_string(code);
  }
}

double orientation(const vec3& a, const vec3& b, const vec3& c, const vec3& d) {
  const glm::dvec3 da(a), db(b), dc(c), dd(d);
  return glm::dot(glm::cross(db - da, dc - da), dd - da);
}

// Corner k of triangle t, in double.
glm::dvec3 corner(const TriangleSurface& s, size_t t, int k) { return glm::dvec3(s.vertices[s.triangles[t][k]]); }

// The nearest crossing of the ray o + t d (t > tMin) with the surface's triangles other than `skip` (Moller-Trumbore).
double nearestHit(const TriangleSurface& s, const glm::dvec3& o, const glm::dvec3& d, size_t skip, double tMin) {
  double best = std::numeric_limits<double>::infinity();
  for (size_t t = 0; t < s.triangles.size(); ++t) {
    if (t == skip) continue;
    const glm::dvec3 a = corner(s, t, 0), e1 = corner(s, t, 1) - a, e2 = corner(s, t, 2) - a;
    const glm::dvec3 p = glm::cross(d, e2), q = glm::cross(o - a, e1);
    const double det = glm::dot(e1, p);
    if (det == 0.0) continue;
    const double u = glm::dot(o - a, p) / det, v = glm::dot(d, q) / det, hit = glm::dot(e2, q) / det;
    if (u >= 0.0 && v >= 0.0 && u + v <= 1.0 && hit > tMin) best = std::min(best, hit);
  }
  return best;
}

// One point inside each cavity of the solid: TetGen fills every region the surface closes, cavities too, unless a
// hole point marks it. A cavity's boundary is a connected piece of the surface enclosing a negative volume (its
// triangles face into the cavity); the point lies on the normal of its largest triangle, half-way from the triangle
// to the next crossing of the surface.
std::vector<glm::dvec3> cavityPoints(const TriangleSurface& s) {
  std::vector<int32_t> parent(s.vertices.size());
  for (size_t v = 0; v < parent.size(); ++v) parent[v] = int32_t(v);
  auto root = [&](int32_t v) {
    while (parent[size_t(v)] != v) v = parent[size_t(v)] = parent[size_t(parent[size_t(v)])];
    return v;
  };
  for (const auto& t : s.triangles)
    for (int k = 1; k < 3; ++k) parent[size_t(root(t[k]))] = root(t[0]);
  std::map<int32_t, std::pair<double, size_t>> pieces;  // root -> (enclosed volume, largest triangle)
  auto area2 = [&](size_t t) {  // twice the area, along the outward normal
    return glm::cross(corner(s, t, 1) - corner(s, t, 0), corner(s, t, 2) - corner(s, t, 0));
  };
  for (size_t t = 0; t < s.triangles.size(); ++t) {
    auto [it, added] = pieces.try_emplace(root(s.triangles[t][0]), 0.0, t);
    it->second.first += glm::dot(corner(s, t, 0), glm::cross(corner(s, t, 1), corner(s, t, 2))) / 6.0;
    if (glm::length(area2(t)) > glm::length(area2(it->second.second))) it->second.second = t;
  }
  std::vector<glm::dvec3> points;
  for (const auto& [piece, volumeAndTriangle] : pieces) {
    if (volumeAndTriangle.first >= 0.0) continue;
    const size_t t = volumeAndTriangle.second;
    const glm::dvec3 normal = glm::normalize(area2(t));
    const glm::dvec3 centre = (corner(s, t, 0) + corner(s, t, 1) + corner(s, t, 2)) / 3.0;
    const double hit = nearestHit(s, centre, normal, t, 1e-9 * std::sqrt(glm::length(area2(t))));
    if (std::isfinite(hit)) points.push_back(centre + 0.5 * hit * normal);
  }
  return points;
}

// The surface as TetGen's piecewise linear complex: its points, one single-triangle facet per triangle and the
// cavities' hole points. tetgenio frees these arrays with delete[] when it goes out of scope.
void fillInput(const TriangleSurface& surface, tetgenio& in) {
  in.firstnumber = 0;
  in.numberofpoints = int(surface.vertices.size());
  in.pointlist = new REAL[3 * surface.vertices.size()];
  for (size_t v = 0; v < surface.vertices.size(); ++v)
    for (int k = 0; k < 3; ++k) in.pointlist[3 * v + k] = REAL(surface.vertices[v][k]);
  in.numberoffacets = int(surface.triangles.size());
  in.facetlist = new tetgenio::facet[surface.triangles.size()];
  for (size_t t = 0; t < surface.triangles.size(); ++t) {
    tetgenio::facet& facet = in.facetlist[t];
    tetgenio::init(&facet);
    facet.numberofpolygons = 1;
    facet.polygonlist = new tetgenio::polygon[1];
    tetgenio::init(&facet.polygonlist[0]);
    facet.polygonlist[0].numberofvertices = 3;
    facet.polygonlist[0].vertexlist = new int[3];
    for (int k = 0; k < 3; ++k) facet.polygonlist[0].vertexlist[k] = surface.triangles[t][k];
  }
  const std::vector<glm::dvec3> holes = cavityPoints(surface);
  in.numberofholes = int(holes.size());
  in.holelist = holes.empty() ? nullptr : new REAL[3 * holes.size()];
  for (size_t h = 0; h < holes.size(); ++h)
    for (int k = 0; k < 3; ++k) in.holelist[3 * h + k] = holes[h][k];
}

// Renumbers the nodes along a Morton curve (geometry/morton_order.h) and lists the tets by their lowest new node
// number, so that the tets a thread takes in a row share nodes that lie together in memory. TetGen's order follows its
// insertions and refinement: on the vase a tet's corners lay 4,335 of 9,067 nodes apart on average (315 ordered), and
// the solver's second thread took a third longer over its half than the first (2026-12-06, VM). Each tet keeps its
// corners' order (its orientation); ties keep TetGen's order, so the result depends on the mesh alone.
void orderForLocality(TetMesh& mesh) {
  const size_t nodes = mesh.nodes.size();
  const std::vector<int32_t> order = mortonOrder(mesh.nodes);
  std::vector<int32_t> newIndex(nodes);
  std::vector<vec3> sorted(nodes);
  for (size_t k = 0; k < nodes; ++k) {
    newIndex[size_t(order[k])] = int32_t(k);
    sorted[k] = mesh.nodes[size_t(order[k])];
  }
  mesh.nodes = std::move(sorted);
  for (auto& tet : mesh.tets)
    for (int32_t& node : tet) node = newIndex[size_t(node)];
  auto lowest = [](const std::array<int32_t, 4>& t) { return std::min(std::min(t[0], t[1]), std::min(t[2], t[3])); };
  std::stable_sort(mesh.tets.begin(), mesh.tets.end(),
                   [&](const std::array<int32_t, 4>& a, const std::array<int32_t, 4>& b) { return lowest(a) < lowest(b); });
}

}  // namespace

TetMesh tetrahedralize(const TriangleSurface& surface, float edgeLength, const std::string& what) {
  if (!(edgeLength > 0.0f)) throw SceneError(what + ": tet mesh edge length must be > 0");
  if (surface.triangles.size() < 4) throw SceneError(what + ": the surface to tetrahedralize has no volume");
  tetgenio in, out;
  fillInput(surface, in);

  // The switches, "pYq1.414/10Qa<V>" with V = edgeLength^3 / (6 sqrt 2):
  //   p          the input is a piecewise linear complex (our closed surface), to be filled with tets;
  //   Y          keep the surface triangles as given, no Steiner points on them: the surface is already spaced at
  //              edgeLength, so the tets' edges match it (mean edge ~0.9-1.0 x edgeLength; without Y TetGen splits
  //              the curved surfaces' facets over and over: 3-5x the tets, mean edge ~0.55 x), and the meshed
  //              volume is exactly the surface's;
  //   q1.414/10  Delaunay refinement until circumradius / shortest edge <= 1.414 (TetGen's default is 2.0; sqrt 2
  //              is the customary bound that still terminates in practice), and a 10 degree dihedral target for
  //              TetGen's optimisation (default 5: fewer slivers for the FEM). With Y the bound cannot be enforced
  //              where meeting it would split a surface triangle: a few tets at the surface stay above it (worse
  //              near the skinny triangles of a poor OBJ);
  //   a<V>       no tet larger than a regular tetrahedron of edge `edgeLength`: the interior gets the surface's
  //              spacing, not TetGen's few large tets;
  //   Q          quiet.
  // z is not used: out.firstnumber is honoured below.
  tetgenbehavior behavior;
  char switches[] = "pYq1.414/10Q";
  if (!behavior.parse_commandline(switches)) throw SceneError(what + ": TetGen rejected its switches");
  behavior.fixedvolume = 1;  // the 'a' switch, set here rather than printed into the string at full precision
  behavior.maxvolume = double(edgeLength) * edgeLength * edgeLength / (6.0 * std::sqrt(2.0));
  try {
    tetrahedralize(&behavior, &in, &out);
  } catch (int code) {
    throw SceneError(what + ": TetGen could not tetrahedralize the surface (" + tetgenError(code) + ")");
  } catch (const std::exception& e) {
    throw SceneError(what + ": TetGen could not tetrahedralize the surface (" + e.what() + ")");
  }
  if (out.numberoftetrahedra <= 0 || out.numberofcorners < 4)
    throw SceneError(what + ": TetGen gave no tetrahedra (is the surface closed?)");

  // Keep the nodes the tets use, numbered in the order the tets first use them (TetGen may leave input points it
  // merged, or ones in a hole, unused).
  const int first = out.firstnumber;
  std::vector<int32_t> newIndex(size_t(out.numberofpoints), -1);
  TetMesh mesh;
  mesh.tets.resize(size_t(out.numberoftetrahedra));
  for (size_t t = 0; t < mesh.tets.size(); ++t)
    for (int k = 0; k < 4; ++k) {
      const int node = out.tetrahedronlist[t * size_t(out.numberofcorners) + size_t(k)] - first;
      if (node < 0 || node >= out.numberofpoints) throw SceneError(what + ": TetGen gave a tet with a bad node");
      int32_t& index = newIndex[size_t(node)];
      if (index < 0) {
        index = int32_t(mesh.nodes.size());
        const REAL* p = &out.pointlist[3 * size_t(node)];
        mesh.nodes.emplace_back(float(p[0]), float(p[1]), float(p[2]));
      }
      mesh.tets[t][k] = index;
    }
  // TetGen 1.5 lists its tets with the positive orientation (measured); should a build list them the other way round,
  // the total volume says so and every tet swaps two nodes. A tet that rounding to float flattened or turned over
  // (a sliver near 1e-7 relative) is an error rather than a hidden overlap.
  double total = 0.0;
  for (const auto& tet : mesh.tets)
    total += orientation(mesh.nodes[tet[0]], mesh.nodes[tet[1]], mesh.nodes[tet[2]], mesh.nodes[tet[3]]);
  size_t bad = 0;
  for (auto& tet : mesh.tets) {
    if (total < 0.0) std::swap(tet[2], tet[3]);
    bad += !(orientation(mesh.nodes[tet[0]], mesh.nodes[tet[1]], mesh.nodes[tet[2]], mesh.nodes[tet[3]]) > 0.0);
  }
  if (bad > 0)
    throw SceneError(what + ": " + std::to_string(bad) + " tetrahedra are flat or inverted after rounding to float");
  orderForLocality(mesh);
  return mesh;
}

TetMesh tetrahedralizeShape(const ShapeDesc& desc, const std::string& baseDir, float edgeLength,
                            const std::string& what) {
  return tetrahedralize(shapeTriangles(desc, baseDir, edgeLength), edgeLength, what);
}

double tetVolume(const TetMesh& mesh, int t) {
  const auto& tet = mesh.tets[size_t(t)];
  return orientation(mesh.nodes[tet[0]], mesh.nodes[tet[1]], mesh.nodes[tet[2]], mesh.nodes[tet[3]]) / 6.0;
}

double meshVolume(const TetMesh& mesh) {
  double sum = 0.0;
  for (size_t t = 0; t < mesh.tets.size(); ++t) sum += tetVolume(mesh, int(t));
  return sum;
}

}  // namespace frac
