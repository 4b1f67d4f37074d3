#pragma once
// Incremental max-min rates under a class policy (engine/maxmin/class_policy.hpp).
//
// One incremental solver (engine/maxmin/rate_solver.hpp: over variables or over bottleneck groups, as
// chosen) per priority level, solved in order: level k sees on every link the capacity
// the levels before it left, and each capped class also crosses a virtual link of capacity
// cap x capacity (one block of virtual links per capped class). When any cap is below 1, a last solver
// shares what all levels left among every active variable (the increments of step 2). After an update
// the links whose load changed at a level pass their new residual capacity to the levels below it, so
// each level re-solves only where the levels above it changed something. With the plain policy this is
// exactly one solver. With paths given to the constructor, each level's solver holds only its own
// classes' paths (with their virtual links) and the leftover one the paths as given.
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "engine/maxmin/class_policy.hpp"
#include "engine/maxmin/rate_solver.hpp"
#include "core/types.hpp"

namespace interflow::maxmin {

class GroupedMaxMin;

class ClassedMaxMin {
 public:
  // var_class: the service class of each variable (may be empty under a policy without classes).
  ClassedMaxMin(const ClassPolicy& policy, std::span<const double> capacity, std::span<const std::uint64_t> var_offsets,
                std::span<const LinkId> links, std::span<const double> weight,
                std::span<const std::uint32_t> var_class, SolverKind kind = SolverKind::variables);
  // Variables given at activation (activate(var, links, weight, cls)): the level solvers keep the
  // active variables only (the solvers' second constructor).
  ClassedMaxMin(const ClassPolicy& policy, std::span<const double> capacity, SolverKind kind = SolverKind::variables);
  ~ClassedMaxMin();

  void activate(std::uint32_t var);  // with the constructor's paths
  // With these links, weight (> 0) and class; var is any number not active now. Throws InputError for a
  // class the policy lacks.
  void activate(std::uint32_t var, std::span<const LinkId> links, double weight, std::uint32_t cls);
  void deactivate(std::uint32_t var);
  // A new capacity for link l (a physical link of the constructor's span), from the next update().
  void set_capacity(LinkId l, double capacity);
  void update();     // afterwards changed() lists the variables whose rate changed
  void solve_all();  // every active variable from scratch
  // Links given at activation: var's class, and so its level (level_of), before it is activated, so
  // that the clocks following it can be marked first (GroupedMaxMin::set_followed). Throws InputError
  // for a class the policy lacks. activate() assigns it too.
  void assign_class(std::uint32_t var, std::uint32_t cls);
  // Hands the run to the solvers of kind `to` (--rate-solver auto; manual/dynamic.md "Switching to
  // groups"): over groups when its batches show an incast, back over single variables when they no
  // longer do. New level solvers (and leftover) of that kind replace the old ones and take the same
  // active variables, solved from scratch: the same max-min rates up to rounding, as any two exact
  // solves. `follow` runs once the new solvers exist and before the variables enter them (over
  // groups, a variable's clock is marked before it is activated: GroupedMaxMin::set_followed). The
  // statistics carry on; changed() then lists the variables no clock follows (over variables, every
  // active one). With links given at activation, the variables keep their links and take `weight`
  // and `var_class` (by variable number, as given to activate(); var_class may be empty under a
  // policy without classes). Nothing happens when the solvers are of that kind already.
  void regroup(SolverKind to, const std::function<void()>& follow, std::span<const double> weight = {},
               std::span<const std::uint32_t> var_class = {});
  SolverKind kind() const { return kind_; }

  double rate(std::uint32_t var) const;
  // The physical links of an active variable (with the constructor's paths, of any variable).
  std::span<const LinkId> links(std::uint32_t var) const;
  bool active(std::uint32_t var) const {
    return (var_level_.empty() || var < var_level_.size()) && level_solver(var).active(var);
  }
  const std::vector<std::uint32_t>& changed() const { return plain_ ? levels_[0]->changed() : changed_; }
  IncrementalStats stats() const;
  std::size_t incidence_storage() const;  // summed over the level solvers and the leftover one
  // Over bottleneck groups, a variable's rate is its level solver's group level × its weight, plus,
  // with a cap below 1, the leftover solver's group level × its weight; the flow transport follows
  // the groups' levels (engine/flow/group_clocks.hpp, mixed_clocks.hpp): how many level solvers there
  // are then (0 otherwise), level k's, the leftover's (nullptr: none or not grouped), and the level
  // solver of a variable.
  std::size_t grouped_levels() const;
  GroupedMaxMin* grouped(std::size_t k) const;
  GroupedMaxMin* grouped_leftover() const;
  std::uint32_t level_of(std::uint32_t var) const { return var_level_.empty() ? 0 : var_level_[var]; }

 private:
  RateSolver& level_solver(std::uint32_t var) const {
    return *levels_[var_level_.empty() ? 0 : var_level_[var]];
  }
  void collect(RateSolver& solver, bool propagate);  // its changed variables and load changes
  // The level solvers (and the leftover one) over `capacity` with the capped classes' virtual links;
  // held_: level k over level_offsets_[k] and level_links_[k], the leftover one over the given paths.
  void make_levels(const ClassPolicy& policy, std::span<const double> capacity);
  // Each level's paths (held_, not plain_, var_level_ set): its own variables' links with their capped
  // class's virtual links appended, the other variables' paths empty, so that no level solver holds
  // another level's paths (every level holding every path multiplied the paths' memory by the levels).
  // (One level without a cap is the plain policy: one solver over the given paths.)
  void hold_level_paths(std::size_t levels, std::span<const std::uint32_t> var_class);
  double left_after(LinkId l, std::size_t levels) const;    // capacity minus the load of the first levels

  bool plain_ = false;
  bool held_ = false;  // the first constructor: paths given
  SolverKind kind_ = SolverKind::variables;
  // Held: the constructor's paths and weights (for links() and regroup), and the statistics of solvers
  // replaced.
  std::span<const std::uint64_t> held_offsets_;
  std::span<const LinkId> held_links_;
  std::span<const double> held_weight_;
  IncrementalStats retired_;
  std::vector<double> capacity_;  // physical links
  std::vector<std::uint32_t> var_level_;
  std::vector<double> aug_capacity_;  // physical links, then one block of virtual links per capped class
  // Held: the paths of each level's solver (hold_level_paths).
  std::vector<std::vector<std::uint64_t>> level_offsets_;
  std::vector<std::vector<LinkId>> level_links_;
  std::vector<double> slot_cap_;  // per capped class (in slot order): its cap, a fraction of each link
  // The policy (its classes checked), and per class its level and its block of virtual links (kNone:
  // uncapped).
  ClassPolicy policy_;
  std::vector<std::uint32_t> class_level_, capped_slot_;
  std::vector<LinkId> scratch_links_;  // a variable's links with its virtual ones, at activation
  std::vector<std::unique_ptr<RateSolver>> levels_;
  std::unique_ptr<RateSolver> leftover_;  // step 2, when some cap is below 1

  std::vector<std::uint32_t> changed_, var_stamp_, link_stamp_;
  std::vector<LinkId> dirty_;
  std::vector<LinkId> pending_capacity_;  // set_capacity since the last update (not plain)
  std::uint32_t stamp_ = 0;
};

// The same policy solved from scratch with the static solver (engine/maxmin/maxmin.hpp), level by level, for
// the active variables only (rate 0 for the others). Used to check ClassedMaxMin.
std::vector<double> solve_classes_from_scratch(const ClassPolicy& policy, std::span<const double> capacity,
                                               std::span<const std::uint64_t> var_offsets,
                                               std::span<const LinkId> links, std::span<const double> weight,
                                               std::span<const std::uint32_t> var_class,
                                               std::span<const std::uint8_t> active);

}  // namespace interflow::maxmin
