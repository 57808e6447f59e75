#pragma once
// VTK XML unstructured grids (.vtu: points, cells, point and cell data; binary appended raw data with UInt64 block
// headers, little endian) and their .pvd collections (one data set per frame with its simulated time), the files
// ParaView opens as a sequence. Written kill-safe (io/atomic_file.h). The reader reads what the writer writes (tests,
// tools); other VTU files get a clear error.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/math.h"
#include "core/scalar_type.h"

namespace frac {

// One named array: `components` scalars per entry, the entries' bytes back to back.
struct VtuArray {
  std::string name;
  ScalarType scalar = ScalarType::Float32;
  int components = 1;
  std::vector<uint8_t> bytes;

  size_t count() const { return bytes.size() / (scalarBytes(scalar) * size_t(components)); }
  // Entry i's component c as a double (tests, readers).
  double value(size_t i, int c = 0) const;
};

// VTK cell types used here.
enum VtkCell : uint8_t { kVtkVertex = 1, kVtkLine = 3, kVtkTetra = 10 };

struct VtuGrid {
  std::vector<vec3> points;
  std::vector<int64_t> connectivity;  // point indices of every cell, back to back
  std::vector<int64_t> offsets;       // per cell: the end of its points in connectivity
  std::vector<uint8_t> types;         // per cell: VtkCell
  std::vector<VtuArray> pointData, cellData;

  size_t cellCount() const { return types.size(); }
  void addCell(VtkCell type, std::initializer_list<int64_t> pointIndices);
  // The point or cell array called `name`, or nullptr.
  const VtuArray* pointArray(const std::string& name) const;
  const VtuArray* cellArray(const std::string& name) const;
};

// Throws std::runtime_error naming the file when it cannot be written.
void writeVtu(const VtuGrid& grid, const std::string& path);
// Throws std::runtime_error naming the file for anything but a file writeVtu wrote (truncated, other encodings).
VtuGrid readVtu(const std::string& path);

// A .pvd collection: each frame's simulated time and its file (relative to the collection's folder).
void writePvd(const std::vector<std::pair<double, std::string>>& frames, const std::string& path);

}  // namespace frac
