#include "solvers/array_groups.h"

namespace frac {

std::vector<ArrayGroup> arrayGroups(const Solver& solver) {
  std::vector<ArrayGroup> groups;
  solver.visitArrays([&](const ArrayInfo& info) {
    if (groups.empty() || groups.back().name != info.group) groups.push_back({info.group, info.count, {}});
    groups.back().arrays.push_back(info);
  });
  return groups;
}

std::vector<ArrayInfo> elementArrays(const Solver& solver) {
  std::vector<ArrayInfo> out;
  for (const ArrayGroup& g : arrayGroups(solver))
    if (g.name == "elements")
      for (const ArrayInfo& a : g.arrays)
        if (carriesValues(a) && a.count == g.size) out.push_back(a);
  return out;
}

}  // namespace frac
