// The registry's bindings: every scene key reaches its struct member and back, scenes built in code from the
// registry's defaults run like the same scenes read from JSON, enum names are checked once, live edits by the registry.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "io/scene_error.h"
#include "io/scene_loader.h"
#include "io/scene_params.h"
#include "solvers/simulation.h"

using namespace frac;
using json = nlohmann::json;

namespace {

bool isNested(const ParamSpec& spec) {
  return spec.type == ParamType::Object || spec.type == ParamType::Map || spec.type == ParamType::List;
}

// A valid value of the spec other than its default (for required specs, the only one tested).
json sampleOf(const ParamSpec& spec) {
  switch (spec.type) {
    case ParamType::Integer: return std::max(spec.min, 2.0);
    case ParamType::Vec3: return spec.unitVector ? json::array({0, 0.6, 0.8}) : json::array({0.1, 0.2, 0.3});
    case ParamType::Profile: return json::parse("[[0, 0], [0.5, 0], [0.5, 0.5]]");
    case ParamType::Bool: return !spec.defaultValue.is_boolean() || !spec.defaultValue.get<bool>();
    case ParamType::String: return "x";
    case ParamType::Enum: return spec.choices.back();
    default: return std::clamp(0.5, spec.min, spec.max);  // numbers, "auto", "inf"
  }
}

// Equal up to float rounding (the members are floats; rotations pass through a quaternion).
bool sameValue(const json& a, const json& b) {
  if (a.is_number() && b.is_number())
    return std::abs(a.get<double>() - b.get<double>()) <= 1e-4 * std::max(1.0, std::abs(b.get<double>()));
  if (a.is_array() && b.is_array()) {
    if (a.size() != b.size()) return false;
    for (size_t k = 0; k < a.size(); ++k)
      if (!sameValue(a[k], b[k])) return false;
    return true;
  }
  return a == b;
}

// Every key of T's group except nested objects and lists is bound to a member of T: its default and a sample, read
// into a value-initialised T, write back as themselves, and copying the member carries them.
template <class T>
void checkBindingsRoundTrip() {
  const ParamGroup& group = paramGroup(kGroupOf<T>);
  CAPTURE(group.name);
  for (const ParamSpec& spec : group.params) {
    CAPTURE(spec.key);
    if (isNested(spec)) {
      CHECK_FALSE(spec.binding);
      continue;
    }
    REQUIRE(spec.binding);
    std::vector<json> values = {sampleOf(spec)};
    if (!spec.defaultValue.is_null()) values.push_back(spec.defaultValue);
    if (spec.type == ParamType::Enum) values.assign(spec.choices.begin(), spec.choices.end());
    for (const json& value : values) {
      CAPTURE(value.dump());
      REQUIRE(checkParamValue(spec, value) == "");
      T read{};
      spec.binding.readInto(read, value);
      const json written = spec.binding.writeFrom(read);
      CHECK(checkParamValue(spec, written) == "");
      CHECK_MESSAGE(sameValue(written, value), "written back as " << written.dump());
      T copied{};
      spec.binding.copyMember(read, copied);
      CHECK(spec.binding.writeFrom(copied) == written);
    }
  }
}

// A block on the ground hit by a projectile, built in code from the registry's defaults...
SceneDesc sceneInCode(const std::string& method) {
  SceneDesc s = defaultsOf<SceneDesc>();
  s.solver.method = method;
  MaterialDesc glass = defaultsOf<MaterialDesc>();
  glass.name = "glass";
  s.materials.push_back(glass);
  BodyDesc block = defaultsOf<BodyDesc>();
  block.name = "body0";
  block.shape = defaultsOf<ShapeDesc>();
  block.shape.type = ShapeType::Box;
  block.shape.size = vec3(0.04f, 0.02f, 0.04f);
  block.elementRadius = 0.004f;
  block.material = "glass";
  block.transform.position = vec3(0.0f, 0.012f, 0.0f);
  s.bodies.push_back(block);
  ProjectileDesc ball = defaultsOf<ProjectileDesc>();
  ball.name = "projectile0";
  ball.radius = 0.008f;
  ball.material = "glass";
  ball.position = vec3(0.0f, 0.035f, 0.0f);
  ball.velocity = vec3(0.0f, -10.0f, 0.0f);
  s.projectiles.push_back(ball);
  PlaneDesc ground = defaultsOf<PlaneDesc>();
  ground.material = "glass";
  s.planes.push_back(ground);
  return s;
}

// ... and the same scene as a file writes it.
SceneDesc sceneFromJson(const std::string& method) {
  return parseScene(json::parse(R"({
    "solver": { "method": ")" + method + R"(" },
    "materials": { "glass": {} },
    "bodies": [ { "shape": { "type": "box", "size": [0.04, 0.02, 0.04] }, "element_radius": 0.004,
                  "material": "glass", "position": [0, 0.012, 0] } ],
    "projectiles": [ { "radius": 0.008, "material": "glass", "position": [0, 0.035, 0], "velocity": [0, -10, 0] } ],
    "planes": [ { "material": "glass" } ]
  })"), "block.json");
}

uint64_t digestAfter(SceneDesc scene, int steps) {
  Simulation sim(std::move(scene), 1);
  REQUIRE(sim.stats().elements > 10);
  for (int s = 0; s < steps; ++s) sim.step();
  return sim.solver().stateDigest();
}

std::string enumSceneError(const json& doc) {
  try {
    parseScene(doc, "enum.json");
  } catch (const SceneError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("registry: every scene key is bound to its struct and round-trips through it") {
  checkBindingsRoundTrip<SceneDesc>();
  checkBindingsRoundTrip<SolverDesc>();
  checkBindingsRoundTrip<MaterialDesc>();
  checkBindingsRoundTrip<BodyDesc>();
  checkBindingsRoundTrip<KinematicDesc>();
  checkBindingsRoundTrip<ShapeDesc>();
  checkBindingsRoundTrip<ProjectileDesc>();
  checkBindingsRoundTrip<CrackDesc>();
  checkBindingsRoundTrip<PlaneDesc>();
  checkBindingsRoundTrip<ProbeDesc>();
  checkBindingsRoundTrip<CameraDesc>();
  for (const char* window : {"render", "throw"})  // the app reads these as JSON
    for (const ParamSpec& spec : paramGroup(window).params) CHECK_FALSE(spec.binding);
}

TEST_CASE("registry: a binding refuses a struct it is not bound in") {
  const ParamSpec& safety = *paramGroup("solver").find("safety");
  MaterialDesc material{};
  CHECK_THROWS_AS(safety.binding.readInto(material, json(0.5)), std::logic_error);
  const ParamSpec& position = *paramGroup("body").find("position");
  KinematicDesc kinematic{};
  CHECK_THROWS_AS(position.binding.readInto(kinematic, json::array({0, 0, 0})), std::logic_error);
}

TEST_CASE("registry: conversions of rotations, directions, \"auto\", \"inf\" and enums") {
  BodyDesc body{};
  paramGroup("body").find("rotation")->binding.readInto(body, json::array({90, 0, 0}));
  const vec3 y = rotate(body.transform.orientation, vec3(0, 1, 0));
  CHECK(glm::length(y - vec3(0, 0, 1)) < 1e-6f);  // x by 90 deg: y -> z
  CHECK(body.transform.position == vec3(0.0f));   // the rotation leaves the position alone
  const SolverDesc solver = defaultsOf<SolverDesc>();
  CHECK_FALSE(solver.dt.has_value());
  CHECK(solver.pdContact == PdContact::Levine);
  CHECK(solver.strengthening == PdStrengthening::Levine);
  CHECK(solver.bondRemoval == PdBondRemoval::Levine);
  CHECK(solver.backend == Backend::Auto);
  const MaterialDesc material = defaultsOf<MaterialDesc>();
  CHECK(material.yieldPsi0 == kUnbreakable);
  CHECK(material.density == 2500.0f);
  CHECK(paramGroup("solver").find("backend")->choices == std::vector<std::string>{"auto", "cpu", "cuda"});
  PlaneDesc plane{};
  paramGroup("plane").find("normal")->binding.readInto(plane, json::array({0, 3, 4}));
  CHECK(glm::length(plane.normal - vec3(0, 0.6f, 0.8f)) < 1e-6f);
}

TEST_CASE("a scene built in code from the registry's defaults runs like the same scene read from JSON") {
  for (const std::string method : {"bdem", "pd-bond"}) {
    CAPTURE(method);
    const uint64_t fromJson = digestAfter(sceneFromJson(method), 50);
    CHECK(digestAfter(sceneInCode(method), 50) == fromJson);
    CHECK(digestAfter(sceneFromJson(method), 0) != fromJson);  // the steps moved something
  }
}

TEST_CASE("scene errors: an unknown enum value names the key, the choices and the closest one") {
  CHECK(enumSceneError({{"solver", {{"pd_contact", "levin"}}}}) ==
        "enum.json: /solver/pd_contact: expected one of \"levine\", \"lammps\", \"off\", got a string \"levin\" "
        "(did you mean \"levine\"?)");
  CHECK(enumSceneError({{"solver", {{"backend", "gpu"}}}}) ==
        "enum.json: /solver/backend: expected one of \"auto\", \"cpu\", \"cuda\", got a string \"gpu\" "
        "(did you mean \"cpu\"?)");
  const json projectile = {{"radius", 0.01}, {"material", "glass"}, {"force_model", "indentor"}};
  CHECK(enumSceneError({{"materials", {{"glass", json::object()}}}, {"projectiles", {projectile}}}) ==
        "enum.json: /projectiles/0/force_model: expected one of \"levine\", \"indenter\", got a string \"indentor\" "
        "(did you mean \"indenter\"?)");
}

TEST_CASE("live edits copy the live-editable keys of the scene, its solver and its materials, nothing else") {
  SceneDesc current = sceneInCode("bdem");
  SceneDesc fresh = current;
  fresh.fps = 30.0;
  fresh.frames = 7;                        // not live
  fresh.solver.safety = 0.25;
  fresh.solver.backend = Backend::Cpu;
  fresh.solver.method = "pd-bond";         // not live: a new method rebuilds the scene
  fresh.solver.horizonFactor = 4.0f;       // not live
  fresh.materials[0].young = 2e7f;
  fresh.materials[0].density = 1000.0f;    // not live: masses were fixed when the bodies were built
  fresh.materials[0].weibullM = 3.0f;      // not live
  copyLiveSettings(fresh, current);
  CHECK(current.fps == 30.0);
  CHECK(current.frames == 120);
  CHECK(current.solver.safety == 0.25);
  CHECK(current.solver.backend == Backend::Cpu);
  CHECK(current.solver.method == "bdem");
  CHECK(current.solver.horizonFactor == 3.0f);
  CHECK(current.materials[0].young == 2e7f);
  CHECK(current.materials[0].density == 2500.0f);
  CHECK(current.materials[0].weibullM == 0.0f);
}
