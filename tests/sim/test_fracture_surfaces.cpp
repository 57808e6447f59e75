// Fracture surfaces (sim/surface, Lu et al. 2021 sec. 3.2): closed meshes per fragment whose area and volume match
// the body, crack faces along the crack, touching pieces kept apart, cracks one element apart both shown.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "bdem_test_scenes.h"
#include "surface_measure.h"
#include "io/surface_ply.h"
#include "solvers/bdem/bdem_solver.h"
#include "surface/marching_tets.h"

using namespace frac;

using test::measurePieces;
using test::PieceMeasure;

TEST_CASE("marching tetrahedra: each of the 16 sign cases of every Kuhn tetrahedron faces its outside corners") {
  for (int t = 0; t < 6; ++t)
    for (int mask = 0; mask < 256; ++mask) {
      float f[8];
      for (int k = 0; k < 8; ++k) f[k] = (mask >> k) & 1 ? -1.0f : 1.0f;
      TetEdge tri[2][3];
      const int n = tetTriangles(t, f, tri);
      for (int m = 0; m < n; ++m) {
        auto corner = [](int c) { return vec3(float(c & 1), float((c >> 1) & 1), float((c >> 2) & 1)); };
        vec3 p[3];
        for (int v = 0; v < 3; ++v) p[v] = 0.5f * (corner(tri[m][v].lower) + corner(tri[m][v].upper));
        const vec3 normal = glm::cross(p[1] - p[0], p[2] - p[0]);
        vec3 inside(0.0f), outside(0.0f);
        for (int k = 0; k < 4; ++k) (f[kuhnTetCorner(t, k)] < 0.0f ? inside : outside) += corner(kuhnTetCorner(t, k));
        CHECK(glm::dot(normal, outside - inside) > 0.0f);
      }
    }
}

TEST_CASE("fracture surfaces: an intact box of packed elements is one closed surface with the box's area and volume") {
  // 24 elements across the smallest side (HCP, r = 2.5 mm): the mesh follows the shape's faces, not the spheres.
  const vec3 size(0.12f, 0.08f, 0.10f);
  SceneDesc scene = test::blockScene(size, 0.08f / 48.0f, test::testMaterial());
  BdemSolver solver;
  solver.load(scene, {2});
  SurfaceMesh mesh;
  solver.writeSurfaces(mesh, SurfaceSettings{});
  const auto pieces = measurePieces(mesh);
  REQUIRE(pieces.size() == 1);
  const PieceMeasure& m = pieces.begin()->second;
  const double area = 2.0 * (size.x * size.y + size.y * size.z + size.z * size.x), volume = size.x * size.y * size.z;
  MESSAGE(m.triangles << " triangles, area " << m.area / area << " and volume " << m.volume / volume << " of the box's");
  CHECK(m.openEdges == 0);
  CHECK(m.area == RelApprox(area).epsilon(0.05));
  CHECK(m.volume == RelApprox(volume).epsilon(0.05));
  for (float c : mesh.crack) CHECK(c == 0.0f);  // no crack faces on an intact body
}

namespace {

// A box cut through by cracks at x = each of `cuts` (rectangles over the whole cross-section).
SceneDesc crackedBox(const std::vector<float>& cuts, float radius) {
  const vec3 size(0.10f, 0.06f, 0.06f);
  SceneDesc scene = test::blockScene(size, radius, test::testMaterial());
  for (float x : cuts) {
    CrackDesc crack;
    crack.origin = vec3(x, -size.y, -size.z);
    crack.edgeU = vec3(0.0f, 2.0f * size.y, 0.0f);
    crack.edgeV = vec3(0.0f, 0.0f, 2.0f * size.z);
    scene.bodies[0].cracks.push_back(crack);
  }
  return scene;
}

// Moves every element whose centre lies beyond x = `from` by `shift` along x.
void shiftBeyond(BdemSolver& solver, float from, float shift) {
  BdemElementArrays& e = solver.elements();
  for (int i = 0; i < e.size(); ++i)
    if (e.position[i].x > from) e.position[i].x += shift;
}

// The area-weighted mean normal of each piece's crack faces (triangles whose vertices are mostly on crack faces).
std::map<uint32_t, glm::dvec3> crackNormals(const SurfaceMesh& mesh, std::map<uint32_t, double>& crackArea) {
  std::map<uint32_t, glm::dvec3> sum;
  for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    const uint32_t i[3] = {mesh.indices[t], mesh.indices[t + 1], mesh.indices[t + 2]};
    if (mesh.crack[i[0]] + mesh.crack[i[1]] + mesh.crack[i[2]] < 1.5f) continue;
    const glm::dvec3 a(mesh.positions[i[0]]), b(mesh.positions[i[1]]), c(mesh.positions[i[2]]);
    const glm::dvec3 n = 0.5 * glm::cross(b - a, c - a);
    sum[mesh.fragment[i[0]]] += n;
    crackArea[mesh.fragment[i[0]]] += glm::length(n);
  }
  return sum;
}

}  // namespace

TEST_CASE("fracture surfaces: a box cut by one crack and pulled apart is two closed pieces with flat crack faces") {
  const float r = 0.0025f;
  BdemSolver solver;
  solver.load(crackedBox({0.0011f}, r), {2});
  shiftBeyond(solver, 0.0011f, 0.6f * r);
  SurfaceMesh mesh;
  solver.writeSurfaces(mesh, SurfaceSettings{});
  const auto pieces = measurePieces(mesh);
  REQUIRE(pieces.size() == 2);
  for (const auto& [key, m] : pieces) CHECK(m.openEdges == 0);
  std::map<uint32_t, double> area;
  const auto normals = crackNormals(mesh, area);
  REQUIRE(normals.size() == 2);
  for (const auto& [key, n] : normals) {
    // Each piece's crack face points at the other piece: -x for the left piece, +x for the right.
    const double angle = std::acos(std::abs(glm::normalize(n).x)) * 180.0 / kPi;
    MESSAGE("piece " << key << ": crack face " << area[key] / (0.06 * 0.06) << " of the cross-section, normal "
                     << angle << " degrees from the crack's");
    CHECK(angle < 5.0);
    CHECK(area[key] == RelApprox(0.06 * 0.06).epsilon(0.15));
  }
}

TEST_CASE("fracture surfaces: the same bits on 1 and 2 threads, and each normal is its triangles' area-weighted mean") {
  const float r = 0.0025f;
  SurfaceMesh mesh[2];
  for (int t = 0; t < 2; ++t) {
    BdemSolver solver;
    solver.load(crackedBox({0.0011f}, r), {t + 1});
    shiftBeyond(solver, 0.0011f, 0.6f * r);
    solver.writeSurfaces(mesh[t], SurfaceSettings{});
  }
  REQUIRE(mesh[0].triangleCount() > 1000);
  CHECK(mesh[0].indices == mesh[1].indices);
  CHECK(std::memcmp(mesh[0].positions.data(), mesh[1].positions.data(), sizeof(vec3) * mesh[0].positions.size()) == 0);
  CHECK(std::memcmp(mesh[0].normals.data(), mesh[1].normals.data(), sizeof(vec3) * mesh[0].normals.size()) == 0);
  CHECK(mesh[0].element == mesh[1].element);
  CHECK(mesh[0].crack == mesh[1].crack);
  // The sum of the cross products of the triangles around each vertex, in double: the normal within float rounding.
  const SurfaceMesh& m = mesh[0];
  std::vector<glm::dvec3> sum(m.positions.size(), glm::dvec3(0.0));
  for (size_t t = 0; t + 2 < m.indices.size(); t += 3) {
    const glm::dvec3 a(m.positions[m.indices[t]]), b(m.positions[m.indices[t + 1]]), c(m.positions[m.indices[t + 2]]);
    const glm::dvec3 n = glm::cross(b - a, c - a);
    for (int k = 0; k < 3; ++k) sum[m.indices[t + k]] += n;
  }
  double worst = 0.0;
  for (size_t v = 0; v < sum.size(); ++v)
    worst = std::max(worst, glm::length(glm::normalize(sum[v]) - glm::dvec3(m.normals[v])));
  MESSAGE("largest difference from the area-weighted normal: " << worst);
  CHECK(worst < 1e-4);
}

TEST_CASE("fracture surfaces: two pieces in contact stay two surfaces, two cracks one element apart give three") {
  const float r = 0.0025f;
  {
    BdemSolver touching;  // the cracked box as built: the pieces touch along the whole crack
    touching.load(crackedBox({0.0011f}, r), {2});
    SurfaceMesh mesh;
    touching.writeSurfaces(mesh, SurfaceSettings{});
    const auto pieces = measurePieces(mesh);
    CHECK(pieces.size() == 2);
    for (const auto& [key, m] : pieces) CHECK(m.openEdges == 0);
  }
  {
    // Two cracks one lattice spacing (2 r) apart: a slab one element thick between two pieces, all touching.
    BdemSolver slab;
    slab.load(crackedBox({-0.0011f, -0.0011f + 2.0f * r}, r), {2});
    SurfaceMesh mesh;
    slab.writeSurfaces(mesh, SurfaceSettings{});
    const auto pieces = measurePieces(mesh);
    CHECK(pieces.size() == 3);
    for (const auto& [key, m] : pieces) {
      CHECK(m.openEdges == 0);
      CHECK(m.volume > 0.0);
    }
  }
}

TEST_CASE("fracture surfaces: the PLY export of a cracked box reads back with the same triangles, kill-safe") {
  BdemSolver solver;
  solver.load(crackedBox({0.0011f}, 0.004f), {2});
  shiftBeyond(solver, 0.0011f, 0.002f);
  SurfaceMesh mesh;
  solver.writeSurfaces(mesh, SurfaceSettings{});
  const std::string path = (std::filesystem::temp_directory_path() / "frac_test_mesh_000000.ply").string();
  writeSurfacePly(mesh, path);
  CHECK_FALSE(std::filesystem::exists(path + ".partial"));
  const SurfaceMesh back = readSurfacePly(path);
  CHECK(back.triangleCount() == mesh.triangleCount());
  CHECK(back.positions.size() == mesh.positions.size());
  CHECK(back.indices == mesh.indices);
  CHECK(back.fragment == mesh.fragment);
  CHECK(back.crack == mesh.crack);
  std::filesystem::remove(path);
  // An unwritable place: a clear error naming the file, and nothing left behind.
  const std::string bad = "/proc/frac_no_such_dir/mesh.ply";
  CHECK_THROWS_WITH_AS(writeSurfacePly(mesh, bad), doctest::Contains(bad.c_str()), std::runtime_error);
  CHECK_FALSE(std::filesystem::exists(bad + ".partial"));
}
