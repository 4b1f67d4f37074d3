#pragma once
// The interface of the incremental max-min solvers the dynamic engine runs (through
// engine/maxmin/classed_maxmin.hpp): one over single variables (engine/maxmin/incremental_maxmin.hpp)
// and one over bottleneck groups (engine/maxmin/grouped_maxmin.hpp). Both keep the weighted max-min
// rates of the active variables as they come and go; the rates are the same up to rounding.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/types.hpp"

namespace interflow::maxmin {

struct IncrementalStats {
  std::uint64_t updates = 0;        // update() calls (and solve_all() calls)
  std::uint64_t solved_vars = 0;    // sum over updates of |S| at the end
  std::uint64_t rounds = 0;         // progressive-filling runs (an update may need several)
  std::uint64_t changed_vars = 0;   // variables whose rate changed
  std::uint64_t spread_solves = 0;  // update() calls solved whole, the weights lying too far apart
};

// Which solver (--rate-solver; manual/dynamic.md "Incremental re-solving"). `automatic` ("auto") starts
// over variables and lets the flow transport hand the run to groups while its batches show bottleneck
// groups, and back when they no longer do (engine/flow/group_switch.hpp); the solvers themselves know
// only the other two.
enum class SolverKind { variables, groups, automatic };
std::string_view solver_kind_name(SolverKind kind);
// Throws InputError naming the option for a name that is not "variables", "groups" or "auto".
SolverKind parse_solver_kind(std::string_view name);

class RateSolver {
 public:
  virtual ~RateSolver() = default;
  // Takes part from the next update(), with its links from the constructor's paths (held paths).
  virtual void activate(std::uint32_t var) = 0;
  // Takes part from the next update() with these links and weight (> 0) (links given at activation).
  virtual void activate(std::uint32_t var, std::span<const LinkId> links, double weight) = 0;
  virtual void deactivate(std::uint32_t var) = 0;  // rate 0 from now
  virtual void set_capacity(LinkId l, double capacity) = 0;  // from the next update()
  // With tracking on, every link whose load changes is listed in load_changes() until
  // clear_load_changes(); a link may appear more than once.
  virtual void track_load_changes(bool on) = 0;
  virtual const std::vector<LinkId>& load_changes() const = 0;
  virtual void clear_load_changes() = 0;
  virtual void update() = 0;     // afterwards changed() lists the active variables whose rate changed
  virtual void solve_all() = 0;  // every active variable from scratch
  virtual double rate(std::uint32_t var) const = 0;
  virtual std::span<const LinkId> links(std::uint32_t var) const = 0;
  virtual double load(LinkId l) const = 0;
  virtual bool active(std::uint32_t var) const = 0;
  virtual const std::vector<std::uint32_t>& changed() const = 0;
  virtual const IncrementalStats& stats() const = 0;
  // Incidences (a variable's link) the solver stores: with held paths all of them, otherwise those in
  // its arena (the active ones and garbage not yet compacted).
  virtual std::size_t incidence_storage() const = 0;
};

}  // namespace interflow::maxmin
