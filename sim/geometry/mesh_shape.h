#pragma once
// Closed triangle mesh with an inside test by the generalised winding number (sum of triangle solid angles / 4 pi).
// A coarse voxel grid makes it fast: cells that no triangle touches are classified once per connected region, and
// only points in cells near the surface pay for the full sum.
#include <cstdint>
#include <limits>
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
  // The nearest point of any triangle and that triangle's outward normal (a search of the triangle buckets around the
  // point, ring by ring; every triangle for points outside the mesh's bounds): the first nearest in index order.
  SurfaceSample nearestSurface(const vec3& localPoint) const override;

  // Direct sum over all triangles: ~1 inside, ~0 outside a closed outward-oriented mesh.
  double windingNumber(const vec3& p) const;
  double signedVolume() const;  // > 0 for an outward-oriented mesh
  const TriangleMesh& mesh() const { return mesh_; }

 private:
  enum class Cell : uint8_t { Unknown, Outside, Inside, NearSurface };

  struct Nearest {
    int triangle = -1;
    float distance2 = std::numeric_limits<float>::infinity();
    vec3 point{0.0f};
  };
  void buildGrid();
  void buildBuckets();
  Nearest nearestInBuckets(const vec3& p) const;
  void consider(const vec3& p, uint32_t triangle, Nearest& nearest) const;
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
  vec3 bucketOrigin_{0.0f};
  float bucketSize_ = 1.0f;
  glm::ivec3 bucketDims_{1};
  std::vector<uint32_t> bucketStart_, bucketTriangle_;  // triangles per bucket (CSR), for nearestSurface
  float orientation_ = 1.0f;  // -1 for an inward-oriented mesh: face normals are flipped to point out
};

}  // namespace frac
