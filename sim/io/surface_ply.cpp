#include "io/surface_ply.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "io/atomic_file.h"

namespace frac {
namespace {

constexpr const char* kVertexProperties =
    "property float x\nproperty float y\nproperty float z\n"
    "property float nx\nproperty float ny\nproperty float nz\n"
    "property uint fragment\nproperty uchar crack\n";
constexpr const char* kFaceProperties = "property list uchar uint vertex_indices\nproperty uint fragment\nproperty uchar crack\n";

#pragma pack(push, 1)
struct PlyVertex {
  float x, y, z, nx, ny, nz;
  uint32_t fragment;
  uint8_t crack;
};
struct PlyFace {
  uint8_t count;
  uint32_t index[3];
  uint32_t fragment;
  uint8_t crack;
};
#pragma pack(pop)

std::string header(size_t vertices, size_t faces) {
  std::ostringstream h;
  h << "ply\nformat binary_little_endian 1.0\n"
    << "comment Fracture Sandbox fracture surfaces: one closed mesh per fragment, crack = 1 on crack faces\n"
    << "element vertex " << vertices << "\n" << kVertexProperties << "element face " << faces << "\n"
    << kFaceProperties << "end_header\n";
  return h.str();
}

}  // namespace

void writeSurfacePly(const SurfaceMesh& mesh, const std::string& path) {
  static_assert(sizeof(PlyVertex) == 29 && sizeof(PlyFace) == 18, "PLY records are packed");
  const size_t nv = mesh.positions.size(), nf = mesh.indices.size() / 3;
  std::vector<PlyVertex> vertices(nv);
  for (size_t k = 0; k < nv; ++k) {
    const vec3 p = mesh.positions[k], n = mesh.normals[k];
    vertices[k] = PlyVertex{p.x, p.y, p.z, n.x, n.y, n.z, mesh.fragment[k], uint8_t(mesh.crack[k] >= 0.5f)};
  }
  std::vector<PlyFace> faces(nf);
  for (size_t t = 0; t < nf; ++t) {
    const uint32_t* i = &mesh.indices[3 * t];
    const float crack = mesh.crack[i[0]] + mesh.crack[i[1]] + mesh.crack[i[2]];
    faces[t] = PlyFace{3, {i[0], i[1], i[2]}, mesh.fragment[i[0]], uint8_t(crack >= 1.5f)};
  }
  writeFileAtomically(path, [&](std::ostream& out) {
    const std::string h = header(nv, nf);
    out.write(h.data(), std::streamsize(h.size()));
    out.write(reinterpret_cast<const char*>(vertices.data()), std::streamsize(nv * sizeof(PlyVertex)));
    out.write(reinterpret_cast<const char*>(faces.data()), std::streamsize(nf * sizeof(PlyFace)));
  });
}

SurfaceMesh readSurfacePly(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) failFile(path, std::string("cannot open: ") + std::strerror(errno));
  std::string line, text;
  size_t nv = 0, nf = 0;
  while (std::getline(in, line)) {
    text += line + "\n";
    if (std::sscanf(line.c_str(), "element vertex %zu", &nv) == 1 || std::sscanf(line.c_str(), "element face %zu", &nf) == 1)
      continue;
    if (line == "end_header") break;
  }
  if (text != header(nv, nf)) failFile(path, "not a fracture-surface PLY file of this program (unexpected header)");
  std::vector<PlyVertex> vertices(nv);
  std::vector<PlyFace> faces(nf);
  in.read(reinterpret_cast<char*>(vertices.data()), std::streamsize(nv * sizeof(PlyVertex)));
  in.read(reinterpret_cast<char*>(faces.data()), std::streamsize(nf * sizeof(PlyFace)));
  if (!in) failFile(path, "truncated: fewer vertices or faces than its header says");
  SurfaceMesh mesh;
  for (const PlyVertex& v : vertices) {
    mesh.positions.push_back(vec3(v.x, v.y, v.z));
    mesh.normals.push_back(vec3(v.nx, v.ny, v.nz));
    const uint32_t fragment = v.fragment;  // by value: push_back would bind a reference to a misaligned member
    mesh.fragment.push_back(fragment);
    mesh.crack.push_back(float(v.crack));
    mesh.element.push_back(-1);
  }
  for (const PlyFace& f : faces) {
    if (f.count != 3) failFile(path, "a face that is not a triangle");
    const uint32_t index[3] = {f.index[0], f.index[1], f.index[2]};  // by value: packed members are misaligned
    for (uint32_t i : index) {
      if (i >= nv) failFile(path, "a face index beyond the vertices");
      mesh.indices.push_back(i);
    }
  }
  return mesh;
}

}  // namespace frac
