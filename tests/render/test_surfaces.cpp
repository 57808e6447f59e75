// Fracture surfaces in the renderer (render/surface_renderer.h) on lavapipe: crack faces in their material's interior
// colour, outer faces in the element colour of the mode (the sphere's colour), body spheres hidden with surfaces
// only while projectiles stay, surfaces casting shadows, and the draw mode's registry key.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>

#include "../sim/bdem_test_scenes.h"
#include "color_map.h"
#include "core/params.h"
#include "offscreen_renderer.h"
#include "pixel_checks.h"
#include "solvers/bdem/bdem_solver.h"
#include "surface_vertices.h"

using namespace frac;
using namespace frac::render;
using namespace frac::render::pixels;

namespace {

const glm::vec3 kStone{0.6f, 0.3f, 0.2f}, kInside{0.2f, 0.7f, 0.4f};

// Of the pixels on a 9 x 9 grid over the square of half-size `half` around (cx, cy), the share near `color`.
double shareNear(const std::vector<uint8_t>& px, uint32_t w, int cx, int cy, int half, glm::vec3 color) {
  int hits = 0;
  for (int j = -4; j <= 4; ++j)
    for (int i = -4; i <= 4; ++i) hits += near(at(px, w, cx + i * half / 4, cy + j * half / 4), color, 2);
  return hits / 81.0;
}

// A 10 x 6 x 6 cm box of 2.5 mm elements cut by a crack at x = 1.1 mm, the right piece moved `shift` along +x
// (tests/sim/test_fracture_surfaces.cpp's crackedBox / shiftBeyond), as a frame with its surfaces.
RenderFrame crackedBoxFrame(float shift) {
  MaterialDesc stone = test::testMaterial("stone");
  stone.color = kStone;
  stone.interiorColor = kInside;
  SceneDesc scene = test::blockScene(vec3(0.10f, 0.06f, 0.06f), 0.0025f, stone);
  CrackDesc crack;
  crack.origin = vec3(0.0011f, -0.06f, -0.06f);
  crack.edgeU = vec3(0.0f, 0.12f, 0.0f);
  crack.edgeV = vec3(0.0f, 0.0f, 0.12f);
  scene.bodies[0].cracks.push_back(crack);
  BdemSolver solver;
  solver.load(scene, {2});
  BdemElementArrays& e = solver.elements();
  for (int i = 0; i < e.size(); ++i)
    if (e.position[i].x > 0.0011f) e.position[i].x += shift;
  RenderFrame frame;
  solver.writeFrame(frame, false);
  auto surfaces = std::make_shared<SurfaceMesh>();
  solver.writeSurfaces(*surfaces, SurfaceSettings{});
  frame.surfaces = surfaces;
  return frame;
}

Camera lookAt(glm::vec3 eye, glm::vec3 target) {
  Camera c;
  c.eye = eye;
  c.target = target;
  return c;
}

}  // namespace

TEST_CASE("surfaces: a cracked, pulled-apart box shows its crack face in the interior colour, outer faces in the "
          "material colour") {
  const RenderFrame frame = crackedBoxFrame(0.2f);
  REQUIRE(frame.materialInteriorColors.size() == 1);
  CHECK(frame.materialInteriorColors[0] == kInside);  // MaterialDesc::interiorColor reaches the frame
  const uint32_t w = 160, h = 120;
  OffscreenRenderer renderer(w, h, validated());
  RenderSettings settings;
  settings.lit = false;
  std::vector<uint8_t> px;
  // Between the pieces, looking at the left piece's crack face (x = 0, facing +x; it covers 60% of the height).
  const Camera crackView = lookAt({0.12f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f});
  settings.draw = DrawMode::Surfaces;
  renderer.render(frame, crackView, settings, px);
  const double inside = shareNear(px, w, w / 2, h / 2, h / 5, kInside);
  MESSAGE("crack face: " << inside << " of the samples in the interior colour, "
                         << renderer.drawnSurfaceTriangles() << " triangles");
  CHECK(inside > 0.95);
  CHECK(renderer.drawnSpheres() == 0);  // surfaces only: no body spheres
  settings.draw = DrawMode::Spheres;  // the same view as spheres: the material colour
  renderer.render(frame, crackView, settings, px);
  CHECK(shareNear(px, w, w / 2, h / 2, h / 5, kStone) > 0.95);
  // From the front (+z): the left piece's outer face (x in [-0.05, 0], z = 0.03) in the material colour.
  const Camera frontView = lookAt({-0.025f, 0.0f, 0.15f}, {-0.025f, 0.0f, 0.0f});
  settings.draw = DrawMode::Surfaces;
  renderer.render(frame, frontView, settings, px);
  CHECK(shareNear(px, w, w / 2, h / 2, h / 6, kStone) > 0.95);
  // The fragment mode colours the outer face by the piece's key, as its spheres.
  settings.colorMode = ColorMode::Fragment;
  renderer.render(frame, frontView, settings, px);
  size_t left = 0;
  while (frame.spheres[left].x > 0.0f) ++left;
  CHECK(shareNear(px, w, w / 2, h / 2, h / 6, fragmentColor(frame.fragment[left])) > 0.95);
  CHECK(renderer.context().validationMessages() == 0);
}

TEST_CASE("surfaces: the host's vertex colours are the spheres' colours in every mode, and projectiles stay spheres") {
  RenderFrame frame = crackedBoxFrame(0.02f);
  // A projectile in front of the left piece's front face.
  const size_t ball = frame.elementCount();
  frame.resizeElements(ball + 1);
  frame.spheres[ball] = glm::vec4(-0.025f, 0.0f, 0.06f, 0.01f);
  frame.orientations[ball] = quat(1, 0, 0, 0);
  frame.stressRatio[ball] = frame.damage[ball] = frame.speed[ball] = 0.0f;
  frame.fragment[ball] = uint32_t(ball);
  frame.material[ball] = 0;
  frame.kind[ball] = ElementKind::Projectile;
  for (size_t i = 0; i < ball; ++i) frame.stressRatio[i] = frame.damage[i] = frame.speed[i] = float(i % 7) / 6.0f;
  const uint32_t w = 160, h = 120;
  OffscreenRenderer renderer(w, h, validated());
  RenderSettings settings;
  settings.lit = false;
  settings.autoSpeedRange = false;
  settings.draw = DrawMode::Surfaces;
  std::vector<uint8_t> px;
  const Camera frontView = lookAt({-0.025f, 0.0f, 0.15f}, {-0.025f, 0.0f, 0.0f});
  for (int m = 0; m < kColorModeCount; ++m) {
    settings.colorMode = ColorMode(m);
    const ColorRange range = renderer.render(frame, frontView, settings, px);
    std::vector<SurfaceVertex> vertices;
    buildSurfaceVertices(frame, settings.colorMode, range, vertices);
    REQUIRE(vertices.size() == frame.surfaces->positions.size());
    for (size_t v = 0; v < vertices.size(); v += 97) {
      const size_t e = size_t(frame.surfaces->element[v]);
      INFO("mode " << colorModeName(settings.colorMode) << ", vertex " << v);
      CHECK(vertices[v].color == elementColor(frame, e, settings.colorMode, range));
    }
    // The projectile in the middle of the view, in the colour its sphere has in this mode.
    INFO("mode " << colorModeName(settings.colorMode));
    CHECK(near(at(px, w, w / 2, h / 2), elementColor(frame, ball, settings.colorMode, range), 2));
  }
  // elementColor is what the sphere shader draws: the sphere the centre pixel's ray meets first, in each mode.
  settings.draw = DrawMode::Spheres;
  const Camera sideView = lookAt({0.0f, 0.0f, 0.3f}, {0.0f, 0.0f, 0.0f});
  const double tanHalf = std::tan(0.5 * 45.0 * M_PI / 180.0);
  const glm::dvec3 eye(0.0, 0.0, 0.3);
  const glm::dvec3 ray = glm::normalize(glm::dvec3((2.0 * (w / 2 + 0.5) / w - 1.0) * tanHalf * w / h,
                                                   -(2.0 * (h / 2 + 0.5) / h - 1.0) * tanHalf, -1.0));
  size_t hit = 0;
  double nearest = 1e30;
  for (size_t i = 0; i < frame.elementCount(); ++i) {
    const glm::dvec3 c = glm::dvec3(glm::vec3(frame.spheres[i])) - eye;
    const double b = glm::dot(ray, c), d2 = glm::dot(c, c) - b * b, r = frame.spheres[i].w;
    if (d2 < r * r && b - std::sqrt(r * r - d2) < nearest) {
      nearest = b - std::sqrt(r * r - d2);
      hit = i;
    }
  }
  REQUIRE(nearest < 1e30);
  for (int m = 0; m < kColorModeCount; ++m) {
    settings.colorMode = ColorMode(m);
    const ColorRange range = renderer.render(frame, sideView, settings, px);
    INFO("spheres, mode " << colorModeName(settings.colorMode));
    CHECK(near(at(px, w, w / 2, h / 2), elementColor(frame, hit, settings.colorMode, range), 2));
  }
  CHECK(renderer.context().validationMessages() == 0);
}

TEST_CASE("surfaces: a box drawn as surfaces only casts a shadow on the ground") {
  MaterialDesc stone = test::testMaterial("stone");
  SceneDesc scene = test::blockScene(vec3(0.10f, 0.06f, 0.06f), 0.004f, stone);
  scene.bodies[0].transform.position = vec3(0.0f, 0.3f, 0.0f);
  BdemSolver solver;
  solver.load(scene, {2});
  RenderFrame frame;
  solver.writeFrame(frame, false);
  auto surfaces = std::make_shared<SurfaceMesh>();
  solver.writeSurfaces(*surfaces, SurfaceSettings{});
  frame.surfaces = surfaces;
  frame.meshes.push_back(planeMesh(vec3(0.0f), vec3(0, 1, 0), vec3(0.0f), 1.0f, vec3(0.6f)));
  frame.meshes.back().grid = false;
  const uint32_t w = 200, h = 150;
  OffscreenRenderer renderer(w, h, validated());
  Camera camera = lookAt({0.0f, 1.2f, 0.01f}, {0.0f, 0.0f, 0.0f});  // looking straight down
  camera.up = {0.0f, 0.0f, -1.0f};
  RenderSettings settings;
  settings.draw = DrawMode::Surfaces;
  std::vector<uint8_t> lit, unlit;
  renderer.render(frame, camera, settings, lit);
  settings.shadows = false;
  renderer.render(frame, camera, settings, unlit);
  // The light's direction (0.45, 1, 0.35): the box's centre at height 0.3 throws its shadow to (-0.135, 0, -0.105).
  const double t = std::tan(0.5 * 45.0 * M_PI / 180.0);
  const int px = int(std::lround(0.5 * w + 0.5 * h * (-0.135 / 1.2) / t));
  const int py = int(std::lround(0.5 * h - 0.5 * h * (0.105 / 1.2) / t));
  const Pixel shadowed = at(lit, w, px, py), open = at(unlit, w, px, py);
  MESSAGE("ground in the surfaces' shadow " << shadowed.g << ", without shadows " << open.g);
  CHECK(shadowed.g < open.g * 0.85);
  CHECK(at(lit, w, 5, 5).g == at(unlit, w, 5, 5).g);
  CHECK(renderer.context().validationMessages() == 0);
}

TEST_CASE("surfaces: the registry's render.draw and surface_cell_size match RenderSettings, names round-trip") {
  const ParamGroup& group = paramGroup("render");
  const ParamSpec* draw = group.find("draw");
  REQUIRE(draw);
  CHECK(draw->liveEditable);
  CHECK(draw->choices.size() == size_t(kDrawModeCount));
  for (const std::string& name : draw->choices) {
    const std::optional<DrawMode> mode = parseDrawMode(name);
    REQUIRE(mode);
    CHECK(drawModeName(*mode) == name);
  }
  CHECK_FALSE(parseDrawMode("cubes"));
  CHECK(draw->defaultValue == drawModeName(RenderSettings{}.draw));
  const ParamSpec* cell = group.find("surface_cell_size");
  REQUIRE(cell);
  CHECK(cell->defaultValue.get<float>() == RenderSettings{}.surfaceCellSize);
  CHECK(cell->defaultValue.get<float>() == SurfaceSettings{}.cellSize);
  CHECK(cell->min == 0.5);
  CHECK(cell->max == 4.0);
  const ParamSpec* interior = paramGroup("material").find("interior_color");
  REQUIRE(interior);
  CHECK(interior->liveEditable);
  CHECK(interior->methods.empty());  // every method
}
