#pragma once
// The material library (assets/materials/NAME.json): handbook materials with their macro properties (density,
// Young's modulus, Poisson's ratio, strengths, fracture energy), each with its unit and its source, and the
// method-specific keys a handbook does not give (Johnson-Cook constants, colours, contact). A scene material names one
// with "library": its keys are filled from the library's values, and every key the scene sets wins. The macro-to-key
// rules (material_library.cpp) are the uncalibrated ones (a bond's modulus is the material's, as Lu et al. take it);
// docs/materials.md lists them.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace frac {

struct LibraryProperty {
  std::string key;  // "young", "poisson", ...
  double value = 0.0;
  std::string unit, source;
  // tensile_strength only: the lab test its source measured it with, "tension" (an axial tensile strength) or
  // "bending" (a flexural strength, as EN 572's for glass); calibration fits the strength on that test.
  std::string test = "tension";
};

// How a strength of test `test` ("tension", "bending") is named to a user: "tensile" or "bending".
inline const char* strengthName(const std::string& test) { return test == "bending" ? "bending" : "tensile"; }

struct LibraryMaterial {
  std::string name;         // the file's stem: what scenes write
  std::string title, description, path;
  std::vector<LibraryProperty> properties;
  nlohmann::json keys;      // the file's scene material keys (method-specific values), validated
  const LibraryProperty* property(const std::string& key) const;
};

// The shipped assets folder the build was made from (its materials/, calibration/); empty where not known.
std::string shippedAssetFolder();

// The folders searched, in order: `materials` beside the scene's folder (assets/scenes -> assets/materials), the
// build's asset folder, ./assets/materials.
std::vector<std::string> libraryFolders(const std::string& sceneFile);
// The names of the library's materials (sorted), from the first folder that has any.
std::vector<std::string> libraryMaterialNames(const std::string& sceneFile = "");

// Reads and checks NAME.json (SceneError naming that file and key); `pointer` is where the scene asked for it.
LibraryMaterial loadLibraryMaterial(const std::string& name, const std::string& sceneFile, const std::string& pointer);

// The scene material keys a library material stands for: those derived from its macro properties, then its own.
nlohmann::json libraryMaterialKeys(const LibraryMaterial& material);

// The keys scene material `materialName` of `doc` gets from `library` before its own: the library's, then, where
// the calibration cache has a current entry for the scene's method and the radius and packing of the first body of
// this material (and the entry does not say "calibrated": false), the calibrated micro parameters
// (calibration/calibration_table.h). `calibration`, when given, says which in one line.
nlohmann::json libraryKeysForScene(const nlohmann::json& doc, const std::string& materialName,
                                   const LibraryMaterial& library, const std::string& sceneFile,
                                   std::string* calibration = nullptr);

// Replaces each `"library": NAME` entry of doc's "materials" by the library's keys under the entry's own.
void expandLibraryMaterials(nlohmann::json& doc, const std::string& sceneFile);

}  // namespace frac
