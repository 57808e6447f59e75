#include "io/vtu_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>
#include <stdexcept>

#include "io/atomic_file.h"

namespace frac {

namespace {

// One appended block: its header tag's attributes and its bytes.
struct Block {
  std::string tag;  // the DataArray element, without its offset
  const void* data;
  uint64_t bytes;
};

std::string dataArrayTag(const char* type, const std::string& name, int components) {
  std::ostringstream tag;
  tag << "<DataArray type=\"" << type << "\"";
  if (!name.empty()) tag << " Name=\"" << name << "\"";
  tag << " NumberOfComponents=\"" << components << "\" format=\"appended\"";
  return tag.str();
}

// The value of attribute `key` in an XML tag's text, or "".
std::string attribute(const std::string& tag, const std::string& key) {
  const std::string needle = " " + key + "=\"";
  const size_t start = tag.find(needle);
  if (start == std::string::npos) return "";
  const size_t begin = start + needle.size(), end = tag.find('"', begin);
  return end == std::string::npos ? "" : tag.substr(begin, end - begin);
}

ScalarType scalarNamed(const std::string& path, const std::string& name) {
  for (int t = 0; t < int(ScalarType::Opaque); ++t)
    if (name == vtkTypeName(ScalarType(t))) return ScalarType(t);
  failFile(path, "unknown DataArray type '" + name + "'");
}

}  // namespace

double VtuArray::value(size_t i, int c) const {
  return scalarValue(scalar, bytes.data() + (i * size_t(components) + size_t(c)) * scalarBytes(scalar));
}

void VtuGrid::addCell(VtkCell type, std::initializer_list<int64_t> pointIndices) {
  connectivity.insert(connectivity.end(), pointIndices);
  offsets.push_back(int64_t(connectivity.size()));
  types.push_back(type);
}

const VtuArray* VtuGrid::pointArray(const std::string& name) const {
  for (const VtuArray& a : pointData)
    if (a.name == name) return &a;
  return nullptr;
}

const VtuArray* VtuGrid::cellArray(const std::string& name) const {
  for (const VtuArray& a : cellData)
    if (a.name == name) return &a;
  return nullptr;
}

void writeVtu(const VtuGrid& grid, const std::string& path) {
  std::vector<Block> blocks;
  std::ostringstream xml;
  xml << "<?xml version=\"1.0\"?>\n"
      << "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
      << "  <UnstructuredGrid>\n"
      << "    <Piece NumberOfPoints=\"" << grid.points.size() << "\" NumberOfCells=\"" << grid.cellCount() << "\">\n";
  uint64_t offset = 0;
  auto add = [&](const std::string& tag, const void* data, uint64_t bytes) {
    xml << "        " << tag << " offset=\"" << offset << "\"/>\n";
    blocks.push_back({tag, data, bytes});
    offset += sizeof(uint64_t) + bytes;
  };
  auto section = [&](const char* name, const std::vector<VtuArray>& arrays) {
    xml << "      <" << name << ">\n";
    for (const VtuArray& a : arrays) add(dataArrayTag(vtkTypeName(a.scalar), a.name, a.components), a.bytes.data(), a.bytes.size());
    xml << "      </" << name << ">\n";
  };
  section("PointData", grid.pointData);
  section("CellData", grid.cellData);
  xml << "      <Points>\n";
  add(dataArrayTag("Float32", "Points", 3), grid.points.data(), grid.points.size() * sizeof(vec3));
  xml << "      </Points>\n      <Cells>\n";
  add(dataArrayTag("Int64", "connectivity", 1), grid.connectivity.data(), grid.connectivity.size() * sizeof(int64_t));
  add(dataArrayTag("Int64", "offsets", 1), grid.offsets.data(), grid.offsets.size() * sizeof(int64_t));
  add(dataArrayTag("UInt8", "types", 1), grid.types.data(), grid.types.size());
  xml << "      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n  <AppendedData encoding=\"raw\">\n   _";
  writeFileAtomically(path, [&](std::ostream& out) {
    const std::string head = xml.str();
    out.write(head.data(), std::streamsize(head.size()));
    for (const Block& b : blocks) {
      out.write(reinterpret_cast<const char*>(&b.bytes), sizeof b.bytes);
      out.write(static_cast<const char*>(b.data), std::streamsize(b.bytes));
    }
    out << "\n  </AppendedData>\n</VTKFile>\n";
  });
}

VtuGrid readVtu(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) failFile(path, std::string("cannot open: ") + std::strerror(errno));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t appended = text.find("<AppendedData encoding=\"raw\">");
  if (text.find("type=\"UnstructuredGrid\"") == std::string::npos || text.find("header_type=\"UInt64\"") == std::string::npos ||
      appended == std::string::npos)
    failFile(path, "not a VTU file of this program (expected an UnstructuredGrid with raw appended data, UInt64 headers)");
  const size_t base = text.find('_', appended);
  if (base == std::string::npos) failFile(path, "no appended data");
  VtuGrid grid;
  std::string sectionName;
  for (size_t at = text.find('<'); at < appended; at = text.find('<', at + 1)) {
    const size_t end = text.find('>', at);
    const std::string tag = text.substr(at, end - at + 1);
    for (const char* name : {"PointData", "CellData", "Points", "Cells"})
      if (tag.rfind(std::string("<") + name, 0) == 0 && (tag[std::strlen(name) + 1] == '>' || tag[std::strlen(name) + 1] == ' '))
        sectionName = name;
    if (tag.rfind("<DataArray", 0) != 0) continue;
    VtuArray a;
    a.name = attribute(tag, "Name");
    a.scalar = scalarNamed(path, attribute(tag, "type"));
    a.components = std::max(1, std::atoi(attribute(tag, "NumberOfComponents").c_str()));
    const size_t offset = base + 1 + size_t(std::stoull(attribute(tag, "offset")));
    uint64_t bytes = 0;
    if (offset + sizeof bytes > text.size()) failFile(path, "truncated: array '" + a.name + "' lies past the end");
    std::memcpy(&bytes, text.data() + offset, sizeof bytes);
    if (offset + sizeof bytes + bytes > text.size()) failFile(path, "truncated: array '" + a.name + "' lies past the end");
    a.bytes.assign(text.begin() + std::ptrdiff_t(offset + sizeof bytes), text.begin() + std::ptrdiff_t(offset + sizeof bytes + bytes));
    auto copyInto = [&](auto& vector) {
      vector.resize(a.bytes.size() / sizeof(vector[0]));
      std::memcpy(vector.data(), a.bytes.data(), vector.size() * sizeof(vector[0]));
    };
    if (sectionName == "PointData") grid.pointData.push_back(std::move(a));
    else if (sectionName == "CellData") grid.cellData.push_back(std::move(a));
    else if (sectionName == "Points") copyInto(grid.points);
    else if (a.name == "connectivity") copyInto(grid.connectivity);
    else if (a.name == "offsets") copyInto(grid.offsets);
    else if (a.name == "types") copyInto(grid.types);
  }
  return grid;
}

void writePvd(const std::vector<std::pair<double, std::string>>& frames, const std::string& path) {
  std::ostringstream xml;
  xml << "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"1.0\" byte_order=\"LittleEndian\">\n"
      << "  <Collection>\n";
  for (const auto& [time, file] : frames)
    xml << "    <DataSet timestep=\"" << std::setprecision(17) << time << "\" part=\"0\" file=\"" << file << "\"/>\n";
  xml << "  </Collection>\n</VTKFile>\n";
  writeFileAtomically(path, [&](std::ostream& out) { out << xml.str(); });
}

}  // namespace frac
