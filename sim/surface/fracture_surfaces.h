#pragma once
// Fracture surfaces (Lu et al. 2021 sec. 3.2) of every fragment of a frame, from the elements' cells
// (element_cell.h, cell_planes.h): the fragment's implicit function is the min of its elements' cell functions,
// polygonised with marching_tets.h. Each fragment gets its own grid over its elements' reach (two pieces that touch
// never share a cell); the cells evaluated are those at the anchors of its outer and crack faces (an element centre's
// projection onto such a face) and then, round by round, the cells across every face the surface crosses until it
// closes: the work grows with the surface, not with the volume.
// One implementation for every exec policy: FractureSurfaceExtractor<CpuExec> runs on the CPU's threads and
// FractureSurfaceExtractor<CudaExec> (with backend/cuda/exec_memory_cuda.cuh) on a CUDA device, the same passes
// (surface_stages.h, surface_polygonise.h) giving the same bits; the mesh is then collected into host vectors.
#include <cmath>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "backend/exec_memory.h"
#include "backend/pass_times.h"
#include "surface/fragment_grids.h"
#include "surface/surface_mesh.h"
#include "surface/surface_polygonise.h"
#include "surface/surface_stages.h"

namespace frac {

// What an extraction did (benchmarks, tests).
struct SurfaceCounts {
  long long gridCells = 0, activeCells = 0, evaluatedVertices = 0;
  int growRounds = 0;
};

// Extracts the surfaces; keeps its scratch between frames. `field` points into the exec policy's memory.
template <class Exec>
class FractureSurfaceExtractor {
 public:
  void extract(const Exec& exec, const CellField& field, const SurfaceSettings& settings, SurfaceMesh& out) {
    out.clear();
    counts_ = SurfaceCounts{};
    if (field.elements == 0 || field.fragments == 0) return;
    // A frame whose grids would need more than 2^31 cells is sampled coarser (cells twice as wide each time).
    const auto begin = std::chrono::steady_clock::now();
    passTimes_.start(exec);
    float cellSize = settings.cellSize;
    while (!layOut(exec, field, cellSize)) cellSize *= 2.0f;
    if (cells_ == 0) return;
    const auto laidOut = std::chrono::steady_clock::now();
    grow(exec);
    const auto grown = std::chrono::steady_clock::now();
    polygonise(exec, out);
    if (passTimes_.print("fracture surfaces"))
      std::fprintf(stderr, "  grid cells %lld, grid vertices %d, active cells %lld, evaluated vertices %lld, rounds %d\n",
                   counts_.gridCells, vertices_, counts_.activeCells, counts_.evaluatedVertices, counts_.growRounds);
    out.layOutMs = milliseconds(begin, laidOut);
    out.growMs = milliseconds(laidOut, grown);
  }
  const SurfaceCounts& counts() const { return counts_; }

 private:
  template <class T>
  using Buffer = ExecBuffer<Exec, T>;
  static double milliseconds(std::chrono::steady_clock::time_point from, std::chrono::steady_clock::time_point to) {
    return std::chrono::duration<double, std::milli>(to - from).count();
  }

  // The grids, the element grid and the per-cell and per-vertex arrays (frame_); false when the grids would be too
  // large at this cell size.
  bool layOut(const Exec& exec, const CellField& field, float cellSize) {
    namespace st = surface_stages;
    const int fragments = field.fragments;
    int32_t* bounds = bounds_.ensure(st::kBoundsWords);
    int32_t* members = members_.ensure(size_t(fragments));
    uint8_t* notMember = notMember_.ensure(size_t(field.elements));
    st::elementBounds(exec, field, bounds, members, notMember);
    int32_t words[st::kBoundsWords];
    readValues(exec, words, bounds, st::kBoundsWords);
    passTimes_.mark(exec, "bounds");
    auto word = [&](int k) { return floatFromOrderedBits(words[k]); };
    auto vector = [&](int k) { return vec3(word(k), word(k + 1), word(k + 2)); };
    cells_ = vertices_ = 0;
    if (!(word(st::kMinRadius) < 1.0e38f)) return true;  // no member element
    const float h = cellSize * word(st::kMinRadius);
    const vec3 origin = vector(st::kReachLo) - vec3(4.0f * h);
    int32_t* lo = boxLo_.ensure(3 * size_t(fragments));
    int32_t* hi = boxHi_.ensure(3 * size_t(fragments));
    st::fragmentBoxes(exec, field, members, h, origin, lo, hi);
    FragmentGrid* grids = grids_.ensure(size_t(fragments));
    int64_t* cells = cellCount_.ensure(size_t(fragments) + 1);
    int64_t* vertices = vertexCount_.ensure(size_t(fragments) + 1);
    st::fragmentSizes(exec, fragments, members, h, lo, hi, grids, cells, vertices);
    int64_t* cellBase = cellBase_.ensure(size_t(fragments) + 1);
    int64_t* vertexBase = vertexBase_.ensure(size_t(fragments) + 1);
    const int64_t cellTotal = scanWithTotal(exec, cells, cellBase, fragments);
    const int64_t vertexTotal = scanWithTotal(exec, vertices, vertexBase, fragments);
    if (vertexTotal >= (int64_t(1) << 31) - 1) return false;
    st::setBases(exec, fragments, cellBase, vertexBase, grids);
    cells_ = int(cellTotal);
    vertices_ = int(vertexTotal);
    passTimes_.mark(exec, "fragment grids");
    // The elements by position, for the evaluation: cells half as wide as a cell function's reach (the search box
    // p +- reach then spans 4-5 cells per axis: 103k elements evaluated in 0.6x the time of 27 reach-wide cells).
    const float reach = kCellBallRadius * word(st::kMaxRadius);
    const GridWindow window = gridWindow(vector(st::kCentreLo), vector(st::kCentreHi), 0.5f * reach,
                                         std::max<int64_t>(int64_t(8) * field.elements, 1 << 16));
    st::Frame& s = frame_;
    s.field = field;
    s.reach = reach;
    s.elements = elementGrid_.build(exec, window, field.centre, field.radius, notMember, 1, field.elements);
    passTimes_.mark(exec, "element grid");
    s.grids = grids;
    s.fragments = fragments;
    s.origin = origin;
    s.cellState = cellState_.ensure(size_t(cells_));
    s.value = value_.ensure(size_t(vertices_));
    s.owner = owner_.ensure(size_t(vertices_));
    s.crack = crack_.ensure(size_t(vertices_));
    fillValues(exec, s.cellState, cells_, int32_t(0));
    fillValues(exec, s.owner, vertices_, surface_stages::kUnclaimed);
    passTimes_.mark(exec, "clear grids");
    counts_.gridCells = cells_;
    return true;
  }

  // Seeds, then rounds of evaluating the new cells' corners and activating the cells across crossed faces.
  void grow(const Exec& exec) {
    namespace st = surface_stages;
    int32_t* fresh = listA_.ensure(size_t(cells_));
    int32_t* next = listB_.ensure(size_t(cells_));
    int32_t* vertices = vertexList_.ensure(size_t(vertices_));
    int32_t* counter = counter_.ensure(1);
    int freshCount = appended(exec, counter, [&] { st::seedCells(exec, frame_, fresh, counter); });
    passTimes_.mark(exec, "seed");
    int32_t* flag = flag_.ensure(size_t(vertices_) + 1);
    int32_t* position = scanned_.ensure(size_t(vertices_) + 1);
    while (freshCount > 0) {
      const int claimed = appended(exec, counter, [&] {
        st::claimCorners(exec, frame_, fresh, freshCount, vertices, counter);
      });
      passTimes_.mark(exec, "claim corners");
      if (claimed > vertices_ / 16) {  // (the first round, most of the vertices): list them again in vertex order,
        // which evaluates neighbours one after the other (103k block: 61 ms instead of 80); later rounds are small
        st::flagClaimed(exec, frame_, vertices_, flag);
        scanWithTotal(exec, flag, position, vertices_);
        st::listFlagged(exec, flag, position, vertices_, vertices);
        passTimes_.mark(exec, "list claimed");
      }
      st::evaluateVertices(exec, frame_, vertices, claimed);
      passTimes_.mark(exec, "evaluate");
      counts_.evaluatedVertices += claimed;
      freshCount = appended(exec, counter, [&] {
        st::growAcrossCrossedFaces(exec, frame_, fresh, freshCount, next, counter);
      });
      passTimes_.mark(exec, "grow across faces");
      std::swap(fresh, next);
      if (freshCount > 0) ++counts_.growRounds;
    }
  }

  // Runs pass (which appends through counter) and returns how many it appended.
  template <class Pass>
  static int appended(const Exec& exec, int32_t* counter, const Pass& pass) {
    const int32_t zero = 0;
    writeValues(exec, counter, &zero, 1);
    pass();
    int32_t count = 0;
    readValues(exec, &count, counter, 1);
    return count;
  }

  void polygonise(const Exec& exec, SurfaceMesh& out) {
    namespace st = surface_stages;
    const auto begin = std::chrono::steady_clock::now();
    const st::Frame& s = frame_;
    const size_t most = size_t(std::max(cells_, vertices_)) + 1;
    int32_t* flag = flag_.ensure(most);
    int32_t* activeIndex = activeIndex_.ensure(size_t(cells_) + 1);  // per cell: its place in the active list
    st::flagActive(exec, s.cellState, cells_, flag);
    const int active = scanWithTotal(exec, flag, activeIndex, cells_);
    int32_t* list = listA_.ensure(size_t(cells_));
    st::listActive(exec, s.cellState, activeIndex, cells_, list);
    counts_.activeCells = active;
    passTimes_.mark(exec, "active cells");
    int32_t* triangleCount = listB_.ensure(size_t(cells_));
    st::countTriangles(exec, s, list, active, triangleCount);
    int32_t* triangleStart = triangleStart_.ensure(size_t(active) + 1);
    const int triangles = scanWithTotal(exec, triangleCount, triangleStart, active);
    passTimes_.mark(exec, "count triangles");
    int32_t* edgeMask = edgeMask_.ensure(size_t(vertices_));
    st::markEdges(exec, s, vertices_, edgeMask, flag);
    int32_t* edgeBase = scanned_.ensure(size_t(vertices_) + 1);
    const int meshVertices = scanWithTotal(exec, flag, edgeBase, vertices_);
    passTimes_.mark(exec, "edges");
    st::MeshViews mesh;
    mesh.positions = outputArray(exec, out.positions, positions_, size_t(meshVertices));
    mesh.normals = outputArray(exec, out.normals, normals_, size_t(meshVertices));
    mesh.fragment = outputArray(exec, out.fragment, fragment_, size_t(meshVertices));
    mesh.element = outputArray(exec, out.element, element_, size_t(meshVertices));
    mesh.crack = outputArray(exec, out.crack, crackOut_, size_t(meshVertices));
    int32_t* piece = piece_.ensure(size_t(s.fragments));
    fillValues(exec, piece, s.fragments, int32_t(0));
    st::writeVertices(exec, s, vertices_, edgeMask, edgeBase, mesh, piece);
    passTimes_.mark(exec, "vertices");
    uint32_t* indices = outputArray(exec, out.indices, indices_, 3 * size_t(triangles));
    vec3* cellNormal = cellNormal_.ensure(size_t(active) * st::kCellEdges + 1);
    int32_t* cellEdges = listB_.ensure(size_t(cells_));  // (the triangle counts are scanned: free again)
    st::writeIndices(exec, s, list, active, triangleStart, edgeMask, edgeBase, mesh.positions, indices, cellNormal,
                     cellEdges);
    passTimes_.mark(exec, "indices");
    st::writeNormals(exec, s, vertices_, edgeMask, edgeBase, activeIndex, cellNormal, cellEdges, mesh.normals);
    passTimes_.mark(exec, "normals");
    out.pieces = scanWithTotal(exec, piece, flag, s.fragments);  // (flag holds more than one entry per fragment)
    passTimes_.mark(exec, "pieces");
    const auto built = std::chrono::steady_clock::now();  // (the scan's total was read back: the device is idle)
    collectOutput(exec, out.indices, indices, 3 * size_t(triangles));
    collectOutput(exec, out.positions, mesh.positions, size_t(meshVertices));
    collectOutput(exec, out.normals, mesh.normals, size_t(meshVertices));
    collectOutput(exec, out.fragment, mesh.fragment, size_t(meshVertices));
    collectOutput(exec, out.element, mesh.element, size_t(meshVertices));
    collectOutput(exec, out.crack, mesh.crack, size_t(meshVertices));
    passTimes_.mark(exec, "copy to host");
    out.polygoniseMs = milliseconds(begin, built);
    out.collectMs = milliseconds(built, std::chrono::steady_clock::now());
  }

  SurfaceCounts counts_;
  PassTimes passTimes_;
  int cells_ = 0, vertices_ = 0;
  surface_stages::Frame frame_;
  typename ExecMemory<Exec>::ElementGrid elementGrid_;
  Buffer<int32_t> bounds_, members_, boxLo_, boxHi_, counter_;
  Buffer<uint8_t> notMember_, crack_;
  Buffer<FragmentGrid> grids_;
  Buffer<int64_t> cellCount_, vertexCount_, cellBase_, vertexBase_;
  Buffer<vec3> cellNormal_;
  Buffer<int32_t> cellState_, owner_, listA_, listB_, vertexList_, flag_, activeIndex_, edgeMask_;
  Buffer<int32_t> scanned_;  // per vertex + 1: the claimed vertices' places (growing), then the edge bases (the mesh)
  Buffer<int32_t> triangleStart_, piece_;
  Buffer<float> value_;
  // The mesh (on the CPU the output vectors themselves; these stay empty).
  Buffer<uint32_t> indices_, fragment_;
  Buffer<vec3> positions_, normals_;
  Buffer<int32_t> element_;
  Buffer<float> crackOut_;
};

}  // namespace frac
