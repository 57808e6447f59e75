#include "solvers/frame_parts.h"

#include <algorithm>

namespace frac {

void writeMaterials(RenderFrame& frame, const std::vector<MaterialDesc>& materials) {
  frame.materialColors.clear();
  frame.materialInteriorColors.clear();
  frame.materialNames.clear();
  for (const MaterialDesc& m : materials) {
    frame.materialColors.push_back(m.color);
    frame.materialInteriorColors.push_back(m.interiorColor);
    frame.materialNames.push_back(m.name);
  }
}

void writePlanes(RenderFrame& frame, const std::vector<vec3>& points, const std::vector<vec3>& normals,
                 const std::vector<uint16_t>& planeMaterials, const std::vector<MaterialDesc>& materials) {
  vec3 lo(1e30f), hi(-1e30f);
  for (const glm::vec4& s : frame.spheres) {
    if (!(s.w > 0.0f)) continue;  // not drawn (waiting projectiles)
    lo = glm::min(lo, vec3(s));
    hi = glm::max(hi, vec3(s));
  }
  writePlanesAround(frame, lo, hi, points, normals, planeMaterials, materials);
}

void writePlanesAround(RenderFrame& frame, const vec3& lo, const vec3& hi, const std::vector<vec3>& points,
                       const std::vector<vec3>& normals, const std::vector<uint16_t>& planeMaterials,
                       const std::vector<MaterialDesc>& materials) {
  const bool any = lo.x <= hi.x;
  const vec3 centre = any ? 0.5f * (lo + hi) : vec3(0.0f);
  const float halfSize = any ? std::max(4.0f * glm::length(hi - lo), 0.5f) : 1.0f;
  frame.meshes.clear();
  for (size_t k = 0; k < points.size(); ++k)
    frame.meshes.push_back(planeMesh(points[k], normals[k], centre, halfSize, materials[planeMaterials[k]].color));
}

void writeFrameAround(RenderFrame& frame, double time, const InstanceSummary& summary, const std::vector<vec3>& points,
                      const std::vector<vec3>& normals, const std::vector<uint16_t>& planeMaterials,
                      const std::vector<MaterialDesc>& materials) {
  frame.time = time;
  frame.resizeElements(0);
  frame.elementsOnDevice = summary;
  writeMaterials(frame, materials);
  writePlanesAround(frame, summary.lo, summary.hi, points, normals, planeMaterials, materials);
  frame.bondEnds.clear();
  frame.bondBroken.clear();
}

void writeBondLines(RenderFrame& frame, bool withBonds, const std::vector<int32_t>& first,
                    const std::vector<int32_t>& second, const std::vector<uint8_t>& broken) {
  frame.bondEnds.clear();
  frame.bondBroken.clear();
  if (!withBonds) return;
  frame.bondEnds.reserve(2 * first.size());
  for (size_t b = 0; b < first.size(); ++b) {
    frame.bondEnds.push_back(vec3(frame.spheres[first[b]]));
    frame.bondEnds.push_back(vec3(frame.spheres[second[b]]));
    frame.bondBroken.push_back(broken[b] != 0);
  }
}

std::vector<uint32_t> fragmentKeys(const FragmentLabels& pieces) {
  const int n = int(pieces.label.size());
  std::vector<uint32_t> firstOfPiece(pieces.count, 0), key(n);
  for (int i = n - 1; i >= 0; --i)
    if (pieces.label[i] >= 0) firstOfPiece[pieces.label[i]] = uint32_t(i);
  for (int i = 0; i < n; ++i) key[i] = pieces.label[i] >= 0 ? firstOfPiece[pieces.label[i]] : uint32_t(i);
  return key;
}

}  // namespace frac
