#pragma once
// Weighted max-min fair rates kept up to date as path variables come and go (the dynamic engine).
//
// The variables of the static engine's model (engine/maxmin.hpp) are activated and deactivated one
// event batch at a time; after each batch update() re-solves only the variables whose rates can change:
//   1. S starts with the new variables and every active variable on a link that a removed variable
//      crossed while that link was saturated (only those can gain from the departure).
//   2. S is solved by progressive filling on the residual capacities: capacity minus the rates of the
//      active variables outside S, which stay fixed.
//   3. Every link that froze variables of S (their bottleneck) and every link where some rate changed
//      and that is saturated before or after brings all its active variables into S; 2-3 repeat
//      until nothing is added.
// A variable outside S then keeps a valid bottleneck (its bottleneck link saw no change) and every
// variable in S has its bottleneck among S only, so the result is the max-min allocation of all
// active variables,
// the one a solve from scratch gives (tests compare them on random event sequences). When few links
// are saturated, S stays small; in a fully contended network it grows to the contended part.
// Storage: a flat list of (variable, link) incidences with per-link intrusive lists of the active
// ones, so activation and removal are O(path length) and nothing is allocated per event.
#include <cstdint>
#include <span>
#include <vector>

#include "engine/types.hpp"

namespace interflow {

struct IncrementalStats {
  std::uint64_t updates = 0;       // update() calls
  std::uint64_t solved_vars = 0;   // sum over updates of |S| at the end
  std::uint64_t rounds = 0;        // progressive-filling runs (an update may need several)
  std::uint64_t changed_vars = 0;  // variables whose rate changed
};

class IncrementalMaxMin {
 public:
  // capacity: per link (Gbit/s, 0 for a link that is down); var_offsets/links: each variable's links
  // (as in a PathTable); weight: per variable, > 0.
  IncrementalMaxMin(std::span<const double> capacity, std::span<const std::uint64_t> var_offsets,
                    std::span<const LinkId> links, std::span<const double> weight);

  void activate(std::uint32_t var);    // takes part from the next update()
  void deactivate(std::uint32_t var);  // rate 0 from now; its links are re-examined at the next update()
  // A new capacity for a link, taking effect at the next update() (the class policies of
  // engine/classed_maxmin.hpp hand each priority level what the levels above it left).
  void set_capacity(LinkId l, double capacity);
  // With tracking on, every link whose load changes (by update() or deactivate()) is listed in
  // load_changes() until clear_load_changes(); a link may appear more than once.
  void track_load_changes(bool on) { track_loads_ = on; }
  const std::vector<LinkId>& load_changes() const { return load_changes_; }
  void clear_load_changes() { load_changes_.clear(); }
  // Re-solves; afterwards changed() lists the active variables whose rate changed (each once).
  void update();
  // Re-solves every active variable from scratch (for tests and for comparison).
  void solve_all();

  double rate(std::uint32_t var) const { return rate_[var]; }
  double load(LinkId l) const { return load_[l]; }
  bool active(std::uint32_t var) const { return active_[var] != 0; }
  const std::vector<std::uint32_t>& changed() const { return changed_; }
  const IncrementalStats& stats() const { return stats_; }

 private:
  bool saturated(LinkId l, double load) const;
  void add_to_set(std::uint32_t var);
  void add_link_vars(LinkId l);
  void solve_set();  // progressive filling of set_ on residual capacities, into new_rate_

  std::vector<double> capacity_, initial_capacity_;
  std::span<const std::uint64_t> var_offsets_;
  std::span<const LinkId> links_;
  std::span<const double> weight_;

  std::vector<double> rate_, new_rate_, load_;
  std::vector<std::uint8_t> active_;
  std::vector<std::uint32_t> active_list_, list_position_;  // the active variables, in no order
  // Incidence e = var_offsets_[v] + i is (v, links_[e]); active ones are chained per link.
  std::vector<std::uint32_t> incidence_var_;
  std::vector<std::uint64_t> next_, prev_, head_;  // intrusive lists; kNoIncidence ends them

  // Work of one update.
  std::vector<std::uint32_t> pending_new_;       // activated since the last update
  std::vector<LinkId> pending_links_;            // links of variables removed since the last update
  std::vector<std::uint8_t> pending_saturated_;  // was that link saturated at removal
  std::vector<LinkId> pending_capacity_;         // links whose capacity changed where rates may follow
  bool track_loads_ = false;
  std::vector<LinkId> load_changes_;
  std::vector<std::uint32_t> set_, changed_;
  std::vector<std::uint32_t> in_set_;    // == stamp_: in S
  std::vector<std::uint32_t> new_mark_;  // == update_mark_: activated since the previous update
  std::uint32_t update_mark_ = 0;
  std::vector<std::uint32_t> link_stamp_, link_local_;  // == solve_stamp_: link_local_ is its local index
  std::uint32_t stamp_ = 0, solve_stamp_ = 0;           // one per update, one per solve_set
  // Local problem of solve_set().
  std::vector<LinkId> local_links_;
  std::vector<double> residual_, weight_sum_;
  std::vector<std::uint32_t> local_var_offsets_, local_vars_, cursor_, unfrozen_;
  std::vector<std::uint8_t> frozen_, bottleneck_;
  std::vector<std::pair<double, std::uint32_t>> heap_;

  IncrementalStats stats_;
};

}  // namespace interflow
