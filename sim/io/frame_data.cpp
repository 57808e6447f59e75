#include "io/frame_data.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "io/atomic_file.h"
#include "solvers/array_groups.h"

namespace frac {

namespace {

template <class T>
VtuArray arrayOf(const std::string& name, const std::vector<T>& values, ScalarType scalar, int components) {
  VtuArray a{name, scalar, components, {}};
  a.bytes.resize(values.size() * sizeof(T));
  std::memcpy(a.bytes.data(), values.data(), a.bytes.size());
  return a;
}

// A listed array as a data array of `entries` entries (zeros past its own count: the projectiles after a method's
// own elements).
VtuArray arrayOf(const ArrayInfo& info, size_t entries) {
  VtuArray a{info.name, info.scalar, info.components, {}};
  a.bytes.assign(entries * info.entryBytes, 0);
  std::memcpy(a.bytes.data(), info.data, std::min(entries, info.count) * info.entryBytes);
  return a;
}

bool hasArray(const std::vector<VtuArray>& arrays, const std::string& name) {
  for (const VtuArray& a : arrays)
    if (a.name == name) return true;
  return false;
}

const ArrayInfo* find(const ArrayGroup& g, const char* name) {
  for (const ArrayInfo& a : g.arrays)
    if (std::strcmp(a.name, name) == 0) return &a;
  return nullptr;
}

}  // namespace

FrameData frameData(const Solver& solver, const RenderFrame& frame, bool withBonds) {
  FrameData out;
  VtuGrid& e = out.elements;
  const size_t n = frame.elementCount();
  e.points.resize(n);
  std::vector<float> radius(n);
  for (size_t i = 0; i < n; ++i) {
    e.points[i] = vec3(frame.spheres[i]);
    radius[i] = frame.spheres[i].w;
    e.addCell(kVtkVertex, {int64_t(i)});
  }
  std::vector<uint8_t> kind(n);
  for (size_t i = 0; i < n; ++i) kind[i] = uint8_t(frame.kind[i]);
  e.pointData = {arrayOf("radius", radius, ScalarType::Float32, 1),
                 arrayOf("speed", frame.speed, ScalarType::Float32, 1),
                 arrayOf("damage", frame.damage, ScalarType::Float32, 1),
                 arrayOf("fragment", frame.fragment, ScalarType::UInt32, 1),
                 arrayOf("stress_ratio", frame.stressRatio, ScalarType::Float32, 1),
                 arrayOf("material", frame.material, ScalarType::UInt16, 1),
                 arrayOf("kind", kind, ScalarType::UInt8, 1)};
  const std::vector<ArrayGroup> groups = arrayGroups(solver);
  for (const ArrayGroup& g : groups) {
    if (g.name != "elements") continue;
    if (find(g, "orientation")) e.pointData.push_back(arrayOf("orientation", frame.orientations, ScalarType::Float32, 4));
    for (const ArrayInfo& a : g.arrays)
      if (carriesValues(a) && a.count == g.size && g.size <= n && !hasArray(e.pointData, a.name))
        e.pointData.push_back(arrayOf(a, n));
  }
  for (const ArrayGroup& g : groups) {
    const ArrayInfo* corners = find(g, "corners");
    const ArrayInfo *first = find(g, "first"), *second = find(g, "second");
    const bool tetrahedra = corners && corners->scalar == ScalarType::Int32 && corners->components == 4;
    const bool lines = withBonds && first && second && first->scalar == ScalarType::Int32 &&
                       second->scalar == ScalarType::Int32 && first->count == second->count;
    if (!tetrahedra && !lines) continue;
    VtuGrid cells;
    cells.points = e.points;
    cells.pointData = e.pointData;
    if (tetrahedra) {
      const auto* c = static_cast<const int32_t*>(corners->data);
      for (size_t t = 0; t < corners->count; ++t) cells.addCell(kVtkTetra, {c[4 * t], c[4 * t + 1], c[4 * t + 2], c[4 * t + 3]});
    } else {
      const auto *a = static_cast<const int32_t*>(first->data), *b = static_cast<const int32_t*>(second->data);
      for (size_t k = 0; k < first->count; ++k) cells.addCell(kVtkLine, {a[k], b[k]});
    }
    const ArrayInfo* joining[] = {corners, first, second};
    for (const ArrayInfo& a : g.arrays) {
      const bool joins = &a == joining[0] || &a == joining[1] || &a == joining[2];
      if (carriesValues(a) && !joins && a.count == cells.cellCount()) cells.cellData.push_back(arrayOf(a, a.count));
    }
    out.cellGroups.emplace_back(g.name, std::move(cells));
  }
  return out;
}

void writeElementPly(const VtuGrid& elements, const std::string& path) {
  struct Property {
    const VtuArray* array;
    int component;
    ScalarType scalar;  // as written
  };
  std::vector<Property> properties;
  std::ostringstream header;
  header << "ply\nformat binary_little_endian 1.0\ncomment Fracture Sandbox elements, one vertex each\n"
         << "element vertex " << elements.points.size() << "\nproperty float x\nproperty float y\nproperty float z\n";
  static constexpr const char* kAxes[] = {"_x", "_y", "_z", "_w"};
  for (const VtuArray& a : elements.pointData)
    for (int c = 0; c < a.components; ++c) {
      const ScalarType written = plyTypeName(a.scalar) ? a.scalar : ScalarType::Float64;
      const std::string suffix = a.components == 1 ? "" : a.components <= 4 && a.components >= 3 ? kAxes[c] : "_" + std::to_string(c);
      header << "property " << plyTypeName(written) << " " << a.name << suffix << "\n";
      properties.push_back({&a, c, written});
    }
  header << "end_header\n";
  size_t recordBytes = 3 * sizeof(float);
  for (const Property& p : properties) recordBytes += scalarBytes(p.scalar);
  std::vector<uint8_t> body(recordBytes * elements.points.size());
  uint8_t* at = body.data();
  for (size_t i = 0; i < elements.points.size(); ++i) {
    std::memcpy(at, &elements.points[i], 3 * sizeof(float));
    at += 3 * sizeof(float);
    for (const Property& p : properties) {
      const size_t bytes = scalarBytes(p.scalar);
      if (p.scalar == p.array->scalar) {
        std::memcpy(at, p.array->bytes.data() + (i * size_t(p.array->components) + size_t(p.component)) * bytes, bytes);
      } else {
        const double value = p.array->value(i, p.component);
        std::memcpy(at, &value, bytes);
      }
      at += bytes;
    }
  }
  writeFileAtomically(path, [&](std::ostream& out) {
    const std::string h = header.str();
    out.write(h.data(), std::streamsize(h.size()));
    out.write(reinterpret_cast<const char*>(body.data()), std::streamsize(body.size()));
  });
}

VtuGrid readElementPly(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) failFile(path, std::string("cannot open: ") + std::strerror(errno));
  std::string line;
  size_t count = 0;
  std::vector<VtuArray> columns;
  bool format = false;
  while (std::getline(in, line) && line != "end_header") {
    std::istringstream words(line);
    std::string word, type, name;
    words >> word;
    if (word == "format") format = line == "format binary_little_endian 1.0";
    if (word == "element") words >> type >> count;
    if (word != "property") continue;
    words >> type >> name;
    VtuArray column{name, ScalarType::Opaque, 1, {}};
    for (int t = 0; t < int(ScalarType::Int64); ++t)
      if (type == plyTypeName(ScalarType(t))) column.scalar = ScalarType(t);
    if (column.scalar == ScalarType::Opaque) failFile(path, "unexpected property type '" + type + "'");
    columns.push_back(column);
  }
  if (!format || columns.size() < 3 || columns[0].name != "x")
    failFile(path, "not an element PLY file of this program");
  VtuGrid grid;
  grid.points.resize(count);
  for (size_t i = 0; i < count; ++i)
    for (size_t c = 0; c < columns.size(); ++c) {
      uint8_t value[8];
      const size_t bytes = scalarBytes(columns[c].scalar);
      if (!in.read(reinterpret_cast<char*>(value), std::streamsize(bytes)))
        failFile(path, "truncated: fewer vertices than its header says");
      if (c < 3) std::memcpy(&grid.points[i][int(c)], value, sizeof(float));
      else columns[c].bytes.insert(columns[c].bytes.end(), value, value + bytes);
    }
  grid.pointData.assign(columns.begin() + 3, columns.end());
  return grid;
}

}  // namespace frac
