// Shapes, inside tests and sphere packing against closed-form volumes and lattice geometry.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "geometry/mesh_shape.h"
#include "geometry/packing.h"
#include "geometry/shape_triangles.h"
#include "geometry/shapes.h"
#include "io/scene_error.h"
#include "solvers/solver.h"

#ifndef FRACTURE_SOURCE_DIR
#define FRACTURE_SOURCE_DIR "."  // CMake defines it; a hand-built test runs from the repository root
#endif

using namespace frac;

namespace {

const double kHcpFraction = kPi / (3.0 * std::sqrt(2.0));  // 0.7405
const double kCubicFraction = kPi / 6.0;                   // 0.5236

double sphereVolume(double r) { return 4.0 / 3.0 * kPi * r * r * r; }

// Volume the packed elements stand for: count * element volume / lattice packing fraction.
double packedVolume(size_t count, double r, double fraction) { return double(count) * sphereVolume(r) / fraction; }

// The packing keeps a lattice site when its whole sphere lies in the shape, so the centres fill the shape eroded by
// one element radius and a curved body's elements fill 13-23% less than its shape at R = 15 r (a shell about r thick
// goes missing; boxes whose edges are multiples of 2 r are exact). Known defect, measured here: the packed volume
// (sites x their lattice cell) lies between the closed-form volume of the shape eroded by r, less 5%, and the shape's.
void checkPackedBetween(double packed, double eroded, double volume) {
  CAPTURE(packed);
  CAPTURE(eroded);
  CAPTURE(volume);
  CHECK(packed >= 0.95 * eroded);
  CHECK(packed <= volume);
}

ShapeDesc boxDesc(vec3 size) {
  ShapeDesc d;
  d.type = ShapeType::Box;
  d.size = size;
  return d;
}

ShapeDesc roundDesc(ShapeType type, float radius, float height = 0.0f) {
  ShapeDesc d;
  d.type = type;
  d.radius = radius;
  d.height = height;
  return d;
}

ShapeDesc revolveDesc(std::vector<glm::vec2> profile, float wall = 0.0f) {
  ShapeDesc d;
  d.type = ShapeType::Revolve;
  d.profile = std::move(profile);
  d.wall = wall;
  return d;
}

ShapeDesc meshDesc(const std::string& path, float scale = 1.0f) {
  ShapeDesc d;
  d.type = ShapeType::Mesh;
  d.meshPath = path;
  d.meshScale = scale;
  return d;
}

// Deterministic uniform points in [lo, hi]^3.
struct PointSource {
  std::mt19937 engine;
  explicit PointSource(unsigned seed) : engine(seed) {}
  float uniform(float lo, float hi) { return lo + (hi - lo) * float(engine() / 4294967296.0); }
  vec3 point(vec3 lo, vec3 hi) { return {uniform(lo.x, hi.x), uniform(lo.y, hi.y), uniform(lo.z, hi.z)}; }
};

struct NeighbourStats {
  int minTouching = 1 << 30, maxTouching = 0;  // neighbours at 2r within tolerance
  double minDistance = 1e30;                   // over all pairs involving an interior centre
  int interiorCount = 0;
};

// Brute force over every pair that involves a centre for which `interior` holds.
template <class Pred>
NeighbourStats neighbourStats(const std::vector<vec3>& centres, float r, Pred interior) {
  NeighbourStats s;
  for (size_t i = 0; i < centres.size(); ++i) {
    if (!interior(centres[i])) continue;
    ++s.interiorCount;
    int touching = 0;
    for (size_t j = 0; j < centres.size(); ++j) {
      if (j == i) continue;
      const double d = glm::length(glm::dvec3(centres[i]) - glm::dvec3(centres[j]));
      s.minDistance = std::min(s.minDistance, d);
      if (std::abs(d - 2.0 * r) <= 1e-4 * r) ++touching;
    }
    s.minTouching = std::min(s.minTouching, touching);
    s.maxTouching = std::max(s.maxTouching, touching);
  }
  return s;
}

bool awayFromBoxFaces(const vec3& p, float half, float margin) {
  return std::abs(std::abs(p.x) - half) > margin && std::abs(std::abs(p.y) - half) > margin &&
         std::abs(std::abs(p.z) - half) > margin;
}

std::filesystem::path scratchDir() {
  const auto dir = std::filesystem::temp_directory_path() / "frac_test_geometry";
  std::filesystem::create_directories(dir);
  return dir;
}

// Unit cube centred at the origin, written with quads (tinyobjloader triangulates), outward-oriented.
std::string writeCubeObj(const std::string& name, bool dropTopFace = false) {
  const auto path = scratchDir() / name;
  std::ofstream f(path);
  f << "# unit cube\n";
  for (int i = 0; i < 8; ++i)
    f << "v " << ((i & 1) ? 0.5 : -0.5) << ' ' << ((i & 2) ? 0.5 : -0.5) << ' ' << ((i & 4) ? 0.5 : -0.5) << '\n';
  f << "f 1 5 7 3\n"   // x = -0.5
       "f 2 4 8 6\n"   // x = +0.5
       "f 1 2 6 5\n"   // y = -0.5
       "f 1 3 4 2\n"   // z = -0.5
       "f 5 6 8 7\n";  // z = +0.5
  if (!dropTopFace) f << "f 3 7 8 4\n";  // y = +0.5
  return path.string();
}

std::string sceneErrorMessage(const ShapeDesc& desc, const std::string& baseDir) {
  try {
    makeShape(desc, baseDir);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "";
}

const std::string kMeshDir = std::string(FRACTURE_SOURCE_DIR) + "/assets/meshes";

}  // namespace

TEST_CASE("HCP in a large box: packing fraction pi / (3 sqrt 2) within 3%") {
  const float r = 0.01f, edge = 80 * r;
  const auto box = makeShape(boxDesc(vec3(edge)), "");
  const auto centres = packShape(*box, r, Packing::Hcp);
  // Spheres stay inside the box, so the layers at the faces are thinner: measure in the central half of the box.
  const float half = 0.25f * edge;
  size_t inner = 0;
  for (const vec3& c : centres) inner += std::abs(c.x) < half && std::abs(c.y) < half && std::abs(c.z) < half;
  const double fraction = double(inner) * sphereVolume(r) / std::pow(2.0 * half, 3);
  CHECK(fraction == RelApprox(kHcpFraction).epsilon(0.03));
}

TEST_CASE("HCP: every interior element touches exactly 12 neighbours at 2r and none is closer") {
  const float r = 0.5f, edge = 20 * r;
  const auto centres = packShape(*makeShape(boxDesc(vec3(edge)), ""), r, Packing::Hcp);
  const float interiorHalf = 0.5f * edge - 2.5f * r;
  const auto stats = neighbourStats(centres, r, [&](const vec3& p) {
    return std::abs(p.x) < interiorHalf && std::abs(p.y) < interiorHalf && std::abs(p.z) < interiorHalf;
  });
  REQUIRE(stats.interiorCount > 100);
  CHECK(stats.minTouching == 12);
  CHECK(stats.maxTouching == 12);
  CHECK(stats.minDistance >= 2.0 * r * (1.0 - 1e-4));
}

TEST_CASE("a packed bar's section as its lattice's cells: N HCP layers are N layer pitches deep, each line of sites "
          "along the bar stands for a layer pitch times a row pitch, and simple cubic's cells are the spheres' extent") {
  // Lu's beam section (13.6 r square, 84 r long, as the lab's bending beam): the closed-form cells of the HCP
  // lattice (layers 2 sqrt(6) / 3 r apart, rows sqrt(3) r apart: 4 sqrt(2) r^3 a site) against the probes' reading.
  const float r = 0.001f;
  for (const Packing packing : {Packing::Hcp, Packing::SimpleCubic}) {
    CAPTURE(int(packing));
    const auto centres = packShape(*makeShape(boxDesc(vec3(84 * r, 13.6f * r, 13.6f * r)), ""), r, packing);
    ReferenceElements body;
    body.cell = latticeCell(packing);
    for (size_t k = 0; k < centres.size(); ++k) body.add(int(k), centres[k], r);
    std::vector<float> layers;           // distinct heights
    std::vector<std::pair<float, float>> lines;  // distinct (y, z): the lines of sites along x
    for (const vec3& c : centres) {
      auto same = [&](float a, float b) { return std::abs(a - b) < 1e-3f * r; };  // one site's coordinate
      if (std::none_of(layers.begin(), layers.end(), [&](float y) { return same(y, c.y); })) layers.push_back(c.y);
      if (std::none_of(lines.begin(), lines.end(), [&](auto l) { return same(l.first, c.y) && same(l.second, c.z); }))
        lines.push_back({c.y, c.z});
    }
    const bool hcp = packing == Packing::Hcp;
    const double layerPitch = hcp ? 2.0 * std::sqrt(6.0) / 3.0 * r : 2.0 * r, rowPitch = hcp ? std::sqrt(3.0) * r : 2.0 * r;
    const vec3 x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
    MESSAGE(layers.size() << " layers, " << lines.size() << " lines of sites");
    CHECK(body.depth(y) == RelApprox(double(layers.size()) * layerPitch).epsilon(1e-5));
    CHECK(body.sectionArea(x, y, z) == RelApprox(double(lines.size()) * layerPitch * rowPitch).epsilon(1e-5));
    if (!hcp) CHECK(body.sectionArea(x, y, z) == RelApprox(body.extent(y) * body.extent(z)).epsilon(1e-5));
    if (hcp) CHECK(body.sectionArea(x, y, z) < 0.95 * body.extent(y) * body.extent(z));  // the rim the spheres reach
  }
}

TEST_CASE("simple cubic: 6 neighbours, fraction pi/6, lattice centred in the box") {
  const float r = 0.01f, edge = 20 * r;
  const auto centres = packShape(*makeShape(boxDesc(vec3(edge)), ""), r, Packing::SimpleCubic);
  CHECK(centres.size() == 10u * 10u * 10u);
  const double fraction = double(centres.size()) * sphereVolume(r) / double(edge * edge * edge);
  CHECK(fraction == RelApprox(kCubicFraction).epsilon(1e-4));

  vec3 lo(1e9f), hi(-1e9f);
  for (const vec3& c : centres) lo = glm::min(lo, c), hi = glm::max(hi, c);
  for (int k = 0; k < 3; ++k) {  // first and last sites a radius in from the faces
    CHECK(lo[k] == RelApprox(-0.5f * edge + r).epsilon(1e-5));
    CHECK(hi[k] == RelApprox(0.5f * edge - r).epsilon(1e-5));
  }

  const float interiorHalf = 0.5f * edge - 2.5f * r;
  const auto stats = neighbourStats(centres, r, [&](const vec3& p) {
    return std::abs(p.x) < interiorHalf && std::abs(p.y) < interiorHalf && std::abs(p.z) < interiorHalf;
  });
  REQUIRE(stats.interiorCount > 100);
  CHECK(stats.minTouching == 6);
  CHECK(stats.maxTouching == 6);
  CHECK(stats.minDistance >= 2.0 * r * (1.0 - 1e-4));
}

TEST_CASE("packing is deterministic") {
  const auto sphere = makeShape(roundDesc(ShapeType::Sphere, 0.1f), "");
  for (Packing packing : {Packing::Hcp, Packing::SimpleCubic}) {
    const auto a = packShape(*sphere, 0.01f, packing);
    const auto b = packShape(*sphere, 0.01f, packing);
    REQUIRE(a.size() == b.size());
    CHECK(std::equal(a.begin(), a.end(), b.begin()));
  }
}

TEST_CASE("packed volume of sphere, cylinder and capsule lies between the shape eroded by one element radius and the shape") {
  const float r = 0.005f;
  struct Case {
    ShapeDesc desc;
    double volume, eroded;  // the shape's and that of the shape eroded by r
  };
  const float R = 0.075f, H = 0.15f;
  const Case cases[] = {
      {roundDesc(ShapeType::Sphere, R), sphereVolume(R), sphereVolume(R - r)},
      {roundDesc(ShapeType::Cylinder, R, H), kPi * R * R * H, kPi * (R - r) * (R - r) * (H - 2 * r)},
      {roundDesc(ShapeType::Capsule, 0.05f, 0.1f), kPi * 0.05 * 0.05 * 0.1 + sphereVolume(0.05),
       kPi * (0.05 - r) * (0.05 - r) * 0.1 + sphereVolume(0.05 - r)},
  };
  for (const Case& c : cases) {
    const auto shape = makeShape(c.desc, "");
    CAPTURE(int(c.desc.type));
    checkPackedBetween(packedVolume(packShape(*shape, r, Packing::Hcp).size(), r, kHcpFraction), c.eroded, c.volume);
    checkPackedBetween(packedVolume(packShape(*shape, r, Packing::SimpleCubic).size(), r, kCubicFraction), c.eroded,
                       c.volume);
  }
}

TEST_CASE("shape bounds") {
  const Aabb box = makeShape(boxDesc(vec3(1, 2, 3)), "")->bounds();
  CHECK(box.lo.y == RelApprox(-1.0));
  CHECK(box.hi.z == RelApprox(1.5));
  const Aabb capsule = makeShape(roundDesc(ShapeType::Capsule, 0.1f, 0.4f), "")->bounds();
  CHECK(capsule.hi.y - capsule.lo.y == RelApprox(0.6));
  CHECK(capsule.hi.x == RelApprox(0.1));
  const Aabb cylinder = makeShape(roundDesc(ShapeType::Cylinder, 0.1f, 0.4f), "")->bounds();
  CHECK(cylinder.hi.y == RelApprox(0.2));
}

TEST_CASE("capsule caps are hemispheres") {
  const auto capsule = makeShape(roundDesc(ShapeType::Capsule, 0.1f, 0.4f), "");
  CHECK(capsule->inside(vec3(0, 0.299f, 0)));
  CHECK_FALSE(capsule->inside(vec3(0, 0.301f, 0)));
  CHECK(capsule->inside(vec3(0.07f, 0.2f + 0.07f, 0)));          // 0.099 from the cap centre
  CHECK_FALSE(capsule->inside(vec3(0.071f, 0.2f + 0.071f, 0)));  // 0.1004
}

TEST_CASE("revolve of a rectangle profile is a cylinder") {
  const float R = 0.075f, H = 0.15f, r = 0.005f;
  const auto revolve = makeShape(revolveDesc({{0, -0.5f * H}, {R, -0.5f * H}, {R, 0.5f * H}, {0, 0.5f * H}}), "");
  const auto cylinder = makeShape(roundDesc(ShapeType::Cylinder, R, H), "");
  checkPackedBetween(packedVolume(packShape(*revolve, r, Packing::Hcp).size(), r, kHcpFraction),
                     kPi * (R - r) * (R - r) * (H - 2 * r), kPi * R * R * H);

  PointSource points(7);
  int compared = 0, mismatches = 0;
  for (int i = 0; i < 20000; ++i) {
    const vec3 p = points.point(vec3(-0.1f), vec3(0.1f));
    const float radial = std::sqrt(p.x * p.x + p.z * p.z);
    if (std::abs(radial - R) < 1e-4f || std::abs(std::abs(p.y) - 0.5f * H) < 1e-4f) continue;
    ++compared;
    mismatches += revolve->inside(p) != cylinder->inside(p);
  }
  CHECK(compared > 19000);
  CHECK(mismatches == 0);
}

TEST_CASE("revolve of a triangle profile is a cone") {
  const float R = 0.08f, H = 0.16f, r = 0.004f;
  const auto cone = makeShape(revolveDesc({{0, 0}, {R, 0}, {0, H}}), "");
  // Eroded by r the cone is a similar cone: its base rises by r and its slant moves in by r, so its height is
  // H - r - r L / R (L the slant length).
  const double slant = std::sqrt(double(R) * R + double(H) * H), scale = (H - r - r * slant / R) / H;
  checkPackedBetween(packedVolume(packShape(*cone, r, Packing::Hcp).size(), r, kHcpFraction),
                     scale * scale * scale * kPi * R * R * H / 3.0, kPi * R * R * H / 3.0);
}

TEST_CASE("revolve with a wall is a closed shell, and the axis edge is not a surface") {
  const float R = 0.1f, H = 0.2f, wall = 0.02f;
  const auto shell = makeShape(revolveDesc({{0, 0}, {R, 0}, {R, H}, {0, H}}, wall), "");
  PointSource points(11);
  int inShell = 0, mismatches = 0;
  for (int i = 0; i < 20000; ++i) {
    const vec3 p = points.point(vec3(-0.12f, -0.02f, -0.12f), vec3(0.12f, 0.22f, 0.12f));
    const float radial = std::sqrt(p.x * p.x + p.z * p.z);
    const bool inOuter = radial < R && p.y > 0 && p.y < H;
    const bool inCavity = radial < R - wall && p.y > wall && p.y < H - wall;
    const float gaps[] = {radial - R, radial - (R - wall), p.y, p.y - wall, p.y - H, p.y - (H - wall)};
    if (std::any_of(std::begin(gaps), std::end(gaps), [](float g) { return std::abs(g) < 1e-4f; })) continue;
    const bool expected = inOuter && !inCavity;
    inShell += expected;
    mismatches += shell->inside(p) != expected;
  }
  CHECK(inShell > 1000);
  CHECK(mismatches == 0);
  CHECK_FALSE(shell->inside(vec3(0.001f, 0.5f * H, 0)));  // the axis of the cavity stays empty
}

TEST_CASE("revolve needs a profile of at least 3 points") {
  CHECK_THROWS_AS(makeShape(revolveDesc({{0, 0}, {1, 0}}), ""), SceneError);
}

TEST_CASE("unit cube OBJ answers like the Box shape away from the surface") {
  writeCubeObj("cube.obj");
  for (float scale : {1.0f, 2.0f}) {
    CAPTURE(scale);
    const auto mesh = makeShape(meshDesc("cube.obj", scale), scratchDir().string());  // relative to baseDir
    const auto box = makeShape(boxDesc(vec3(scale)), "");
    const Aabb b = mesh->bounds();
    CHECK(b.lo.x == RelApprox(-0.5 * scale));
    CHECK(b.hi.z == RelApprox(0.5 * scale));

    PointSource points(3);
    int compared = 0, mismatches = 0;
    for (int i = 0; i < 20000; ++i) {
      const vec3 p = points.point(vec3(-scale), vec3(scale));
      if (!awayFromBoxFaces(p, 0.5f * scale, 1e-4f)) continue;
      ++compared;
      mismatches += mesh->inside(p) != box->inside(p);
    }
    // Lattice points in line with the cube's edges, vertices and face diagonals.
    for (int i = -10; i <= 10; ++i)
      for (int j = -10; j <= 10; ++j)
        for (int k = -10; k <= 10; ++k) {
          const vec3 p = 0.1f * scale * vec3(i, j, k);
          if (!awayFromBoxFaces(p, 0.5f * scale, 1e-4f)) continue;
          ++compared;
          mismatches += mesh->inside(p) != box->inside(p);
        }
    CHECK(compared > 25000);
    CHECK(mismatches == 0);
  }
}

TEST_CASE("absolute mesh paths ignore baseDir") {
  const std::string path = writeCubeObj("cube_absolute.obj");
  const auto mesh = makeShape(meshDesc(path), "/nonexistent/base/dir");
  CHECK(mesh->inside(vec3(0.4f)));
  CHECK_FALSE(mesh->inside(vec3(0.6f, 0, 0)));
}

TEST_CASE("bad meshes throw SceneError naming the file") {
  SUBCASE("missing file") {
    const std::string message = sceneErrorMessage(meshDesc("no_such_mesh.obj"), "/tmp/frac_missing_dir");
    CHECK(message.find("/tmp/frac_missing_dir/no_such_mesh.obj") != std::string::npos);
  }
  SUBCASE("open mesh") {
    writeCubeObj("open_cube.obj", true);
    const std::string message = sceneErrorMessage(meshDesc("open_cube.obj"), scratchDir().string());
    CHECK(message.find("open_cube.obj") != std::string::npos);
    CHECK(message.find("not closed") != std::string::npos);
  }
  SUBCASE("no triangles") {
    std::ofstream(scratchDir() / "points_only.obj") << "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
    const std::string message = sceneErrorMessage(meshDesc("points_only.obj"), scratchDir().string());
    CHECK(message.find("points_only.obj") != std::string::npos);
    CHECK(message.find("no triangles") != std::string::npos);
  }
}

TEST_CASE("jelly.obj: closed, outward, winding number 1 inside and 0 outside") {
  const auto shape = makeShape(meshDesc("jelly.obj"), kMeshDir);
  const auto& jelly = dynamic_cast<const MeshShape&>(*shape);
  CHECK(countOpenEdges(jelly.mesh()) == 0);
  CHECK(jelly.mesh().triangles.size() >= 1000);
  CHECK(jelly.mesh().triangles.size() <= 3000);
  CHECK(jelly.signedVolume() > 0.0);

  const Aabb b = jelly.bounds();
  CHECK(b.lo.y == doctest::Approx(0.0).epsilon(1e-6));
  CHECK(b.hi.y - b.lo.y == RelApprox(0.15).epsilon(0.01));

  for (const vec3& p : {vec3(0, 0.07f, 0), vec3(0.02f, 0.05f, -0.01f), vec3(-0.01f, 0.1f, 0.02f)})
    CHECK(jelly.windingNumber(p) == RelApprox(1.0).epsilon(1e-6));
  for (const vec3& p : {vec3(1, 1, 1), vec3(0, -0.01f, 0), vec3(0, 0.2f, 0), vec3(0.2f, 0.07f, 0)})
    CHECK(jelly.windingNumber(p) == doctest::Approx(0.0).scale(1.0).epsilon(1e-6));
}

TEST_CASE("jelly.obj: the accelerated inside test agrees with the direct winding number") {
  const auto shape = makeShape(meshDesc("jelly.obj"), kMeshDir);
  const auto& jelly = dynamic_cast<const MeshShape&>(*shape);
  const Aabb b = jelly.bounds();
  const vec3 pad = 0.05f * (b.hi - b.lo);
  PointSource points(5);
  int inside = 0, mismatches = 0;
  for (int i = 0; i < 4000; ++i) {
    const vec3 p = points.point(b.lo - pad, b.hi + pad);
    const bool direct = jelly.windingNumber(p) > 0.5;
    inside += direct;
    mismatches += jelly.inside(p) != direct;
  }
  CHECK(inside > 1000);
  CHECK(mismatches == 0);
}

TEST_CASE("jelly.obj packs to between the mesh volume and the mesh eroded by one element radius") {
  const auto jelly = makeShape(meshDesc("jelly.obj"), kMeshDir);
  const double volume = dynamic_cast<const MeshShape&>(*jelly).signedVolume();
  CHECK(volume == RelApprox(1.698e-3).epsilon(0.01));  // what scripts/make_jelly_mesh.py reports

  // The eroded mesh's volume to first order (Steiner): the volume less the surface's area times r.
  const TriangleSurface surface = shapeTriangles(meshDesc("jelly.obj"), kMeshDir, 0.001f);
  double area = 0.0;
  for (const auto& t : surface.triangles)
    area += 0.5 * glm::length(glm::cross(surface.vertices[size_t(t[1])] - surface.vertices[size_t(t[0])],
                                         surface.vertices[size_t(t[2])] - surface.vertices[size_t(t[0])]));
  MESSAGE("jelly.obj surface area " << area << " m^2");
  const float r = 0.004f;
  const size_t count = packShape(*jelly, r, Packing::Hcp).size();
  checkPackedBetween(packedVolume(count, r, kHcpFraction), volume - area * r, volume);

  const float fine = 0.0018f;  // about 50k elements
  const auto start = std::chrono::steady_clock::now();
  const size_t fineCount = packShape(*jelly, fine, Packing::Hcp).size();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MESSAGE("jelly.obj HCP r = 1.8 mm: " << fineCount << " elements in " << seconds << " s");
  checkPackedBetween(packedVolume(fineCount, fine, kHcpFraction), volume - area * fine, volume);
  // The missing shell is about r thick: the fine packing misses r_fine / r of the coarse one's deficit, within 15%.
  CHECK((volume - packedVolume(fineCount, fine, kHcpFraction)) / (volume - packedVolume(count, r, kHcpFraction)) ==
        RelApprox(fine / r).epsilon(0.15));
}
