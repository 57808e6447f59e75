#pragma once
// What one frame's data files hold (--export): the elements as points carrying the frame's fields (radius, speed,
// damage, fragment, stress_ratio, material, kind, and orientation where the method has one) and every numeric array
// of the method's "elements" group by its list name (velocity, displacement, ...); and each group of the method's
// arrays that joins elements as cells, with that group's numeric arrays as cell data: `corners` (four Int32:
// tetrahedra) always, `first` / `second` (bonds: lines) when asked. The writers ask the solver for its arrays by name
// (Solver::visitArrays), so a new method's arrays reach the files by being listed.
#include <string>
#include <utility>
#include <vector>

#include "core/render_frame.h"
#include "io/vtu_file.h"
#include "solvers/solver.h"

namespace frac {

struct FrameData {
  VtuGrid elements;                                         // vertex cells
  std::vector<std::pair<std::string, VtuGrid>> cellGroups;  // by group name: "tets", "bonds"
};

// `frame`: the solver's writeFrame of this moment.
FrameData frameData(const Solver& solver, const RenderFrame& frame, bool withBonds);

// The elements as a binary PLY point cloud (Blender, ParaView): x, y, z and every point array, a property per
// component (name_x/_y/_z/_w for 3 and 4 components, name_0.. otherwise; Int64 arrays as double). Kill-safe.
void writeElementPly(const VtuGrid& elements, const std::string& path);
// Reads writeElementPly's files: points, and each property as a one-component point array.
VtuGrid readElementPly(const std::string& path);

}  // namespace frac
