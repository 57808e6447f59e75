// Reading a scene file and turning the validated, default-filled JSON into SceneDesc.
// Types, ranges and unknown keys are checked by io/json_validate.cpp from the registry, and values reach the structs
// through the registry's bindings (io/scene_params.h); this file walks the nested objects and lists and adds the
// checks that need the whole scene (material and indenter references, mesh files, duplicate names).
#include "io/scene_loader.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>

#include "core/name_list.h"
#include "core/params.h"
#include "io/json_validate.h"
#include "io/material_library.h"
#include "io/scene_error.h"
#include "io/scene_params.h"
#include "io/stiffness_scale.h"

namespace frac {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

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

// Reads scene objects of one validated, default-filled document; `file` is for messages and mesh paths.
class SceneReader {
 public:
  SceneReader(const json& doc, std::string file) : doc_(doc), file_(std::move(file)) {}

  SceneDesc read() {
    SceneDesc s = defaultsOf<SceneDesc>();
    readBound(doc_, s);
    s.path = file_;
    readBound(doc_["solver"], s.solver);
    for (const auto& [name, m] : doc_["materials"].items()) {
      s.materials.push_back(bound<MaterialDesc>(m));
      s.materials.back().name = name;
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
    readBound(doc_["camera"], s.camera);
    return s;
  }

 private:
  static std::string at(const std::string& list, size_t i) { return "/" + list + "/" + std::to_string(i); }

  // The struct of one list entry or nested object: the registry's defaults, then the object's bound keys.
  template <class T>
  static T bound(const json& j) {
    T out = defaultsOf<T>();
    readBound(j, out);
    return out;
  }

  void checkMaterial(const std::string& name, const std::string& pointer) const {
    if (std::find(materialNames_.begin(), materialNames_.end(), name) != materialNames_.end()) return;
    const std::string guess = closestMatch(name, materialNames_);
    throwSceneError(file_, pointer + "/material",
                    "unknown material \"" + name + "\" (" +
                        (materialNames_.empty() ? std::string("the scene defines no materials")
                                                : "known materials: " + joined(materialNames_)) +
                        (guess.empty() ? "" : "; did you mean \"" + guess + "\"?") + ")");
  }

  // Names must be unique within a list (probes refer to kinematics by name); "" becomes fallback<i>.
  void makeUnique(std::string& name, const std::string& list, const std::string& fallback, size_t i,
                  std::vector<std::string>& used) const {
    if (name.empty()) name = fallback + std::to_string(i);
    const auto it = std::find(used.begin(), used.end(), name);
    if (it != used.end())
      throwSceneError(file_, at(list, i) + "/name",
                      "name \"" + name + "\" is already used by " + at(list, size_t(it - used.begin())));
    used.push_back(name);
  }

  ShapeDesc readShape(const json& j, const std::string& pointer) const {
    ShapeDesc s = bound<ShapeDesc>(j);
    if (s.type == ShapeType::Mesh) s.meshPath = resolveMesh(s.meshPath, pointer + "/file");
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

  // The structural parts bodies and kinematics share: a unique name, the shape, the material reference.
  template <class T>
  T readPlacedShape(const json& j, const std::string& list, const std::string& fallback, size_t i,
                    std::vector<std::string>& names) const {
    T out = bound<T>(j);
    makeUnique(out.name, list, fallback, i, names);
    out.shape = readShape(j["shape"], at(list, i) + "/shape");
    checkMaterial(out.material, at(list, i));
    return out;
  }

  BodyDesc readBody(const json& j, size_t i) {
    BodyDesc b = readPlacedShape<BodyDesc>(j, "bodies", "body", i, bodyNames_);
    const json& cracks = j["cracks"];
    for (size_t c = 0; c < cracks.size(); ++c) {
      const CrackDesc crack = bound<CrackDesc>(cracks[c]);
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
    KinematicDesc k = readPlacedShape<KinematicDesc>(j, "kinematics", "kinematic", i, kinematicNames_);
    if (k.stop < k.start)
      throwSceneError(file_, at("kinematics", i) + "/stop",
                      "expected stop >= start (" + formatNumber(k.start) + " s), got " + formatNumber(k.stop));
    return k;
  }

  ProjectileDesc readProjectile(const json& j, size_t i) {
    ProjectileDesc p = bound<ProjectileDesc>(j);
    makeUnique(p.name, "projectiles", "projectile", i, projectileNames_);
    checkMaterial(p.material, at("projectiles", i));
    return p;
  }

  PlaneDesc readPlane(const json& j, size_t i) const {
    const PlaneDesc p = bound<PlaneDesc>(j);
    checkMaterial(p.material, at("planes", i));
    return p;
  }

  ProbeDesc readProbe(const json& j, size_t i) {
    ProbeDesc p = bound<ProbeDesc>(j);
    if (p.type == ProbeType::PointHistory || p.type == ProbeType::Reaction) {
      const bool plain = !p.name.empty() && std::all_of(p.name.begin(), p.name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
      });
      if (!plain)
        throwSceneError(file_, at("probes", i) + "/name",
                        "\"" + p.name + "\" is not a column prefix (letters, digits, _ and - only)");
      makeUnique(p.name, "probes", "probe", i, probeNames_);
    }
    if (p.type == ProbeType::Reaction || p.type == ProbeType::Uniaxial)
      checkKinematic(p.kinematic, at("probes", i) + "/kinematic");
    if (p.type == ProbeType::ThreePointBending) {
      checkKinematic(p.indenter, at("probes", i) + "/indenter");
      for (const std::string& support : commaSeparated(p.supports))  // none for ""
        checkKinematic(support, at("probes", i) + "/supports");
    }
    return p;
  }

  void checkKinematic(const std::string& name, const std::string& pointer) const {
    if (std::find(kinematicNames_.begin(), kinematicNames_.end(), name) == kinematicNames_.end()) {
      const std::string guess = closestMatch(name, kinematicNames_);
      throwSceneError(file_, pointer,
                      "unknown kinematic \"" + name + "\" (" +
                          (kinematicNames_.empty() ? std::string("the scene has no kinematics")
                                                   : "known kinematics: " + joined(kinematicNames_)) +
                          (guess.empty() ? "" : "; did you mean \"" + guess + "\"?") + ")");
    }
  }

  const json& doc_;
  std::string file_;
  std::vector<std::string> materialNames_, bodyNames_, kinematicNames_, projectileNames_, probeNames_;
};

}  // namespace

json readSceneJson(const std::string& path) { return readJsonDocument(path, "scene file"); }

json readJsonDocument(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    const fs::path absolute = fs::absolute(path, ec);
    throw SceneError(path + ": cannot open " + what + ": file not found (looked for " + absolute.string() + ")");
  }
  if (fs::is_directory(path, ec)) throw SceneError(path + ": cannot open " + what + ": it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SceneError(path + ": cannot open " + what + ": " + std::strerror(errno));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw SceneError(path + ": cannot read " + what + ": " + std::strerror(errno));
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
  json expanded = doc;
  expandLibraryMaterials(expanded, pathForMessages);  // (a material's "library" fills the keys it does not set)
  validateObject(expanded, top, "", pathForMessages);
  json filled = withDefaults(expanded, top);
  applyStiffnessScale(filled);  // solver.stiffness_scale (io/stiffness_scale.h)
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
