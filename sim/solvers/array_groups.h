#pragma once
// A solver's listed arrays by group (Solver::visitArrays), as the data export and the probes read them: each group
// with its size (its first array's count) and arrays in list order; which arrays hold values a file can carry.
#include <string>
#include <vector>

#include "solvers/solver.h"

namespace frac {

struct ArrayGroup {
  std::string name;
  size_t size = 0;
  std::vector<ArrayInfo> arrays;
};

std::vector<ArrayGroup> arrayGroups(const Solver& solver);

// Numbers a file or a probe can carry: not an opaque struct, not scratch or the CPU's own lists.
inline bool carriesValues(const ArrayInfo& a) {
  return a.scalar != ScalarType::Opaque && a.travel != Travel::Scratch && a.travel != Travel::HostOnly;
}

// The per-element arrays of the method carrying values: its "elements" group's arrays of one entry per element.
std::vector<ArrayInfo> elementArrays(const Solver& solver);

}  // namespace frac
