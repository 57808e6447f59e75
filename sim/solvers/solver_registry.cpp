#include <functional>
#include <stdexcept>
#include <utility>

#include "solvers/bdem/bdem_solver.h"
#include "solvers/fem/fem_solver.h"
#include "solvers/peridynamics/pd_solver.h"
#include "solvers/rbdem/rbdem_solver.h"
#include "solvers/solver.h"

namespace frac {
namespace {

const std::vector<std::pair<std::string, std::function<std::unique_ptr<Solver>()>>>& registry() {
  static const std::vector<std::pair<std::string, std::function<std::unique_ptr<Solver>()>>> methods = {
      {"bdem", [] { return std::make_unique<BdemSolver>(); }},
      {"rbdem", [] { return std::make_unique<RbdemSolver>(); }},
      {"pd-bond", [] { return std::make_unique<PeridynamicsSolver>(PdModel::Bond); }},
      {"pd-state", [] { return std::make_unique<PeridynamicsSolver>(PdModel::State); }},
      {"fem-debris", [] { return std::make_unique<FemSolver>(); }},
  };
  return methods;
}

}  // namespace

std::unique_ptr<Solver> makeSolver(const std::string& method) {
  for (const auto& [name, make] : registry())
    if (name == method) return make();
  throw std::invalid_argument("unknown solver method '" + method + "'");
}

std::vector<std::string> solverMethods() {
  std::vector<std::string> names;
  for (const auto& entry : registry()) names.push_back(entry.first);
  return names;
}

}  // namespace frac
