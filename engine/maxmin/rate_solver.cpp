#include "engine/maxmin/rate_solver.hpp"

#include <string>

#include "core/error.hpp"

namespace interflow::maxmin {

std::string_view solver_kind_name(SolverKind kind) {
  switch (kind) {
    case SolverKind::groups:
      return "groups";
    case SolverKind::automatic:
      return "auto";
    case SolverKind::variables:
      break;
  }
  return "variables";
}

SolverKind parse_solver_kind(std::string_view name) {
  if (name == "variables") return SolverKind::variables;
  if (name == "groups") return SolverKind::groups;
  if (name == "auto") return SolverKind::automatic;
  throw InputError("--rate-solver: '" + std::string(name) + "' is not a solver; give variables, groups or auto");
}

}  // namespace interflow::maxmin
