// Reading a scene file and turning the validated, default-filled JSON into SceneDesc.
// Types, ranges and unknown keys are checked by io/json_validate.cpp from the registry; this file adds the
// checks that need the whole scene (material and indenter references, mesh files, duplicate names).
#include "io/scene_loader.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>

#include "core/params.h"
#include "io/json_validate.h"
#include "io/scene_error.h"

namespace frac {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

constexpr float kUnbreakable = 3e38f;  // "inf" strengths: larger than any stress a float can reach in practice

// 1-based line and column of a 1-based byte offset (nlohmann's parse_error::byte).
std::pair<size_t, size_t> lineAndColumn(const std::string& text, size_t byte) {
  const size_t pos = std::min(byte > 0 ? byte - 1 : 0, text.size());
  const size_t line = 1 + size_t(std::count(text.begin(), text.begin() + long(pos), '\n'));
  const size_t lineStart = pos == 0 ? 0 : text.rfind('\n', pos - 1);
  const size_t column = lineStart == std::string::npos || pos == 0 ? pos + 1 : pos - lineStart;
  return {line, column};
}

// nlohmann's text without its "[json.exception.parse_error.101] parse error at line 1, column 2: " prefix.
// A hint is added for the two most common slips.
std::string syntaxDetail(const std::string& what) {
  const size_t at = what.find("parse error");
  const size_t colon = at == std::string::npos ? std::string::npos : what.find(": ", at);
  std::string detail = colon == std::string::npos ? what : what.substr(colon + 2);
  auto endsWith = [&](std::string_view tail) {
    return detail.size() >= tail.size() && detail.compare(detail.size() - tail.size(), tail.size(), tail) == 0;
  };
  if (endsWith("expected '}'") || endsWith("expected ']'")) detail += " (missing ',' before it?)";
  if (detail.find("unexpected '}'; expected string literal") != std::string::npos ||
      detail.find("unexpected ']'; expected") != std::string::npos)
    detail += " (trailing ',' before it?)";
  return detail;
}

std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : ", ") + w;
  return s;
}

vec3 readVec3(const json& v) { return vec3(v[0].get<float>(), v[1].get<float>(), v[2].get<float>()); }

float readStrength(const json& v) { return v.is_string() ? kUnbreakable : v.get<float>(); }

// Euler angles in degrees, applied about x, then y, then z: q = qz * qy * qx.
quat eulerDegreesToQuat(const vec3& degrees) {
  const vec3 r = degrees * (kPi / 180.0f);
  const quat qx = fromRotationVector(vec3(r.x, 0, 0));
  const quat qy = fromRotationVector(vec3(0, r.y, 0));
  const quat qz = fromRotationVector(vec3(0, 0, r.z));
  return normalized(mul(qz, mul(qy, qx)));
}

// Reads scene objects of one validated, default-filled document; `file` is for messages and mesh paths.
class SceneReader {
 public:
  SceneReader(const json& doc, std::string file) : doc_(doc), file_(std::move(file)) {}

  SceneDesc read() {
    SceneDesc s;
    s.path = file_;
    s.name = doc_["name"].get<std::string>();
    s.description = doc_["description"].get<std::string>();
    s.seed = doc_["seed"].get<unsigned long long>();
    s.frames = doc_["frames"].get<int>();
    s.fps = doc_["fps"].get<double>();
    s.solver = readSolver(doc_["solver"]);
    for (const auto& [name, m] : doc_["materials"].items()) {
      s.materials.push_back(readMaterial(name, m));
      materialNames_.push_back(name);
    }
    const json& bodies = doc_["bodies"];
    for (size_t i = 0; i < bodies.size(); ++i) s.bodies.push_back(readBody(bodies[i], i));
    const json& kinematics = doc_["kinematics"];
    for (size_t i = 0; i < kinematics.size(); ++i) s.kinematics.push_back(readKinematic(kinematics[i], i));
    const json& projectiles = doc_["projectiles"];
    for (size_t i = 0; i < projectiles.size(); ++i) s.projectiles.push_back(readProjectile(projectiles[i], i));
    const json& planes = doc_["planes"];
    for (size_t i = 0; i < planes.size(); ++i) s.planes.push_back(readPlane(planes[i], i));
    const json& probes = doc_["probes"];
    for (size_t i = 0; i < probes.size(); ++i) s.probes.push_back(readProbe(probes[i], i));
    s.camera = readCamera(doc_["camera"]);
    return s;
  }

 private:
  static std::string at(const std::string& list, size_t i) { return "/" + list + "/" + std::to_string(i); }

  SolverDesc readSolver(const json& j) const {
    SolverDesc s;
    s.method = j["method"].get<std::string>();
    if (!j["dt"].is_string()) s.dt = j["dt"].get<double>();
    s.safety = j["safety"].get<double>();
    s.substeps = j["substeps"].get<int>();
    s.gravity = readVec3(j["gravity"]);
    s.contact = j["contact"].get<bool>();
    s.threads = j["threads"].get<int>();
    s.backend = j["backend"].get<std::string>();
    s.horizonFactor = j["horizon_factor"].get<float>();
    s.pdContact = j["pd_contact"].get<std::string>();
    s.pdContactStiffness = j["pd_contact_stiffness"].get<float>();
    s.floorRestitution = j["floor_restitution"].get<float>();
    s.strengthening = j["strengthening"].get<std::string>();
    s.partialVolume = j["partial_volume"].get<bool>();
    s.pdDamping = j["pd_damping"].get<float>();
    s.bondRemoval = j["bond_removal"].get<std::string>();
    return s;
  }

  static MaterialDesc readMaterial(const std::string& name, const json& j) {
    MaterialDesc m;
    m.name = name;
    m.density = j["density"].get<float>();
    m.young = j["young"].get<float>();
    m.shear = j["shear"].get<float>();
    m.tensileStrength = readStrength(j["tensile_strength"]);
    m.shearStrength = readStrength(j["shear_strength"]);
    m.weibullM = j["weibull_m"].get<float>();
    m.friction = j["friction"].get<float>();
    m.damping = j["damping"].get<float>();
    m.restitution = j["restitution"].get<float>();
    m.anisotropy = j["anisotropy"].get<float>();
    m.grainDirection = glm::normalize(readVec3(j["grain_direction"]));
    m.color = readVec3(j["color"]);
    m.bulkModulus = j["bulk_modulus"].get<float>();
    m.criticalStretch = j["critical_stretch"].get<float>();
    m.fractureEnergy = j["fracture_energy"].get<float>();
    m.compressionAlpha = j["compression_alpha"].get<float>();
    m.stretchScatter = j["stretch_scatter"].get<float>();
    m.shearModulus = j["shear_modulus"].get<float>();
    m.yieldPsi0 = readStrength(j["yield_psi0"]);
    m.plasticLimit = readStrength(j["plastic_limit"]);
    m.damageAlpha = j["damage_alpha"].get<float>();
    m.anisotropyScale = readVec3(j["anisotropy_scale"]);
    return m;
  }

  std::string material(const json& j, const std::string& pointer) const {
    const std::string name = j["material"].get<std::string>();
    if (std::find(materialNames_.begin(), materialNames_.end(), name) != materialNames_.end()) return name;
    const std::string guess = closestMatch(name, materialNames_);
    throwSceneError(file_, pointer + "/material",
                    "unknown material \"" + name + "\" (" +
                        (materialNames_.empty() ? std::string("the scene defines no materials")
                                                : "known materials: " + joined(materialNames_)) +
                        (guess.empty() ? "" : "; did you mean \"" + guess + "\"?") + ")");
  }

  // Names must be unique within a list (probes refer to kinematics by name).
  std::string uniqueName(const json& j, const std::string& list, const std::string& fallback, size_t i,
                         std::vector<std::string>& used) const {
    std::string name = j["name"].get<std::string>();
    if (name.empty()) name = fallback + std::to_string(i);
    const auto it = std::find(used.begin(), used.end(), name);
    if (it != used.end())
      throwSceneError(file_, at(list, i) + "/name",
                      "name \"" + name + "\" is already used by " + at(list, size_t(it - used.begin())));
    used.push_back(name);
    return name;
  }

  ShapeDesc readShape(const json& j, const std::string& pointer) const {
    static const std::vector<std::pair<std::string, ShapeType>> kTypes = {
        {"box", ShapeType::Box},         {"sphere", ShapeType::Sphere},   {"cylinder", ShapeType::Cylinder},
        {"capsule", ShapeType::Capsule}, {"revolve", ShapeType::Revolve}, {"mesh", ShapeType::Mesh}};
    ShapeDesc s;
    const std::string type = j["type"].get<std::string>();
    for (const auto& [name, value] : kTypes)
      if (name == type) s.type = value;
    if (j.contains("size")) s.size = readVec3(j["size"]);
    if (j.contains("radius")) s.radius = j["radius"].get<float>();
    if (j.contains("height")) s.height = j["height"].get<float>();
    if (j.contains("profile"))
      for (const json& p : j["profile"]) s.profile.emplace_back(p[0].get<float>(), p[1].get<float>());
    if (j.contains("wall")) s.wall = j["wall"].get<float>();
    if (j.contains("scale")) s.meshScale = j["scale"].get<float>();
    if (j.contains("file")) s.meshPath = resolveMesh(j["file"].get<std::string>(), pointer + "/file");
    return s;
  }

  std::string resolveMesh(const std::string& relative, const std::string& pointer) const {
    std::error_code ec;
    fs::path resolved = fs::path(file_).parent_path() / relative;  // an absolute `relative` replaces the base
    const fs::path absolute = fs::absolute(resolved, ec);
    if (!ec) resolved = absolute;
    resolved = resolved.lexically_normal();
    if (!fs::exists(resolved, ec))
      throwSceneError(file_, pointer, "mesh file not found: " + resolved.string() +
                                          " (paths are relative to the scene file's folder)");
    if (!fs::is_regular_file(resolved, ec))
      throwSceneError(file_, pointer, "mesh path is not a file: " + resolved.string());
    return resolved.string();
  }

  Transform readTransform(const json& j) const {
    Transform t;
    t.position = readVec3(j["position"]);
    t.orientation = eulerDegreesToQuat(readVec3(j["rotation"]));
    return t;
  }

  static Packing readPacking(const json& j) {
    return j["packing"].get<std::string>() == "cubic" ? Packing::SimpleCubic : Packing::Hcp;
  }

  // The keys bodies and kinematics share (registry: placedShapeParams).
  void readPlacedShape(const json& j, const std::string& pointer, PlacedShapeDesc& out) {
    out.shape = readShape(j["shape"], pointer + "/shape");
    out.transform = readTransform(j);
    out.elementRadius = j["element_radius"].get<float>();
    out.packing = readPacking(j);
    out.material = material(j, pointer);
    out.velocity = readVec3(j["velocity"]);
    out.angularVelocity = readVec3(j["angular_velocity"]);
  }

  BodyDesc readBody(const json& j, size_t i) {
    BodyDesc b;
    b.name = uniqueName(j, "bodies", "body", i, bodyNames_);
    readPlacedShape(j, at("bodies", i), b);
    b.bonded = j["bonded"].get<bool>();
    const json& cracks = j["cracks"];
    for (size_t c = 0; c < cracks.size(); ++c) {
      CrackDesc crack{readVec3(cracks[c]["origin"]), readVec3(cracks[c]["edge_u"]), readVec3(cracks[c]["edge_v"])};
      const float uv = glm::dot(crack.edgeU, crack.edgeV);
      if (length2(glm::cross(crack.edgeU, crack.edgeV)) <= 0.0f ||
          uv * uv > 1e-8f * length2(crack.edgeU) * length2(crack.edgeV))
        throwSceneError(file_, at("bodies", i) + "/cracks/" + std::to_string(c),
                        "expected two perpendicular, non-zero edges edge_u and edge_v (a rectangle)");
      b.cracks.push_back(crack);
    }
    return b;
  }

  KinematicDesc readKinematic(const json& j, size_t i) {
    KinematicDesc k;
    const std::string pointer = at("kinematics", i);
    k.name = uniqueName(j, "kinematics", "kinematic", i, kinematicNames_);
    readPlacedShape(j, pointer, k);
    k.start = j["start"].get<float>();
    k.stop = j["stop"].get<float>();
    k.grip = j["grip"].get<bool>();
    if (k.stop < k.start)
      throwSceneError(file_, pointer + "/stop",
                      "expected stop >= start (" + formatNumber(k.start) + " s), got " + formatNumber(k.stop));
    return k;
  }

  ProjectileDesc readProjectile(const json& j, size_t i) {
    ProjectileDesc p;
    p.name = uniqueName(j, "projectiles", "projectile", i, projectileNames_);
    p.radius = j["radius"].get<float>();
    p.material = material(j, at("projectiles", i));
    p.position = readVec3(j["position"]);
    p.velocity = readVec3(j["velocity"]);
    p.launchTime = j["launch_time"].get<float>();
    p.forceModel = j["force_model"].get<std::string>();
    p.forceConstant = j["force_constant"].get<float>();
    p.dynamic = j["dynamic"].get<bool>();
    return p;
  }

  PlaneDesc readPlane(const json& j, size_t i) const {
    PlaneDesc p;
    p.point = readVec3(j["point"]);
    p.normal = glm::normalize(readVec3(j["normal"]));
    p.material = material(j, at("planes", i));
    return p;
  }

  ProbeDesc readProbe(const json& j, size_t i) const {
    ProbeDesc p;
    if (j["type"].get<std::string>() == "energy") {
      p.type = ProbeType::Energy;
      return p;
    }
    p.type = ProbeType::ThreePointBending;
    p.indenter = j["indenter"].get<std::string>();
    if (std::find(kinematicNames_.begin(), kinematicNames_.end(), p.indenter) == kinematicNames_.end()) {
      const std::string guess = closestMatch(p.indenter, kinematicNames_);
      throwSceneError(file_, at("probes", i) + "/indenter",
                      "unknown kinematic \"" + p.indenter + "\" (" +
                          (kinematicNames_.empty() ? std::string("the scene has no kinematics")
                                                   : "known kinematics: " + joined(kinematicNames_)) +
                          (guess.empty() ? "" : "; did you mean \"" + guess + "\"?") + ")");
    }
    p.span = j["span"].get<float>();
    p.width = j["width"].get<float>();
    p.height = j["height"].get<float>();
    p.fitFraction = j["fit_fraction"].get<float>();
    return p;
  }

  static CameraDesc readCamera(const json& j) {
    CameraDesc c;
    c.eye = readVec3(j["eye"]);
    c.target = readVec3(j["target"]);
    c.fovDeg = j["fov"].get<float>();
    return c;
  }

  const json& doc_;
  std::string file_;
  std::vector<std::string> materialNames_, bodyNames_, kinematicNames_, projectileNames_;
};

}  // namespace

json readSceneJson(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    const fs::path absolute = fs::absolute(path, ec);
    throw SceneError(path + ": cannot open scene file: file not found (looked for " + absolute.string() + ")");
  }
  if (fs::is_directory(path, ec)) throw SceneError(path + ": cannot open scene file: it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SceneError(path + ": cannot open scene file: " + std::strerror(errno));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw SceneError(path + ": cannot read scene file: " + std::strerror(errno));
  const std::string text = buffer.str();
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    const auto [line, column] = lineAndColumn(text, e.byte);
    throw SceneError(path + ": line " + std::to_string(line) + ", column " + std::to_string(column) +
                     ": JSON syntax error: " + syntaxDetail(e.what()));
  }
}

SceneDesc parseScene(const json& doc, const std::string& pathForMessages) {
  const ParamGroup& top = paramGroup("scene");
  validateObject(doc, top, "", pathForMessages);
  const json filled = withDefaults(doc, top);
  return SceneReader(filled, pathForMessages).read();
}

SceneDesc loadScene(const std::string& path, const std::vector<std::string>& overrides) {
  json doc = readSceneJson(path);
  for (const std::string& o : overrides) applyOverride(doc, o, path);
  return parseScene(doc, path);
}

bool CrackDesc::cuts(const vec3& p, const vec3& q) const {
  const vec3 n = glm::cross(edgeU, edgeV);
  const float dp = glm::dot(p - origin, n), dq = glm::dot(q - origin, n);
  if (dp * dq >= 0.0f) return false;  // both ends on one side (or one on the plane)
  const vec3 x = p + (q - p) * (dp / (dp - dq));
  const float a = glm::dot(x - origin, edgeU) / glm::dot(edgeU, edgeU);
  const float b = glm::dot(x - origin, edgeV) / glm::dot(edgeV, edgeV);
  return a >= 0.0f && a <= 1.0f && b >= 0.0f && b <= 1.0f;
}

}  // namespace frac
