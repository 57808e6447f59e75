#pragma once
// Closed triangle mesh with an inside test by the generalised winding number (sum of triangle solid angles / 4 pi).
// A coarse voxel grid makes it fast: cells that no triangle touches are classified once per connected region, and
// only points in cells near the surface pay for the full sum.
#include <cstdint>
#include <vector>

#include "geometry/obj_mesh.h"
#include "geometry/shapes.h"

namespace frac {

class MeshShape final : public Shape {
 public:
  explicit MeshShape(TriangleMesh mesh);

  // |winding number| > 0.5, so an inward-oriented mesh works too.
  bool inside(const vec3& localPoint) const override;
  Aabb bounds() const override { return bounds_; }
  // The nearest point of any triangle (a direct search) and that triangle's outward normal.
  SurfaceSample nearestSurface(const vec3& localPoint) const override;

  // Direct sum over all triangles: ~1 inside, ~0 outside a closed outward-oriented mesh.
  double windingNumber(const vec3& p) const;
  double signedVolume() const;  // > 0 for an outward-oriented mesh
  const TriangleMesh& mesh() const { return mesh_; }

 private:
  enum class Cell : uint8_t { Unknown, Outside, Inside, NearSurface };

  void buildGrid();
  void markCellsNearTriangles();
  void classifyFreeRegions();
  glm::ivec3 cellOf(const vec3& p) const {  // clamped to the grid
    return glm::clamp(glm::ivec3(glm::floor((p - gridOrigin_) / cellSize_)), glm::ivec3(0), dims_ - 1);
  }
  size_t cellIndex(const glm::ivec3& c) const { return (size_t(c.z) * dims_.y + c.y) * dims_.x + c.x; }
  vec3 cellCentre(const glm::ivec3& c) const { return gridOrigin_ + (vec3(c) + 0.5f) * cellSize_; }

  TriangleMesh mesh_;
  Aabb bounds_;
  vec3 gridOrigin_{0.0f};
  float cellSize_ = 1.0f;
  glm::ivec3 dims_{0};
  std::vector<Cell> cells_;
  float orientation_ = 1.0f;  // -1 for an inward-oriented mesh: face normals are flipped to point out
};

}  // namespace frac
