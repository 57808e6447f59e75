// The material library (io/material_library.h): a scene material named by "library" gets the handbook values and
// the elastic constants of an isotropic solid derived from them; the scene's own keys win; bad names and bad library
// files give one message naming the file, the key and what was expected.
#include <doctest/doctest.h>
#include "../relative_approx.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "io/material_library.h"
#include "io/scene_error.h"
#include "io/scene_loader.h"

#ifndef FRACTURE_SOURCE_DIR
#define FRACTURE_SOURCE_DIR "."
#endif

namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

const std::string kSceneFile = std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/library_test.json";

json sceneWith(const json& material) {
  return json{{"materials", {{"m", material}}},
              {"bodies", json::array({{{"shape", {{"type", "box"}, {"size", {0.1, 0.1, 0.1}}}},
                                       {"element_radius", 0.01},
                                       {"material", "m"}}})}};
}

std::string errorOf(const json& doc, const std::string& file) {
  try {
    frac::parseScene(doc, file);
  } catch (const frac::SceneError& e) {
    return e.what();
  }
  FAIL("expected a SceneError");
  return "";
}

void writeFile(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

}  // namespace

TEST_CASE("material library: glass is EN 572-1's float glass, with K = E / (3 (1 - 2 nu)) and G = E / (2 (1 + nu))") {
  const frac::SceneDesc s = frac::parseScene(sceneWith({{"library", "glass"}}), kSceneFile);
  REQUIRE(s.materials.size() == 1);
  const frac::MaterialDesc& m = s.materials[0];
  CHECK(m.library == "glass");
  // EN 572-1: 2500 kg/m^3, E 70 GPa, nu 0.2, characteristic bending strength 45 MPa (floats: 1e-6 relative).
  CHECK(m.density == RelApprox(2500.0).epsilon(1e-6));
  CHECK(m.young == RelApprox(7.0e10).epsilon(1e-6));
  CHECK(m.bulkModulus == RelApprox(7.0e10 / (3.0 * (1.0 - 2.0 * 0.2))).epsilon(1e-6));  // 38.9 GPa
  CHECK(m.shearModulus == RelApprox(7.0e10 / (2.0 * (1.0 + 0.2))).epsilon(1e-6));       // 29.2 GPa
  CHECK(m.shear == RelApprox(m.shearModulus).epsilon(1e-6));
  CHECK(m.tensileStrength == RelApprox(4.5e7).epsilon(1e-6));
  CHECK(m.shearStrength == RelApprox(4.5e7).epsilon(1e-6));  // no shear strength given: the tensile one
  CHECK(m.fractureEnergy == RelApprox(7.8).epsilon(1e-6));   // 2 x Wiederhorn's 3.9 J/m^2
  CHECK(m.heatCapacity == RelApprox(720.0).epsilon(1e-6));   // a library key
  // EN 572's strength is a bending strength: calibration fits it on three-point bending (test_calibration.cpp).
  CHECK(frac::loadLibraryMaterial("glass", kSceneFile, "/library").property("tensile_strength")->test == "bending");
  CHECK(frac::loadLibraryMaterial("concrete", kSceneFile, "/library").property("tensile_strength")->test == "tension");
}

TEST_CASE("material library: concrete is Eurocode 2's C30-37 and ice Schulson's, with fib's and K_Ic's fracture energies") {
  const frac::SceneDesc c = frac::parseScene(sceneWith({{"library", "concrete"}}), kSceneFile);
  const frac::MaterialDesc& m = c.materials[0];
  // EN 1992-1-1 Table 3.1, C30/37: E_cm 33 GPa, f_ctm 2.9 MPa, f_cm 38 MPa; nu 0.2; EN 1991-1-1: 24 kN/m^3.
  CHECK(m.density == RelApprox(2400.0).epsilon(1e-6));
  CHECK(m.young == RelApprox(3.3e10).epsilon(1e-6));
  CHECK(m.bulkModulus == RelApprox(3.3e10 / (3.0 * (1.0 - 2.0 * 0.2))).epsilon(1e-6));
  CHECK(m.tensileStrength == RelApprox(2.9e6).epsilon(1e-6));
  CHECK(m.fractureEnergy == RelApprox(73.0 * std::pow(38.0, 0.18)).epsilon(0.005));  // fib MC 2010 eq. 5.1-9
  const frac::SceneDesc i = frac::parseScene(sceneWith({{"library", "ice"}}), kSceneFile);
  const frac::MaterialDesc& ice = i.materials[0];
  CHECK(ice.density == RelApprox(917.0).epsilon(1e-6));
  CHECK(ice.shearModulus == RelApprox(9.3e9 / (2.0 * 1.33)).epsilon(1e-6));
  // Plane strain: G = K_Ic^2 (1 - nu^2) / E with K_Ic = 0.1 MPa m^0.5 (Schulson & Duval 2009).
  CHECK(ice.fractureEnergy == RelApprox(1e10 * (1.0 - 0.33 * 0.33) / 9.3e9).epsilon(0.005));
}

TEST_CASE("material library: aluminium 2024-T351 carries Johnson-Cook's constants, and the scene's own keys win") {
  const frac::SceneDesc s = frac::parseScene(
      sceneWith({{"library", "aluminium"}, {"jc_b", 1e8}, {"color", {1, 0, 0}}, {"bulk_modulus", 5e10}}), kSceneFile);
  const frac::MaterialDesc& m = s.materials[0];
  CHECK(m.jcA == RelApprox(2.65e8).epsilon(1e-6));  // Johnson & Cook 1983: A 265 MPa, n 0.34, C 0.015
  CHECK(m.jcN == RelApprox(0.34).epsilon(1e-6));
  CHECK(m.jcC == RelApprox(0.015).epsilon(1e-6));
  CHECK(m.meltTemperature == RelApprox(775.0).epsilon(1e-6));
  CHECK(m.jcB == RelApprox(1e8).epsilon(1e-6));           // overridden (the library says 426 MPa)
  CHECK(m.bulkModulus == RelApprox(5e10).epsilon(1e-6));  // overridden (derived: 71.7 GPa)
  CHECK(m.color == frac::vec3(1, 0, 0));
  CHECK(m.shearModulus == RelApprox(7.31e10 / 2.66).epsilon(1e-6));  // derived, not overridden
}

TEST_CASE("material library: --set can pick a library material for a scene's material") {
  const std::string file = std::string(FRACTURE_SOURCE_DIR) + "/assets/scenes/fem_porcelain_vase_drop.json";
  const frac::SceneDesc s = frac::loadScene(file, {"materials.porcelain.library=glass"});
  const auto it = std::find_if(s.materials.begin(), s.materials.end(), [](const auto& m) { return m.name == "porcelain"; });
  REQUIRE(it != s.materials.end());
  const frac::MaterialDesc& m = *it;
  CHECK(m.library == "glass");
  CHECK(m.fractureEnergy == RelApprox(7.8).epsilon(1e-6));  // from glass: the scene does not set it
  CHECK(m.bulkModulus == RelApprox(3.9e10).epsilon(1e-6));  // the scene's own value wins
}

TEST_CASE("material library: every shipped material names a source for every property") {
  const std::vector<std::string> names = frac::libraryMaterialNames(kSceneFile);
  CHECK(names.size() >= 3);
  for (const std::string& name : names) {
    CAPTURE(name);
    const frac::LibraryMaterial m = frac::loadLibraryMaterial(name, kSceneFile, "/materials/m/library");
    CHECK(!m.title.empty());
    for (const frac::LibraryProperty& p : m.properties) CHECK(!p.source.empty());
    CHECK_NOTHROW(frac::parseScene(sceneWith({{"library", name}}), kSceneFile));
  }
}

TEST_CASE("material library errors: unknown names, wrong types and bad library files name the file and the key") {
  const std::string unknown = errorOf(sceneWith({{"library", "glas"}}), kSceneFile);
  CHECK(unknown.find(kSceneFile) != std::string::npos);
  CHECK(unknown.find("/materials/m/library") != std::string::npos);
  CHECK(unknown.find("unknown library material \"glas\"") != std::string::npos);
  CHECK(unknown.find("glass") != std::string::npos);  // the list of what there is

  CHECK(errorOf(sceneWith({{"library", 3}}), kSceneFile).find("expected the name of a library material") !=
        std::string::npos);
  CHECK(errorOf(sceneWith({{"library", "../scenes/default"}}), kSceneFile).find("unknown library material") !=
        std::string::npos);

  const fs::path root = fs::temp_directory_path() / "frac_library_test";
  fs::remove_all(root);
  const std::string scene = (root / "scenes" / "s.json").string();
  writeFile(root / "materials" / "nosource.json",
            R"({"properties": {"density": {"value": 1000, "unit": "kg/m^3", "source": ""}}})");
  std::string e = errorOf(sceneWith({{"library", "nosource"}}), scene);
  CHECK(e.find("nosource.json") != std::string::npos);
  CHECK(e.find("/properties/density/source") != std::string::npos);

  const std::string good = R"("density": {"value": 1000, "unit": "kg/m^3", "source": "s"},
      "young": {"value": 1e9, "unit": "Pa", "source": "s"}, "poisson": {"value": 0.3, "unit": "1", "source": "s"},
      "tensile_strength": {"value": 1e6, "unit": "Pa", "source": "s"}, "fracture_energy": {"value": 10, "unit": "J/m^2", "source": "s"})";
  writeFile(root / "materials" / "badkey.json", "{\"properties\": {" + good + "}, \"keys\": {\"jc_a\": -5}}");
  e = errorOf(sceneWith({{"library", "badkey"}}), scene);
  CHECK(e.find("badkey.json") != std::string::npos);
  CHECK(e.find("/keys/jc_a") != std::string::npos);

  writeFile(root / "materials" / "poisson.json",
            "{\"properties\": {" + good.substr(0, good.find("\"poisson\"")) +
                R"("poisson": {"value": 0.5, "unit": "1", "source": "s"},)" +
                good.substr(good.find("\"tensile_strength\"")) + "}}");
  e = errorOf(sceneWith({{"library", "poisson"}}), scene);
  CHECK(e.find("/properties/poisson/value") != std::string::npos);
  CHECK(e.find("(-1, 0.5)") != std::string::npos);

  // A strength's test (the lab test its source measured it with, which calibration fits it on): tension or bending,
  // and on tensile_strength only.
  const auto errorWith = [&](const std::string& name, const std::string& before, const std::string& text) {
    std::string properties = good;  // `good` with `text` inserted before `before`
    properties.insert(properties.find(before), text);
    writeFile(root / "materials" / (name + ".json"), "{\"properties\": {" + properties + "}}");
    return errorOf(sceneWith({{"library", name}}), scene);
  };
  e = errorWith("badtest", R"("unit": "Pa", "source": "s"}, "fracture)", R"("test": "flexural", )");
  CHECK(e.find("badtest.json") != std::string::npos);
  CHECK(e.find("/properties/tensile_strength/test") != std::string::npos);
  CHECK(e.find("\"bending\"") != std::string::npos);
  e = errorWith("testonyoung", R"("unit": "Pa", "source": "s"}, "poisson)", R"("test": "bending", )");
  CHECK(e.find("/properties/young/test") != std::string::npos);
  CHECK(e.find("tensile_strength only") != std::string::npos);

  // Flaw cells (optional, m): the scene key weibull_cell, beside weibull_m from the Weibull modulus.
  writeFile(root / "materials" / "cells.json",
            "{\"properties\": {" + good + R"(, "weibull_modulus": {"value": 7, "unit": "1", "source": "s"},
                "weibull_cell": {"value": 0.002, "unit": "m", "source": "s"}}})");
  const frac::SceneDesc cells = frac::parseScene(sceneWith({{"library", "cells"}}), scene);
  CHECK(cells.materials.at(0).weibullM == 7.0f);
  CHECK(cells.materials.at(0).weibullCell == 0.002f);

  writeFile(root / "materials" / "missing.json",
            "{\"properties\": {" + good.substr(0, good.find(", \"fracture_energy\"")) + "}}");
  e = errorOf(sceneWith({{"library", "missing"}}), scene);
  CHECK(e.find("/properties/fracture_energy") != std::string::npos);

  writeFile(root / "materials" / "syntax.json", "{\"properties\": {");
  CHECK(errorOf(sceneWith({{"library", "syntax"}}), scene).find("syntax.json") != std::string::npos);
  fs::remove_all(root);
}
