#pragma once
// Fracture surfaces (Lu et al. 2021 sec. 3.2) of every fragment of a frame, from the elements' cells
// (element_cell.h, cell_planes.h): the fragment's implicit function is the min of its elements' cell functions,
// polygonised with marching_tets.h. Each fragment gets its own grid over its elements' reach (two pieces that touch
// never share a cell); the cells evaluated are those at the anchors of its outer and crack faces (an element centre's
// projection onto such a face) and then, round by round, the cells across every face the surface crosses until it
// closes: the work grows with the surface, not with the volume.
#include <cstdint>
#include <vector>

#include "backend/exec.h"
#include "core/grid.h"
#include "surface/element_cell.h"
#include "surface/surface_mesh.h"

namespace frac {

// Every element's cell: centre, radius, fragment (dense index of its piece, -1: no surface, e.g. projectiles) and
// planes (CSR: planeStart[i] .. planeStart[i + 1], with their kinds, cell_planes.h CellPlaneKind).
struct CellField {
  int elements = 0;
  const vec3* centre = nullptr;
  const float* radius = nullptr;
  const int32_t* fragment = nullptr;
  const uint32_t* fragmentKey = nullptr;  // per dense fragment: its colour key (smallest element index)
  int fragments = 0;
  const int32_t* planeStart = nullptr;
  const CellPlane* plane = nullptr;
  const uint8_t* kind = nullptr;
};

// Extracts the surfaces; keeps its scratch between frames.
class FractureSurfaceExtractor {
 public:
  void extract(const CpuExec& exec, const CellField& field, const SurfaceSettings& settings, SurfaceMesh& out);

  // What the last extraction did (benchmarks, tests).
  struct Counts {
    long long gridCells = 0, activeCells = 0, evaluatedVertices = 0;
    int growRounds = 0;
  };
  const Counts& counts() const { return counts_; }

 private:
  // A fragment's grid: cells [lo, lo + dims) of the global lattice of spacing h, stored from cellBase (cells) and
  // vertexBase (vertices, dims + 1 per axis).
  struct FragmentGrid {
    float h = 1.0f;  // cell edge: SurfaceSettings::cellSize smallest radii, wider for debris (kDebrisCell)
    glm::ivec3 lo{0}, dims{0};
    int64_t cellBase = 0, vertexBase = 0;
  };
  void layOutGrids(const CellField& field, const SurfaceSettings& settings);
  void seedCells(const CpuExec& exec, const CellField& field);
  void evaluateCorners(const CpuExec& exec, const CellField& field, const std::vector<int64_t>& cells);
  std::vector<int64_t> cellsAcrossCrossedFaces(const CpuExec& exec, const std::vector<int64_t>& cells);
  void polygonise(const CpuExec& exec, const CellField& field, SurfaceMesh& out);
  // Global cell index -> (fragment, cell coordinates within its grid).
  int fragmentOfCell(int64_t cell) const;
  // Global vertex index -> fragment, and the vertex's coordinates within that fragment's grid.
  int fragmentOfVertex(int64_t vertex) const;
  static glm::ivec3 vertexCoordinates(const FragmentGrid& g, int64_t vertex);

  vec3 origin_{0.0f};
  std::vector<FragmentGrid> grids_;
  int64_t cellCount_ = 0, vertexCount_ = 0;
  UniformGrid elementGrid_;
  std::vector<uint8_t> notMember_;
  std::vector<uint8_t> cellState_;      // per cell: 0 off, 1 active, 2 found this round
  std::vector<int64_t> active_;         // active cells, in the order they were found
  std::vector<float> value_;            // per vertex: the fragment's function (NaN: not evaluated)
  std::vector<int32_t> owner_;          // per vertex: the element whose cell gives the value (-1: none near)
  std::vector<uint8_t> crack_;          // per vertex: 1 when that element's face there is a crack face
  std::vector<uint8_t> needed_;         // per vertex: scratch of evaluateCorners
  std::vector<uint8_t> edgeMask_;       // per vertex: the directions (bits 1..7) of its edges that carry a mesh vertex
  std::vector<int32_t> edgeBase_;       // per vertex: the mesh index of its first such edge
  Counts counts_;
};

}  // namespace frac
