#include "calibration/calibration_table.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/params.h"
#include "core/state_digest.h"
#include "io/atomic_file.h"
#include "io/material_library.h"

namespace frac {

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

// FNV-1a (core/state_digest.h), as 16 hex digits.
std::string fnv1a(const std::string& bytes) {
  StateDigest digest;
  digest.addBytes(bytes.data(), bytes.size());
  char text[20];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(digest.value()));
  return text;
}

// The library file's bytes: what entries before 2026-12-06 were stamped with (`library_digest`), any edit stale.
std::string fileDigest(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return fnv1a(bytes.str());
}

// Keys of a material that only the renderer reads (the registry names no method for them: every method "reads" them).
bool onlyDrawn(const std::string& key) { return key == "color" || key == "interior_color"; }

}  // namespace

std::string materialDigest(const LibraryMaterial& lib, const std::string& method) {
  json read = {{"properties", json::object()}, {"keys", json::object()}};
  for (const LibraryProperty& p : lib.properties) read["properties"][p.key] = {p.value, p.test};
  const ParamGroup& group = paramGroup("material");
  const json keys = libraryMaterialKeys(lib);
  for (const auto& [key, value] : keys.items()) {
    const ParamSpec* spec = group.find(key);
    if (onlyDrawn(key) || (spec && !spec->appliesToMethod(method))) continue;  // a key the registry lacks counts
    read["keys"][key] = value;
  }
  return fnv1a(read.dump());  // json objects are sorted by key: the same values give the same text
}

namespace {

std::string tablePath(const CalibrationRequest& r, const LibraryMaterial& lib) {
  return (fs::path(calibrationFolder(lib.path)) / (r.method + ".json")).string();
}

json readTable(const std::string& path, const std::string& method) {
  std::ifstream in(path);
  if (!in) return {{"method", method}, {"entries", json::array()}};
  try {
    json table = json::parse(in);
    if (table.is_object() && table.contains("entries") && table["entries"].is_array()) return table;
  } catch (const json::exception&) {
  }
  return {{"method", method}, {"entries", json::array()}};  // unreadable: rebuilt from scratch
}

bool sameEntry(const json& e, const CalibrationRequest& r) {
  if (!e.is_object() || e.value("material", "") != r.material || e.value("packing", "") != r.packing) return false;
  if (e.value("softening", "brittle") != r.softening) return false;  // entries before softening were brittle
  const double radius = e.value("element_radius", 0.0);
  return std::abs(radius - r.elementRadius) <= 1e-4 * r.elementRadius;
}

// A float as the decimal it was written as (0.001, not 0.0010000000474974513).
std::string shortNumber(float x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.7g", double(x));
  return text;
}

}  // namespace

std::string calibrationFolder(const std::string& libraryFile) {
  if (const char* dir = std::getenv("FRACTURE_CALIBRATION_DIR"); dir && *dir) return dir;
  return (fs::path(libraryFile).parent_path() / ".." / "calibration").lexically_normal().string();
}

std::optional<json> findCalibration(const CalibrationRequest& r, std::string* why) {
  const auto say = [&](const std::string& text) {
    if (why) *why = text;
    return std::nullopt;
  };
  if (!canCalibrate(r.method)) return say("calibration of " + r.method + " is not available");
  const LibraryMaterial lib = loadLibraryMaterial(r.material, r.libraryHint, "/library");
  const std::string path = tablePath(r, lib);
  const json table = readTable(path, r.method);
  for (const json& e : table["entries"]) {
    if (!sameEntry(e, r)) continue;
    if (e.value("version", 0) != calibrationVersion(r.method, r.softening))
      return say(path + ": the entry is of calibration version " + std::to_string(e.value("version", 0)) + ", " +
                 r.method + " is at " + std::to_string(calibrationVersion(r.method, r.softening)));
    // Stamped with what the method reads of the material; an entry from before that, with the file's bytes.
    const bool current = e.contains("material_digest") ? e["material_digest"] == materialDigest(lib, r.method)
                                                       : e.value("library_digest", "") == fileDigest(lib.path);
    if (!current)
      return say(path + ": " + lib.path + " changed since the entry was computed (a value " + r.method + " reads)");
    return e;
  }
  return say("no entry in " + path);
}

void storeCalibration(const CalibrationRequest& r, const CalibrationResult& result) {
  const LibraryMaterial lib = loadLibraryMaterial(r.material, r.libraryHint, "/library");
  const std::string path = tablePath(r, lib);
  json table = readTable(path, r.method);
  json kept = json::array();
  for (const json& e : table["entries"])
    if (!sameEntry(e, r)) kept.push_back(e);
  kept.push_back({{"material", r.material},
                  {"element_radius", std::stod(shortNumber(r.elementRadius))},
                  {"packing", r.packing},
                  {"softening", r.softening},
                  {"version", calibrationVersion(r.method, r.softening)},
                  {"material_digest", materialDigest(lib, r.method)},
                  {"library_digest", fileDigest(lib.path)},  // what builds before 2026-12-06 compare
                  {"keys", result.keys},
                  {"target", result.target},
                  {"measured", result.measured},
                  {"lab_runs", result.labRuns},
                  {"seconds", result.seconds},
                  {"converged", result.converged},
                  {"notes", result.notes}});
  table["method"] = r.method;
  table["entries"] = kept;
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  writeFileAtomically(path, table.dump(2) + "\n");
}

CalibrationResult resultFromEntry(const json& e) {
  CalibrationResult r;
  r.keys = e.value("keys", json::object());
  r.target = e.value("target", json::object());
  r.measured = e.value("measured", json::object());
  r.labRuns = 0;  // none run now
  r.seconds = 0.0;
  r.converged = e.value("converged", false);
  for (const json& n : e.value("notes", json::array())) r.notes.push_back(n.get<std::string>());
  return r;
}

namespace {

// The beam-to-bar ratio of a flexural entry of `table`: the same material's where there is one, else the first
// flexural entry's; 0 without any.
double flexuralRatioIn(const json& table, const std::string& material) {
  double ratio = 0.0;
  for (const json& e : table["entries"]) {
    if (!e.is_object() || !e.contains("measured") || !e["measured"].is_object()) continue;
    const json& m = e["measured"];
    if (m.value("strength_test", "") != "bending") continue;
    const double bending = m.value("strength", 0.0), tension = m.value("tensile_strength", 0.0);
    if (!(bending > 0.0 && tension > 0.0)) continue;
    const bool same = e.value("material", "") == material;
    if (same || ratio == 0.0) ratio = bending / tension;
    if (same) break;
  }
  return ratio;
}

}  // namespace

CalibrationRequest withEarlierHints(CalibrationRequest r) {
  const LibraryMaterial lib = loadLibraryMaterial(r.material, r.libraryHint, "/library");
  r.flexuralRatioHint = flexuralRatioIn(readTable(tablePath(r, lib), r.method), r.material);
  // A table of its own without a flexural entry (a user's library folder, an empty $FRACTURE_CALIBRATION_DIR): the
  // shipped table's ratio, else the first beam starts at the bar's value and costs a beam more (bdem's glass 111-149
  // s in 9 lab runs instead of 79-92 s in 8, docs/materials.md).
  if (const std::string shipped = shippedAssetFolder(); r.flexuralRatioHint == 0.0 && !shipped.empty())
    r.flexuralRatioHint =
        flexuralRatioIn(readTable((fs::path(shipped) / "calibration" / (r.method + ".json")).string(), r.method),
                        r.material);
  return r;
}

CalibrationResult calibrateCached(const CalibrationRequest& r, bool* fromCache) {
  if (std::optional<json> entry = findCalibration(r)) {
    if (fromCache) *fromCache = true;
    return resultFromEntry(*entry);
  }
  if (fromCache) *fromCache = false;
  CalibrationResult result = calibrate(withEarlierHints(r));
  storeCalibration(r, result);
  return result;
}

}  // namespace frac
