#include "engine/maxmin/rate_solver.hpp"

#include <string>

#include "core/error.hpp"

namespace interflow::maxmin {

std::string_view solver_kind_name(SolverKind kind) { return kind == SolverKind::groups ? "groups" : "variables"; }

SolverKind parse_solver_kind(std::string_view name) {
  if (name == "variables") return SolverKind::variables;
  if (name == "groups") return SolverKind::groups;
  throw InputError("--rate-solver: '" + std::string(name) + "' is not a solver; give variables or groups");
}

}  // namespace interflow::maxmin
