// VTK XML files (sim/io/vtu_file.h) and element PLY files (sim/io/frame_data.h): what is written reads back bit for
// bit, a truncated or foreign file is refused naming the file, and a .pvd lists each frame's time and file.
#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "io/frame_data.h"
#include "io/vtu_file.h"

using namespace frac;
namespace fs = std::filesystem;

namespace {

template <class T>
VtuArray makeArray(const std::string& name, ScalarType scalar, int components, const std::vector<T>& values) {
  VtuArray a{name, scalar, components, {}};
  a.bytes.resize(values.size() * sizeof(T));
  std::memcpy(a.bytes.data(), values.data(), a.bytes.size());
  return a;
}

// Two tetrahedra on five points, every scalar type VTK XML has among the point and cell arrays.
VtuGrid sampleGrid() {
  VtuGrid g;
  g.points = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
  g.addCell(kVtkTetra, {0, 1, 2, 3});
  g.addCell(kVtkTetra, {1, 2, 3, 4});
  g.pointData.push_back(makeArray<float>("velocity", ScalarType::Float32, 3,
                                         {0.5f, -1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1e-30f, -0.0f, 1e30f}));
  g.pointData.push_back(makeArray<uint32_t>("fragment", ScalarType::UInt32, 1, {0, 0, 7, 4000000000u, 3}));
  g.pointData.push_back(makeArray<uint8_t>("kind", ScalarType::UInt8, 1, {0, 1, 2, 255, 0}));
  g.pointData.push_back(makeArray<int16_t>("driven", ScalarType::Int16, 1, {-1, -1, 3, 0, 32767}));
  g.cellData.push_back(makeArray<double>("energy", ScalarType::Float64, 1, {1.0 / 3.0, -2e-300}));
  g.cellData.push_back(makeArray<int64_t>("id", ScalarType::Int64, 1, {-5, 1ll << 40}));
  g.cellData.push_back(makeArray<float>("stress", ScalarType::Float32, 6, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
  return g;
}

void checkSameArrays(const std::vector<VtuArray>& read, const std::vector<VtuArray>& written) {
  REQUIRE(read.size() == written.size());
  for (size_t k = 0; k < read.size(); ++k) {
    INFO(written[k].name);
    CHECK(read[k].name == written[k].name);
    CHECK(read[k].scalar == written[k].scalar);
    CHECK(read[k].components == written[k].components);
    CHECK(read[k].bytes == written[k].bytes);
  }
}

fs::path tempDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("frac_vtu_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

}  // namespace

TEST_CASE("VTU: a grid written and read back has the same points, cells and arrays, bit for bit") {
  const fs::path dir = tempDir("roundtrip");
  const VtuGrid g = sampleGrid();
  writeVtu(g, (dir / "grid.vtu").string());
  CHECK_FALSE(fs::exists(dir / "grid.vtu.partial"));
  const VtuGrid r = readVtu((dir / "grid.vtu").string());
  REQUIRE(r.points.size() == g.points.size());
  CHECK(std::memcmp(r.points.data(), g.points.data(), g.points.size() * sizeof(vec3)) == 0);
  CHECK(r.connectivity == g.connectivity);
  CHECK(r.offsets == std::vector<int64_t>{4, 8});
  CHECK(r.types == std::vector<uint8_t>{kVtkTetra, kVtkTetra});
  checkSameArrays(r.pointData, g.pointData);
  checkSameArrays(r.cellData, g.cellData);
  CHECK(r.pointArray("fragment")->value(3) == 4000000000.0);
  CHECK(r.cellArray("energy")->value(0) == 1.0 / 3.0);
  CHECK(r.cellArray("stress")->value(1, 5) == 12.0);
}

TEST_CASE("VTU: a truncated file and a file of another program are refused, naming the file") {
  const fs::path dir = tempDir("bad");
  const std::string path = (dir / "grid.vtu").string();
  writeVtu(sampleGrid(), path);
  const auto size = fs::file_size(path);
  fs::resize_file(path, size - 60);  // the last arrays' bytes are gone
  CHECK_THROWS_WITH_AS(readVtu(path), doctest::Contains((path + ": truncated").c_str()), std::runtime_error);
  std::ofstream(dir / "other.vtu") << "<VTKFile type=\"PolyData\"></VTKFile>";
  CHECK_THROWS_WITH_AS(readVtu((dir / "other.vtu").string()), doctest::Contains("not a VTU file of this program"),
                       std::runtime_error);
  CHECK_THROWS_WITH_AS(readVtu((dir / "missing.vtu").string()), doctest::Contains("cannot open"), std::runtime_error);
}

TEST_CASE("PVD: each frame's simulated time and file, in order") {
  const fs::path dir = tempDir("pvd");
  writePvd({{0.0, "a_000000.vtu"}, {1.0 / 30.0, "a_000001.vtu"}}, (dir / "a.pvd").string());
  std::ifstream in(dir / "a.pvd");
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  CHECK(s.find("type=\"Collection\"") != std::string::npos);
  const size_t first = s.find("<DataSet timestep=\"0\" part=\"0\" file=\"a_000000.vtu\"/>");
  const size_t second = s.find("<DataSet timestep=\"0.033333333333333333\" part=\"0\" file=\"a_000001.vtu\"/>");
  CHECK(first != std::string::npos);
  CHECK(second != std::string::npos);
  CHECK(first < second);
}

TEST_CASE("element PLY: points and every component read back, Int64 as double") {
  const fs::path dir = tempDir("ply");
  VtuGrid g = sampleGrid();
  g.pointData.push_back(makeArray<int64_t>("big", ScalarType::Int64, 1, {1, 2, 3, -4, 1ll << 40}));
  writeElementPly(g, (dir / "e.ply").string());
  const VtuGrid r = readElementPly((dir / "e.ply").string());
  REQUIRE(r.points.size() == g.points.size());
  CHECK(std::memcmp(r.points.data(), g.points.data(), g.points.size() * sizeof(vec3)) == 0);
  std::vector<std::string> names;
  for (const VtuArray& a : r.pointData) names.push_back(a.name);
  CHECK(names == std::vector<std::string>{"velocity_x", "velocity_y", "velocity_z", "fragment", "kind", "driven", "big"});
  for (size_t i = 0; i < g.points.size(); ++i) {
    CHECK(r.pointArray("velocity_z")->value(i) == g.pointArray("velocity")->value(i, 2));
    CHECK(r.pointArray("fragment")->value(i) == g.pointArray("fragment")->value(i));
    CHECK(r.pointArray("driven")->value(i) == g.pointArray("driven")->value(i));
    CHECK(r.pointArray("big")->value(i) == g.pointArray("big")->value(i));
  }
  CHECK(r.pointArray("big")->scalar == ScalarType::Float64);
  fs::resize_file(dir / "e.ply", fs::file_size(dir / "e.ply") - 3);
  CHECK_THROWS_WITH_AS(readElementPly((dir / "e.ply").string()), doctest::Contains("truncated"), std::runtime_error);
}
