// Scene loading: the parameter registry, JSON validation and its messages, defaults, `--set` overrides.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "core/params.h"
#include "io/json_validate.h"
#include "io/scene_error.h"
#include "backend/external_memory.h"
#include "io/scene_loader.h"
#include "io/scene_params.h"

#ifndef FRACTURE_SOURCE_DIR
#define FRACTURE_SOURCE_DIR "."  // the one-file build runs from the repository root
#endif

namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

const std::string kBadScenes = std::string(FRACTURE_SOURCE_DIR) + "/tests/data/bad_scenes/";

// The SceneError message `f` throws; fails the test when it throws nothing or another exception type.
template <class F>
std::string sceneErrorOf(F&& f) {
  try {
    f();
  } catch (const frac::SceneError& e) {
    return e.what();
  } catch (const std::exception& e) {
    FAIL("expected a SceneError, got another exception: " << e.what());
  } catch (...) {
    FAIL("expected a SceneError, got an unknown exception");
  }
  FAIL("expected a SceneError, nothing was thrown");
  return "";
}

#define CHECK_HAS(text, part) \
  CHECK_MESSAGE((text).find(part) != std::string::npos, "'" << (part) << "' not in: " << (text))

// A scratch folder removed at the end of the test.
struct TempDir {
  fs::path path;
  TempDir() {
    const auto tick = std::chrono::steady_clock::now().time_since_epoch().count();
    path = fs::temp_directory_path() / ("frac_scene_io_" + std::to_string(tick));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    const fs::path p = path / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
};

// A small valid scene used as the starting point of the inline error and `--set` cases.
json baseScene() {
  return json::parse(R"({
    "materials": { "glass": { "young": 7e10 }, "steel": { "density": 7800 } },
    "bodies": [ { "shape": { "type": "box", "size": [0.2, 0.05, 0.05] }, "element_radius": 0.005,
                  "material": "glass" } ],
    "kinematics": [ { "name": "indenter", "shape": { "type": "sphere", "radius": 0.01 },
                      "element_radius": 0.005, "material": "steel" } ]
  })");
}

std::string parseError(const json& doc) {
  return sceneErrorOf([&] { frac::parseScene(doc, "inline.json"); });
}

std::string overrideError(json doc, const std::string& arg) {
  return sceneErrorOf([&] { frac::applyOverride(doc, arg, "base.json"); });
}

frac::SceneDesc withOverrides(const std::vector<std::string>& args) {
  json doc = baseScene();
  for (const std::string& a : args) frac::applyOverride(doc, a, "base.json");
  return frac::parseScene(doc, "base.json");
}

bool near(const frac::vec3& a, const frac::vec3& b, float eps = 1e-5f) { return glm::length(a - b) < eps; }

}  // namespace

TEST_CASE("scene: a valid scene round trips with defaults, rotations, directions and \"inf\"") {
  TempDir dir;
  dir.write("meshes/cube.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n");
  const std::string path = dir.write("scene.json", R"({
    "name": "round trip",
    "seed": 7,
    "solver": { "dt": 1e-5, "gravity": [0, -1, 0] },
    "materials": {
      "glass": { "young": 7e10, "tensile_strength": "inf", "grain_direction": [0, 0, 2] },
      "steel": {}
    },
    "bodies": [
      { "shape": { "type": "box", "size": [0.2, 0.05, 0.05] }, "element_radius": 0.005, "material": "glass",
        "rotation": [90, 90, 0], "position": [1, 2, 3] },
      { "name": "vase", "shape": { "type": "revolve", "profile": [[0, 0], [0.05, 0], [0.05, 0.1]], "wall": 0.005 },
        "element_radius": 0.002, "material": "glass", "packing": "cubic" },
      { "shape": { "type": "mesh", "file": "meshes/cube.obj", "scale": 2 }, "element_radius": 0.01,
        "material": "steel" }
    ],
    "kinematics": [
      { "name": "indenter", "shape": { "type": "cylinder", "radius": 0.01, "height": 0.1 },
        "element_radius": 0.005, "material": "steel", "velocity": [0, -0.01, 0], "rotation": [0, 0, 90] }
    ],
    "projectiles": [ { "radius": 0.01, "material": "steel", "velocity": [0, 0, -50], "launch_time": 0.1 } ],
    "planes": [ { "normal": [0, 3, 4], "material": "steel" } ],
    "probes": [
      { "type": "three_point_bending", "indenter": "indenter", "span": 0.15, "width": 0.05, "height": 0.05 },
      { "type": "energy" }
    ],
    "camera": { "fov": 60 }
  })");

  const frac::SceneDesc s = frac::loadScene(path);
  CHECK(s.path == path);
  CHECK(s.name == "round trip");
  CHECK(s.description.empty());
  CHECK(s.seed == 7);
  CHECK(s.frames == 120);
  CHECK(s.fps == RelApprox(60));

  CHECK(s.solver.method == "bdem");
  REQUIRE(s.solver.dt.has_value());
  CHECK(*s.solver.dt == RelApprox(1e-5));
  CHECK(s.solver.safety == RelApprox(0.5));
  CHECK(s.solver.substeps == 0);
  CHECK(near(s.solver.gravity, {0, -1, 0}));
  CHECK(s.solver.contact);
  CHECK(s.solver.threads == 0);

  REQUIRE(s.materials.size() == 2);
  const frac::MaterialDesc& glass = s.materials[size_t(s.materialIndex("glass"))];
  CHECK(glass.young == RelApprox(7e10));
  CHECK(glass.tensileStrength >= 1e38f);
  CHECK(glass.shearStrength == RelApprox(1e6));
  CHECK(near(glass.grainDirection, {0, 0, 1}));
  const frac::MaterialDesc& steel = s.materials[size_t(s.materialIndex("steel"))];
  const frac::MaterialDesc defaults = frac::defaultsOf<frac::MaterialDesc>();
  CHECK(steel.density == defaults.density);
  CHECK(steel.young == defaults.young);
  CHECK(steel.shear == defaults.shear);
  CHECK(steel.tensileStrength == defaults.tensileStrength);
  CHECK(steel.weibullM == defaults.weibullM);
  CHECK(steel.friction == defaults.friction);
  CHECK(steel.damping == defaults.damping);
  CHECK(steel.restitution == defaults.restitution);
  CHECK(steel.anisotropy == defaults.anisotropy);
  CHECK(near(steel.grainDirection, {0, 1, 0}));

  REQUIRE(s.bodies.size() == 3);
  const frac::BodyDesc& box = s.bodies[0];
  CHECK(box.name == "body0");
  CHECK(box.shape.type == frac::ShapeType::Box);
  CHECK(near(box.shape.size, {0.2f, 0.05f, 0.05f}));
  CHECK(near(box.transform.position, {1, 2, 3}));
  // x by 90 deg, then y by 90 deg: y -> z -> x and x -> x -> -z.
  CHECK(near(frac::rotate(box.transform.orientation, {0, 1, 0}), {1, 0, 0}));
  CHECK(near(frac::rotate(box.transform.orientation, {1, 0, 0}), {0, 0, -1}));
  CHECK(box.elementRadius == RelApprox(0.005));
  CHECK(box.packing == frac::Packing::Hcp);
  CHECK(box.material == "glass");
  CHECK(near(box.velocity, {0, 0, 0}));

  const frac::BodyDesc& vase = s.bodies[1];
  CHECK(vase.name == "vase");
  CHECK(vase.shape.type == frac::ShapeType::Revolve);
  REQUIRE(vase.shape.profile.size() == 3);
  CHECK(vase.shape.profile[2].x == RelApprox(0.05));
  CHECK(vase.shape.profile[2].y == RelApprox(0.1));
  CHECK(vase.shape.wall == RelApprox(0.005));
  CHECK(vase.packing == frac::Packing::SimpleCubic);

  const frac::BodyDesc& mesh = s.bodies[2];
  CHECK(mesh.shape.type == frac::ShapeType::Mesh);
  CHECK(fs::path(mesh.shape.meshPath).is_absolute());
  CHECK(fs::equivalent(mesh.shape.meshPath, dir.path / "meshes/cube.obj"));
  CHECK(mesh.shape.meshScale == RelApprox(2));

  REQUIRE(s.kinematics.size() == 1);
  const frac::KinematicDesc& k = s.kinematics[0];
  CHECK(k.name == "indenter");
  CHECK(k.shape.type == frac::ShapeType::Cylinder);
  CHECK(k.shape.radius == RelApprox(0.01));
  CHECK(k.shape.height == RelApprox(0.1));
  CHECK(near(frac::rotate(k.transform.orientation, {1, 0, 0}), {0, 1, 0}));
  CHECK(near(k.velocity, {0, -0.01f, 0}));
  CHECK(k.start == 0.0f);
  CHECK(k.stop >= 1e30f);
  CHECK_FALSE(k.grip);

  REQUIRE(s.projectiles.size() == 1);
  CHECK(s.projectiles[0].name == "projectile0");
  CHECK(s.projectiles[0].launchTime == RelApprox(0.1));
  CHECK(near(s.projectiles[0].velocity, {0, 0, -50}));

  REQUIRE(s.planes.size() == 1);
  CHECK(near(s.planes[0].normal, {0, 0.6f, 0.8f}));
  CHECK(near(s.planes[0].point, {0, 0, 0}));

  REQUIRE(s.probes.size() == 2);
  CHECK(s.probes[0].type == frac::ProbeType::ThreePointBending);
  CHECK(s.probes[0].indenter == "indenter");
  CHECK(s.probes[0].span == RelApprox(0.15));
  CHECK(s.probes[0].fitFraction == RelApprox(0.6));
  CHECK(s.probes[1].type == frac::ProbeType::Energy);

  CHECK(s.camera.fovDeg == RelApprox(60));
  CHECK(near(s.camera.eye, frac::defaultsOf<frac::CameraDesc>().eye));
}

TEST_CASE("scene: an empty object is a valid scene with every default") {
  const frac::SceneDesc s = frac::parseScene(json::object(), "empty.json");
  CHECK(s.seed == 1);
  CHECK(s.frames == 120);
  CHECK(s.fps == 60.0);
  CHECK(s.solver.method == "bdem");
  CHECK_FALSE(s.solver.dt.has_value());
  CHECK(s.solver.safety == 0.5);
  CHECK(near(s.solver.gravity, {0, -9.81f, 0}));
  CHECK(s.solver.backend == frac::Backend::Auto);
  CHECK(s.solver.pdContact == frac::PdContact::Levine);
  CHECK(s.materials.empty());
  CHECK(s.bodies.empty());
  CHECK(near(s.camera.eye, {0.6f, 0.4f, 0.8f}));
  CHECK(near(s.camera.target, {0.0f, 0.1f, 0.0f}));
  CHECK(s.camera.fovDeg == 45.0f);
}

TEST_CASE("scene errors: bad scene files give one message with file, JSON path and problem") {
  struct Case {
    const char* file;
    const char* pointer;
    const char* phrase;
  };
  const Case cases[] = {
      {"unknown_key.json", "/materials/glass/yung", "did you mean 'young'?"},
      {"wrong_type.json", "/materials/glass/young", "expected a number (Pa), got a string \"abc\""},
      {"out_of_range.json", "/materials/glass/damping", "expected a number in [0, 1], got 2"},
      {"missing_required.json", "/bodies/0", "missing required key 'element_radius'"},
      {"unknown_material.json", "/bodies/0/material", "unknown material \"stel\" (known materials: glass, steel"},
      {"unknown_indenter.json", "/probes/0/indenter", "unknown kinematic \"pusher\" (known kinematics: indenter"},
      {"unknown_support.json", "/probes/0/supports", "unknown kinematic \"suport_high\""},
      {"missing_mesh.json", "/bodies/0/shape/file", "mesh file not found: "},
      {"bad_enum.json", "/bodies/0/shape/type", "one of \"box\", \"sphere\""},
      {"vec3_length.json", "/solver/gravity", "expected an array of 3 numbers (m/s^2), got an array [0,-9.81]"},
      {"zero_grain.json", "/materials/wood/grain_direction", "non-zero direction"},
      {"zero_normal.json", "/planes/0/normal", "non-zero direction"},
      {"shape_key_mismatch.json", "/bodies/0/shape/radius", "does not apply to shape type \"box\" (it uses: size)"},
      {"not_an_object.json", "(top level)", "expected an object (scene), got an array"},
      {"bad_dt.json", "/solver/dt", "expected a number in (0, 1] s or \"auto\", got 0"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.file);
    const std::string message = sceneErrorOf([&] { frac::loadScene(kBadScenes + c.file); });
    CHECK_HAS(message, kBadScenes + c.file + ": ");
    CHECK_HAS(message, std::string(c.pointer) + ": ");
    CHECK_HAS(message, c.phrase);
    CHECK(message.find('\n') == std::string::npos);
  }
}

TEST_CASE("scene errors: the missing mesh message shows the resolved path") {
  const std::string message = sceneErrorOf([&] { frac::loadScene(kBadScenes + "missing_mesh.json"); });
  CHECK_HAS(message, "meshes/no_such_mesh.obj");
  CHECK_HAS(message, fs::absolute(kBadScenes).lexically_normal().string());
}

TEST_CASE("scene errors: unreadable files and JSON syntax") {
  SUBCASE("missing file") {
    const std::string message = sceneErrorOf([] { frac::loadScene("no/such/scene.json"); });
    CHECK_HAS(message, "no/such/scene.json: cannot open scene file: file not found");
  }
  SUBCASE("a directory") {
    const std::string message = sceneErrorOf([] { frac::loadScene(kBadScenes); });
    CHECK_HAS(message, "it is a directory");
  }
  SUBCASE("syntax error: line and column of the offending token") {
    const std::string message = sceneErrorOf([] { frac::loadScene(kBadScenes + "syntax_error.json"); });
    CHECK_HAS(message, "syntax_error.json: line 4, column ");
    CHECK_HAS(message, "JSON syntax error: ");
    CHECK_HAS(message, "expected '}' (missing ',' before it?)");
    CHECK(message.find("[json.exception") == std::string::npos);
  }
  SUBCASE("empty file") {
    const std::string message = sceneErrorOf([] { frac::loadScene(kBadScenes + "empty.json"); });
    CHECK_HAS(message, "empty.json: line 1, column 1: JSON syntax error");
  }
  SUBCASE("trailing comma") {
    TempDir dir;
    const std::string path = dir.write("t.json", "{\"seed\": 1,}");
    CHECK_HAS(sceneErrorOf([&] { frac::loadScene(path); }), "t.json: line 1, column 12: JSON syntax error");
    CHECK_HAS(sceneErrorOf([&] { frac::loadScene(path); }), "(trailing ',' before it?)");
  }
  SUBCASE("column on a later line counts from that line's start") {
    TempDir dir;
    const std::string path = dir.write("s.json", "{\n  \"a\": 1,\n     @\n}\n");
    CHECK_HAS(sceneErrorOf([&] { frac::loadScene(path); }), "s.json: line 3, column 6: JSON syntax error");
  }
}

TEST_CASE("scene errors: more validation cases on inline documents") {
  json d = baseScene();
  SUBCASE("unknown top-level key lists or suggests") {
    d["fram"] = 3;
    CHECK_HAS(parseError(d), "inline.json: /fram: unknown scene key 'fram' (did you mean 'frames'?)");
    d.erase("fram");
    d["zzzz"] = 3;
    CHECK_HAS(parseError(d), "(known keys: name, description, seed, frames, fps");
  }
  SUBCASE("integer expected") {
    d["frames"] = 2.5;
    CHECK_HAS(parseError(d), "/frames: expected an integer in [1, 1e7], got 2.5");
  }
  SUBCASE("strength: a wrong keyword") {
    d["materials"]["glass"]["tensile_strength"] = "infinite";
    CHECK_HAS(parseError(d), "/materials/glass/tensile_strength: expected a number (Pa) or \"inf\", got a string");
  }
  SUBCASE("strength: zero is out of (0, 1e12]") {
    d["materials"]["glass"]["shear_strength"] = 0;
    CHECK_HAS(parseError(d), "/materials/glass/shear_strength: expected a number in (0, 1e12] Pa or \"inf\"");
  }
  SUBCASE("vec3 component of the wrong type") {
    d["bodies"][0]["position"] = json::array({0, "up", 0});
    CHECK_HAS(parseError(d), "/bodies/0/position: expected an array of 3 numbers (m)");
  }
  SUBCASE("missing shape") {
    d["bodies"][0].erase("shape");
    CHECK_HAS(parseError(d), "/bodies/0: missing required key 'shape'");
  }
  SUBCASE("missing shape dimension") {
    d["bodies"][0]["shape"].erase("size");
    CHECK_HAS(parseError(d), "/bodies/0/shape: missing required key 'size'");
  }
  SUBCASE("shape without type") {
    d["bodies"][0]["shape"] = json::object({{"radius", 0.1}});
    CHECK_HAS(parseError(d), "/bodies/0/shape: missing required key 'type' (one of \"box\"");
  }
  SUBCASE("revolve profile too short and negative radius") {
    d["bodies"][0]["shape"] = json::parse(R"({"type": "revolve", "profile": [[0, 0], [1, 0]]})");
    CHECK_HAS(parseError(d), "/bodies/0/shape/profile: expected at least 3 [r, y] points, got 2");
    d["bodies"][0]["shape"]["profile"] = json::parse("[[0, 0], [-1, 0], [0, 1]]");
    CHECK_HAS(parseError(d), "/bodies/0/shape/profile: point 1: expected r in [0, 10000] m, got -1");
  }
  SUBCASE("a body that is not an object") {
    d["bodies"][0] = 5;
    CHECK_HAS(parseError(d), "/bodies/0: expected an object (body), got 5");
  }
  SUBCASE("materials must be an object") {
    d["materials"] = json::array();
    CHECK_HAS(parseError(d), "/materials: expected an object of named entries, got an empty array");
  }
  SUBCASE("reference to a material when none exist") {
    d["materials"] = json::object();
    CHECK_HAS(parseError(d), "/bodies/0/material: unknown material \"glass\" (the scene defines no materials)");
  }
  SUBCASE("duplicate names") {
    d["kinematics"].push_back(d["kinematics"][0]);
    CHECK_HAS(parseError(d), "/kinematics/1/name: name \"indenter\" is already used by /kinematics/0");
  }
  SUBCASE("kinematic stop before start") {
    d["kinematics"][0]["start"] = 1.0;
    d["kinematics"][0]["stop"] = 0.5;
    CHECK_HAS(parseError(d), "/kinematics/0/stop: expected stop >= start (1 s), got 0.5");
  }
  SUBCASE("probe keys that belong to another probe type") {
    d["probes"] = json::parse(R"([{"type": "energy", "span": 0.1}])");
    CHECK_HAS(parseError(d), "/probes/0/span: key 'span' does not apply to probe type \"energy\"");
  }
  SUBCASE("bad enum suggests the closest choice") {
    d["bodies"][0]["packing"] = "hpc";
    CHECK_HAS(parseError(d), "/bodies/0/packing: expected one of \"hcp\", \"cubic\", \"random\", got a string \"hpc\" "
                             "(did you mean \"hcp\"?)");
  }
  SUBCASE("material names with '/' are escaped in the pointer") {
    d["materials"]["a/b"] = json::object({{"young", -1}});
    CHECK_HAS(parseError(d), "/materials/a~1b/young: expected a number in [100, 1e13] Pa, got -1");
  }
}

TEST_CASE("--set: overrides are applied before validation") {
  SUBCASE("a number that the file does not have") {
    const frac::SceneDesc s = withOverrides({"solver.dt=1e-5"});
    REQUIRE(s.solver.dt.has_value());
    CHECK(*s.solver.dt == RelApprox(1e-5));
  }
  SUBCASE("\"auto\" as a bare word") {
    const frac::SceneDesc s = withOverrides({"solver.dt=1e-5", "solver.dt=auto"});
    CHECK_FALSE(s.solver.dt.has_value());
  }
  SUBCASE("a vec3") {
    CHECK(near(withOverrides({"solver.gravity=[0,0,0]"}).solver.gravity, {0, 0, 0}));
  }
  SUBCASE("a nested material key") {
    const frac::SceneDesc s = withOverrides({"materials.glass.young=2e7"});
    CHECK(s.materials[size_t(s.materialIndex("glass"))].young == RelApprox(2e7));
  }
  SUBCASE("an array index") {
    CHECK(withOverrides({"bodies.0.element_radius=0.003"}).bodies[0].elementRadius == RelApprox(0.003));
  }
  SUBCASE("top level, a new object, a string and an enum") {
    const frac::SceneDesc s = withOverrides({"seed=3", "camera.fov=30", "name=123", "bodies.0.packing=cubic",
                                             "materials.glass.tensile_strength=inf"});
    CHECK(s.seed == 3);
    CHECK(s.camera.fovDeg == RelApprox(30));
    CHECK(s.name == "123");
    CHECK(s.bodies[0].packing == frac::Packing::SimpleCubic);
    CHECK(s.materials[size_t(s.materialIndex("glass"))].tensileStrength >= 1e38f);
  }
  SUBCASE("a whole new material") {
    const frac::SceneDesc s = withOverrides({R"(materials.rubber={"young": 1e6})", "bodies.0.material=rubber"});
    REQUIRE(s.materialIndex("rubber") >= 0);
    CHECK(s.bodies[0].material == "rubber");
  }
  SUBCASE("a whole list entry") {
    const frac::SceneDesc s = withOverrides(
        {R"(bodies.0={"shape": {"type": "sphere", "radius": 0.1}, "element_radius": 0.01, "material": "steel"})"});
    CHECK(s.bodies[0].shape.type == frac::ShapeType::Sphere);
    CHECK(s.bodies[0].material == "steel");
  }
  SUBCASE("through loadScene") {
    TempDir dir;
    const std::string path = dir.write("s.json", baseScene().dump());
    const frac::SceneDesc s = frac::loadScene(path, {"frames=7", "solver.threads=2"});
    CHECK(s.frames == 7);
    CHECK(s.solver.threads == 2);
  }
}

TEST_CASE("--set: errors name the argument") {
  const json d = baseScene();
  struct Case {
    const char* arg;
    const char* phrase;
  };
  const Case cases[] = {
      {"solver.dt", "expected key=value"},
      {"solver..dt=1", "has an empty part"},
      {"solver.dtt=1", "/solver/dtt: unknown solver key 'dtt' (did you mean 'dt'?)"},
      {"gravity=[0,0,0]", "/gravity: unknown scene key 'gravity'"},
      {"solver.dt=abc", "/solver/dt: expected a number (s) or \"auto\", got a string \"abc\""},
      {"solver.dt=2", "/solver/dt: expected a number in (0, 1] s or \"auto\", got 2"},
      {"solver.gravity=[0,1]", "/solver/gravity: expected an array of 3 numbers (m/s^2)"},
      {"seed=-1", "/seed: expected an integer in [0, 1e18], got -1"},
      {"materials.glas.young=1e7",
       "/materials/glas: no material named \"glas\" in 'materials' (did you mean \"glass\"?)"},
      {"materials.glass.yung=1e7", "/materials/glass/yung: unknown material key 'yung' (did you mean 'young'?)"},
      {"bodies.5.element_radius=0.1", "/bodies/5: index 5 is out of range ('bodies' has 1 entries)"},
      {"bodies.first.element_radius=0.1", "/bodies/first: expected an array index after 'bodies'"},
      {"bodies.0.shape.radius=0.1", "/bodies/0/shape/radius: key 'radius' does not apply to shape type \"box\""},
      {"solver.dt.x=1", "/solver/dt/x: 'dt' is a number in (0, 1] s or \"auto\", it has no key 'x'"},
      {"materials.steel={\"yung\": 1}", "/materials/steel/yung: unknown material key 'yung'"},
      {"bodies.0.packing=hex", "/bodies/0/packing: expected one of \"hcp\", \"cubic\""},
  };
  for (const Case& c : cases) {
    CAPTURE(c.arg);
    const std::string message = overrideError(d, c.arg);
    CHECK_HAS(message, std::string("base.json: --set '") + c.arg + "': ");
    CHECK_HAS(message, c.phrase);
  }
}

TEST_CASE("registry: every spec is documented and its default passes its own check") {
  const std::vector<frac::ParamGroup>& groups = frac::allParamGroups();
  REQUIRE(groups.size() >= 10);
  for (const frac::ParamGroup& g : groups) {
    CAPTURE(g.name);
    CHECK_FALSE(g.description.empty());
    CHECK(&frac::paramGroup(g.name) == &g);
    if (!g.variantKey.empty()) REQUIRE(g.find(g.variantKey) != nullptr);
    for (const frac::ParamSpec& p : g.params) {
      CAPTURE(p.key);
      CHECK_FALSE(p.key.empty());
      CHECK_FALSE(p.description.empty());
      CHECK(g.find(p.key) == &p);  // keys are unique within a group
      if (frac::isNumericType(p.type)) {
        CHECK_FALSE(p.unit.empty());
        CHECK(p.min <= p.max);
      }
      if (p.type == frac::ParamType::Enum) CHECK_FALSE(p.choices.empty());
      if (p.type == frac::ParamType::Object || p.type == frac::ParamType::Map || p.type == frac::ParamType::List)
        CHECK_NOTHROW(frac::paramGroup(p.group));
      // An optional nested object defaults to {}: its own defaults must make it valid.
      if (p.type == frac::ParamType::Object && !p.required) {
        const frac::ParamGroup& nested = frac::paramGroup(p.group);
        CHECK_NOTHROW(frac::validateObject(frac::withDefaults(p.defaultValue, nested), nested, "/" + p.key, "t"));
      }
      for (const std::string& v : p.variants) {
        const std::vector<std::string>& choices = g.find(g.variantKey)->choices;
        CHECK(std::find(choices.begin(), choices.end(), v) != choices.end());
      }
      if (p.required) {
        CHECK(p.defaultValue.is_null());
      } else {
        CHECK(frac::checkParamValue(p, p.defaultValue) == "");
      }
    }
  }
  CHECK_THROWS_AS(frac::paramGroup("no such group"), std::out_of_range);
}

TEST_CASE("registry: live-editable material keys and the wording of checks") {
  const frac::ParamGroup& material = frac::paramGroup("material");
  CHECK(material.find("young")->liveEditable);
  CHECK(material.find("friction")->liveEditable);
  CHECK_FALSE(material.find("density")->liveEditable);
  CHECK(frac::paramGroup("solver").find("dt")->liveEditable);        // the time step changes between steps
  CHECK_FALSE(frac::paramGroup("solver").find("method")->liveEditable);  // a new method rebuilds the scene

  const frac::ParamSpec& young = *material.find("young");
  CHECK(frac::checkParamValue(young, 1e7) == "");
  CHECK(frac::checkParamValue(young, "abc") == "expected a number (Pa), got a string \"abc\"");
  CHECK(frac::checkParamValue(young, 5) == "expected a number in [100, 1e13] Pa, got 5");
  CHECK(frac::checkParamValue(young, true) == "expected a number (Pa), got true");
  CHECK(frac::describeExpected(*frac::paramGroup("solver").find("dt")) == "a number in (0, 1] s or \"auto\"");
  CHECK(frac::formatNumber(1e-5) == "1e-5");
  CHECK(frac::formatNumber(0.05) == "0.05");
  CHECK(frac::formatNumber(1e13) == "1e13");

  CHECK(frac::closestMatch("yung", material.keys()) == "young");
  CHECK(frac::closestMatch("Density", material.keys()) == "density");
  CHECK(frac::closestMatch("tensile", material.keys()) == "tensile_strength");
  CHECK(frac::closestMatch("xyz", material.keys()) == "");
}

TEST_CASE("CUDA's external-memory import refuses what it cannot use with a reason (no device, bad descriptor)") {
  frac::ExternalDeviceBuffer buffer;
  std::string why;
  CHECK_FALSE(frac::importExternalMemoryFd(-1, 4096, buffer, &why));
  MESSAGE("import of fd -1: " << why);
  CHECK_FALSE(why.empty());
  CHECK(buffer.pointer == nullptr);
}

TEST_CASE("CUDA's external-semaphore import refuses what it cannot use with a reason") {
  frac::ExternalSemaphore semaphore;
  std::string why;
  CHECK_FALSE(frac::importExternalTimelineSemaphoreFd(-1, semaphore, &why));
  MESSAGE("import of semaphore fd -1: " << why);
  CHECK_FALSE(why.empty());
  CHECK(semaphore.handle == nullptr);
}
