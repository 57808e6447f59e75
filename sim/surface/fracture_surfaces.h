#pragma once
// Fracture surfaces (Lu et al. 2021 sec. 3.2) of every fragment of a frame, from the elements' cells
// (element_cell.h, cell_planes.h): the fragment's implicit function is the min of its elements' cell functions,
// polygonised with marching_tets.h only in the grid cells near the fragment's fracture points and outer-surface
// samples (cost grows with the surface, not the box), grown cell by cell until the surface closes.
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
    long long activeCells = 0, evaluatedVertices = 0;
    int growRounds = 0;
  };
  const Counts& counts() const { return counts_; }

 private:
  struct Grid {
    vec3 origin{0.0f};
    float h = 1.0f;
    int64_t nx = 1, ny = 1, nz = 1;  // cells
  };
  struct VertexValue {
    float value;
    int32_t owner;  // the element whose cell gives the value (-1: none near)
    uint8_t crack;
  };
  void seedCells(const CpuExec& exec, const CellField& field);
  void evaluateNewVertices(const CpuExec& exec, const CellField& field);
  bool growClosure(const CpuExec& exec);
  void polygonise(const CpuExec& exec, const CellField& field, SurfaceMesh& out);
  const VertexValue& vertexAt(uint64_t key) const;

  Grid grid_;
  UniformGrid elementGrid_;
  std::vector<uint8_t> notMember_;
  std::vector<uint64_t> cells_;        // active (fragment, cell) keys, sorted
  std::vector<uint64_t> vertexKeys_;   // evaluated (fragment, vertex) keys, sorted
  std::vector<VertexValue> vertexValues_;
  Counts counts_;
};

}  // namespace frac
