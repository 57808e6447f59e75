// Aggregates and the coarse matrix's block structure for the two-level preconditioner (rbdem_aggregates.h).
#include "solvers/rbdem/rbdem_aggregates.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <utility>

#include "solvers/rbdem/rbdem_coarse.h"

namespace frac::rbdem {

namespace {

bool joinsAggregate(const BdemArrays& a, int i) {
  const BdemElementArrays& e = a.elements;
  const bool solved = e.invMass[i] > 0.0f && !(e.flags[i] & (kFlagKinematic | kFlagProjectile | kFlagInactive));
  return solved && a.bonds.elementStart[i + 1] > a.bonds.elementStart[i];
}

using CellKey = std::array<long long, 4>;  // body, then the cell along the longest, middle and shortest extent

std::map<CellKey, std::vector<int>> cellsOf(const BdemArrays& a, const std::vector<int>& members, double size,
                                            const std::array<int, 3>& axisOrder, const vec3& low) {
  std::map<CellKey, std::vector<int>> cells;
  for (int i : members) {
    const vec3 p = a.elements.position[i] - low;
    CellKey key{a.elements.body[i], 0, 0, 0};
    for (int k = 0; k < 3; ++k) key[1 + k] = (long long)std::floor(double(p[axisOrder[k]]) / size);
    cells[key].push_back(i);  // members ascend: they are visited in index order
  }
  return cells;
}

}  // namespace

void clearAggregates(RbdemSolveArrays& s) {
  for (auto* list : {&s.aggregateOf, &s.aggregateStart, &s.aggregateMember, &s.coarseBlockRow, &s.coarseBlockColumn,
                     &s.coarseEntryStart, &s.coarseEntry, &s.coarseFirst})
    list->clear();
  s.coarseBond.clear();
  s.coarseOwn.clear();
  s.coarseTerms.clear();
  s.coarseMatrix.clear();
  s.coarseVector.clear();
}

void buildAggregates(BdemArrays& a) {
  RbdemSolveArrays& s = a.solve;
  clearAggregates(s);
  const int n = a.elements.size();
  std::vector<int> members;
  double diameters = 0.0;
  vec3 low(INFINITY), high(-INFINITY);
  for (int i = 0; i < n; ++i) {
    if (!joinsAggregate(a, i)) continue;
    members.push_back(i);
    diameters += 2.0 * double(a.elements.radius[i]);
    low = glm::min(low, a.elements.position[i]);
    high = glm::max(high, a.elements.position[i]);
  }
  s.aggregateOf.assign(size_t(n), -1);
  if (members.empty()) return;
  const vec3 extent = high - low;
  std::array<int, 3> axisOrder{0, 1, 2};
  std::stable_sort(axisOrder.begin(), axisOrder.end(), [&](int x, int y) { return extent[x] > extent[y]; });
  double size = 3.0 * diameters / double(members.size());
  std::map<CellKey, std::vector<int>> cells = cellsOf(a, members, size, axisOrder, low);
  while (cells.size() > size_t(kMaxAggregates)) {
    size *= 1.25;
    cells = cellsOf(a, members, size, axisOrder, low);
  }
  s.aggregateStart.push_back(0);
  for (const auto& [key, list] : cells) {  // the map's order: body, then along the longest extent
    for (int i : list) {
      s.aggregateOf[size_t(i)] = int(s.aggregateStart.size()) - 1;
      s.aggregateMember.push_back(i);
    }
    s.aggregateStart.push_back(int(s.aggregateMember.size()));
  }
  const int aggregates = int(s.aggregateStart.size()) - 1;
  std::map<std::pair<int, int>, std::vector<int>> blocks;  // (a, b), a >= b -> entries in bond order
  for (int g = 0; g < aggregates; ++g) blocks[{g, g}];
  for (int b = 0; b < a.bonds.size(); ++b) {
    const int ai = s.aggregateOf[size_t(a.bonds.first[b])], aj = s.aggregateOf[size_t(a.bonds.second[b])];
    if (ai >= 0) blocks[{ai, ai}].push_back(b << 2 | kCoarseFirst);
    if (aj >= 0) blocks[{aj, aj}].push_back(b << 2 | kCoarseSecond);
    if (ai < 0 || aj < 0) continue;
    if (ai == aj) {
      blocks[{ai, ai}].push_back(b << 2 | kCoarseCoupling);
      blocks[{ai, ai}].push_back(b << 2 | kCoarseCouplingTransposed);
    } else if (ai > aj) {
      blocks[{ai, aj}].push_back(b << 2 | kCoarseCoupling);
    } else {
      blocks[{aj, ai}].push_back(b << 2 | kCoarseCouplingTransposed);
    }
  }
  std::vector<int> firstBlock(size_t(aggregates), aggregates);
  s.coarseEntryStart.push_back(0);
  for (const auto& [pair, entries] : blocks) {
    s.coarseBlockRow.push_back(pair.first);
    s.coarseBlockColumn.push_back(pair.second);
    s.coarseEntry.insert(s.coarseEntry.end(), entries.begin(), entries.end());
    s.coarseEntryStart.push_back(int(s.coarseEntry.size()));
    firstBlock[size_t(pair.first)] = std::min(firstBlock[size_t(pair.first)], pair.second);
  }
  const size_t unknowns = size_t(kCoarseModes) * size_t(aggregates);
  for (size_t r = 0; r < unknowns; ++r) s.coarseFirst.push_back(kCoarseModes * firstBlock[r / kCoarseModes]);
  s.coarseBond.resize(size_t(a.bonds.size()));
  s.coarseOwn.resize(size_t(n));
  s.coarseTerms.resize(size_t(n));
  s.coarseMatrix.assign(unknowns * unknowns, 0.0);
  s.coarseVector.assign(unknowns, 0.0);
}

}  // namespace frac::rbdem
