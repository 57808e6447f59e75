// fem-debris' surface (Zhang et al. sec. 4, fem_split_surface.h): failed tetrahedra split into their corners' pieces
// (the 1-1-1-1 configuration), every piece closed, the pieces together the body's volume, a debris particle's piece a
// quarter of each of its tetrahedra (the lumped masses of eq. 1) when the split points are the middles, pieces that
// follow their nodes' base triangles (eq. 20-22) through a rigid turn, a particle that does not turn.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <cmath>
#include <string>

#include "io/scene_loader.h"
#include "solvers/fem/fem_solver.h"
#include "surface_measure.h"

using namespace frac;
using test::measurePieces;
using test::PieceMeasure;

namespace {

constexpr float kSide = 0.03f;  // a 30 mm cube of 5 mm edges
// Closed means closed to within rounding (3e-7 of the cube): a split point is computed from its piece's own nodes and
// their base triangles' maps (where a piece's nodes join only through a corner outside the point's face, two
// tetrahedra compute it from different nodes: the same point at rest, to the maps' rounding).
constexpr double kWeld = 1e-8;

FemSolver cube() {
  const std::string scene = R"({"name": "split", "solver": {"method": "fem-debris", "gravity": [0, 0, 0]},
      "materials": {"m": {"density": 2000, "bulk_modulus": 1e9, "shear_modulus": 5e8}},
      "bodies": [{"shape": {"type": "box", "size": [0.03, 0.03, 0.03]}, "position": [0, 0, 0],
                  "element_radius": 0.0025, "material": "m"}]})";
  FemSolver solver;
  solver.load(parseScene(nlohmann::json::parse(scene), "split.json"), SolverOptions{1});
  return solver;
}

SurfaceMesh surfaceOf(FemSolver& solver) {
  SurfaceMesh mesh;
  solver.writeSurfaces(mesh, SurfaceSettings{});
  return mesh;
}

// The node nearest the centre, with every tetrahedron around it failed; the other tetrahedra get `damage`.
int failAroundCentre(FemSolver& solver, float damage) {
  const FemNodeArrays& n = solver.nodes();
  int centre = 0;
  for (int i = 1; i < solver.nodeCount(); ++i)
    if (glm::length(n.reference[i]) < glm::length(n.reference[centre])) centre = i;
  FemTetArrays& t = solver.editTets();
  for (int e = 0; e < solver.tetCount(); ++e) t.damage[e] = damage;
  for (int c = n.cornerStart[centre]; c < n.cornerStart[centre + 1]; ++c) t.failed[n.corner[c] / 4] = 1;
  return centre;
}

}  // namespace

TEST_CASE("fem-debris surface: an intact cube is one closed piece enclosing the cube's volume") {
  FemSolver solver = cube();
  const auto pieces = measurePieces(surfaceOf(solver), kWeld);
  REQUIRE(pieces.size() == 1);
  const PieceMeasure& m = pieces.begin()->second;
  CHECK(m.openEdges == 0);
  CHECK(m.volume == RelApprox(double(kSide) * kSide * kSide).epsilon(1e-5));
  CHECK(m.area == RelApprox(6.0 * kSide * kSide).epsilon(1e-5));
}

TEST_CASE("fem-debris surface: a node whose tetrahedra all failed is a closed piece of a quarter of each of them") {
  FemSolver solver = cube();
  const int centre = failAroundCentre(solver, 0.9f);  // every node's damage past the threshold: middles (NF97)
  const uint32_t particle = uint32_t(centre);         // a piece of its own: its fragment key is its index
  const SurfaceMesh mesh = surfaceOf(solver);
  const auto pieces = measurePieces(mesh, kWeld);
  REQUIRE(pieces.size() == 2);
  REQUIRE(pieces.count(particle) == 1);
  const double whole = double(kSide) * kSide * kSide, quarterShare = solver.nodes().volume[centre];
  double body = 0.0;
  for (const auto& [key, m] : pieces) {
    CHECK(m.openEdges == 0);
    if (key != particle) body = m.volume;
  }
  MESSAGE("particle " << pieces.at(particle).volume << " m^3 of a quarter share " << quarterShare << ", "
                      << pieces.at(particle).triangles << " triangles");
  CHECK(pieces.at(particle).volume == RelApprox(quarterShare).epsilon(1e-4));
  CHECK(body == RelApprox(whole - quarterShare).epsilon(1e-5));

  // Split points from the nodal damage (the particle's 1 against its neighbours' failed fractions): other shapes,
  // the same closed pieces filling the same cube.
  FemSolver fresh = cube();
  failAroundCentre(fresh, 0.0f);
  double sum = 0.0;
  for (const auto& [key, m] : measurePieces(surfaceOf(fresh), kWeld)) {
    CHECK(m.openEdges == 0);
    sum += m.volume;
  }
  CHECK(sum == RelApprox(whole).epsilon(1e-5));
}

TEST_CASE("fem-debris surface: turned and moved rigidly, the body's pieces turn with it and a particle does not") {
  FemSolver solver = cube();
  const int centre = failAroundCentre(solver, 0.9f);
  const SurfaceMesh rest = surfaceOf(solver);  // the particle's frame is fixed here, as it is seen first
  const glm::mat3 turn = glm::mat3_cast(glm::angleAxis(0.7f, glm::normalize(vec3(1.0f, 2.0f, 0.5f))));
  const vec3 shift(0.01f, -0.02f, 0.005f);
  {
    FemNodeArrays& n = solver.editNodes();
    for (int i = 0; i < solver.nodeCount(); ++i) n.displacement[i] = turn * n.reference[i] + shift - n.reference[i];
  }
  const SurfaceMesh moved = surfaceOf(solver);
  REQUIRE(moved.positions.size() == rest.positions.size());
  const vec3 particleMove = turn * solver.nodes().reference[centre] + shift - solver.nodes().reference[centre];
  double bodyError = 0.0, particleError = 0.0;
  for (size_t v = 0; v < rest.positions.size(); ++v)
    if (moved.fragment[v] == uint32_t(centre))
      particleError = std::max(particleError, double(glm::length(moved.positions[v] - rest.positions[v] - particleMove)));
    else
      bodyError = std::max(bodyError, double(glm::length(moved.positions[v] - (turn * rest.positions[v] + shift))));
  MESSAGE("body vertices within " << bodyError << " m of the turned rest surface, the particle's within "
                                  << particleError << " m of its node's translation");
  CHECK(bodyError < 1e-6);
  CHECK(particleError < 1e-6);
}

TEST_CASE("fem-debris surface: a cube cut through the middle is two closed halves that keep their volumes apart") {
  FemSolver solver = cube();
  auto right = [&](int node) { return solver.nodes().reference[node].x > -1e-4f; };  // the plane x = 0 included
  {
    FemTetArrays& t = solver.editTets();
    for (int e = 0; e < solver.tetCount(); ++e) {
      int onRight = 0;
      for (int k = 0; k < 4; ++k) onRight += right(t.corners[e].node[k]);
      if (onRight % 4 != 0) t.failed[e] = 1;  // every tetrahedron across the cut
    }
  }
  const auto before = measurePieces(surfaceOf(solver), kWeld);
  double sum = 0.0;
  int halves = 0;
  for (const auto& [key, m] : before) {
    CHECK(m.openEdges == 0);
    sum += m.volume;
    halves += m.volume > 0.2 * kSide * kSide * kSide;
  }
  CHECK(halves == 2);
  CHECK(sum == RelApprox(double(kSide) * kSide * kSide).epsilon(1e-5));
  {  // each side 2 mm out along x, every node with its side
    FemNodeArrays& n = solver.editNodes();
    for (int i = 0; i < solver.nodeCount(); ++i) n.displacement[i] = vec3(right(i) ? 0.002f : -0.002f, 0.0f, 0.0f);
  }
  const auto after = measurePieces(surfaceOf(solver), kWeld);
  REQUIRE(after.size() == before.size());
  for (const auto& [key, m] : after) {
    CHECK(m.openEdges == 0);
    CHECK(m.volume == RelApprox(before.at(key).volume).epsilon(1e-4));
  }
}
