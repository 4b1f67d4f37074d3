#pragma once
// Weighted max-min fair rates kept up to date as path variables come and go (the dynamic engine).
//
// The variables of the static engine's model (engine/maxmin/maxmin.hpp) are activated and deactivated one
// event batch at a time; after each batch update() re-solves only a set S of variables, those whose
// rates can change. A variable's level is rate / weight; a saturated link is the bottleneck of the
// variables at its top level (the highest level on it).
//   0. The floor: progressive filling below a level λ runs the same way before and after the batch
//      when no event touches it. A departing variable of level r only mattered above r; a newcomer gets
//      at least min over its links of C / W (W the weights there, newcomer included; fair shares only
//      grow during filling); a capacity change at least min(C_old, C_new) / W. Variables below the
//      smallest of these keep their rates, so they are never taken into S by steps 1 and 4.
//   1. S starts with the newcomers, the variables at the top level of every saturated link that a
//      departing variable crossed (only they had it as bottleneck), of every link whose capacity
//      rose, and every variable (above the floor) of a link whose capacity was cut.
//   2. S is closed over the saturated links of its variables: their top-level variables join (a change
//      spreads through them; taking them at once saves solve-and-expand rounds), up to 16 × |S| + 256
//      variables at first (unless the run has shown that bound useless: learn_closure_bound),
//      and in later rounds without bound (when taken: step 4). When S holds over half the active
//      variables, all above the floor join. (Taking variables in only adds work: a
//      variable of S whose rate does not change is solved to the rate it has.)
//   3. S is solved by progressive filling on the residual capacities: capacity minus the rates of the
//      active variables outside S, which stay fixed. The filling ends when every variable of S is
//      frozen (the links still queued can freeze nothing). The queue's keys are lower bounds of
//      the links' shares (shares only grow); its refills re-key the links they move and drop those
//      with every variable frozen (RadixHeap::pop_reviewed), and each pop is checked again.
//   4. A link that froze variables of S at level λ takes in every variable on it above λ (none
//      outside S may be above them there; one at λ, a tie, is at the top with them, and the link is a
//      valid bottleneck for both); a saturated link where a rate of S changed takes in its
//      top-level variables (it is no longer a valid bottleneck for them). The variables taken in are
//      closed as in 2 (unbounded; unless the run has shown these closures to be mostly speculation:
//      rules::LaterClosures), and 3-4 repeat until S stops growing.
// Every variable outside S then keeps a valid bottleneck (a link where nothing changed, at whose top
// it still is) and every variable of S has its bottleneck among S's links with nothing outside above
// it, so the result is the max-min allocation of all active variables, the one a solve from scratch
// gives (tests compare them on random event sequences, with ties and capacity changes). When few links
// are saturated S stays small; in a contended network it follows the changed part of the bottleneck
// order rather than every variable behind a saturated link.
// Storage: per link a contiguous block of its active incidences (variable, link), so activation and
// removal are O(path length) and nothing is allocated per event. Two ways to give the variables:
//   - held paths (the first constructor): every variable of the run has its links from the start,
//     and every incidence its slot in its link's block (CSR), as a run that routes every flow first;
//   - links at activation (the second): the solver keeps the links of its active variables only, in
//     an arena, and the blocks grow as needed, so memory follows the active variables, and a number
//     can carry another variable once inactive: a run whose flows come and go (open-loop arrivals)
//     needs numbers only for the flows in flight.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "core/radix_heap.hpp"
#include "core/types.hpp"
#include "engine/maxmin/incremental_rules.hpp"
#include "engine/maxmin/rate_solver.hpp"

namespace interflow::maxmin {

class IncrementalMaxMin final : public RateSolver {
 public:
  // capacity: per link (Gbit/s, 0 for a link that is down); var_offsets/links: each variable's links
  // (as in a PathTable); weight: per variable, > 0. The spans are read by activate(var) and must
  // outlive the solver.
  IncrementalMaxMin(std::span<const double> capacity, std::span<const std::uint64_t> var_offsets,
                    std::span<const LinkId> links, std::span<const double> weight);
  // Variables given at activation only (activate(var, links, weight)).
  explicit IncrementalMaxMin(std::span<const double> capacity);

  void activate(std::uint32_t var) override;  // takes part from the next update(), with its links from the constructor's paths
  // Takes part from the next update() with these links and weight (> 0); var is any number not active
  // now (the solver grows to hold it), and may have had other links before.
  void activate(std::uint32_t var, std::span<const LinkId> links, double weight) override;
  void deactivate(std::uint32_t var) override;  // rate 0 from now; its links are re-examined at the next update()
  // A new capacity for a link, taking effect at the next update() (the class policies of
  // engine/classed_maxmin.hpp hand each priority level what the levels above it left).
  void set_capacity(LinkId l, double capacity) override;
  // With tracking on, every link whose load changes (by update() or deactivate()) is listed in
  // load_changes() until clear_load_changes(); a link may appear more than once.
  void track_load_changes(bool on) override { track_loads_ = on; }
  const std::vector<LinkId>& load_changes() const override { return load_changes_; }
  void clear_load_changes() override { load_changes_.clear(); }
  // Re-solves; afterwards changed() lists the active variables whose rate changed (each once).
  void update() override;
  // Re-solves every active variable from scratch (for tests and for comparison).
  void solve_all() override;

  double rate(std::uint32_t var) const override { return var < rate_.size() ? rate_[var] : 0.0; }
  // The links of an active variable (with held paths, of any variable).
  std::span<const LinkId> links(std::uint32_t var) const override { return links_of(var); }
  double load(LinkId l) const override { return link_[l].load; }
  bool active(std::uint32_t var) const override { return var < active_.size() && active_[var] != 0; }
  // Storage in use, for tests: incidences in the arena (live and garbage) and link slots.
  std::size_t incidence_storage() const override { return inc_slot_.size(); }
  std::size_t slot_storage() const { return slot_.size(); }
  // Garbage (incidences of inactive variables, slots of blocks left behind) below this is never
  // compacted away (default kGarbageAtLeast; tests set it low to compact often).
  void set_garbage_at_least(std::size_t n) { garbage_at_least_ = n; }
  // Whether a lone newcomer is solved directly (solve_alone; on by default; tests compare both ways).
  void set_solve_alone(bool on) { solve_alone_ = on; }
  // For tests: the closures after an update's first solve always taken, or never (otherwise learned:
  // rules::LaterClosures).
  void pin_later_closures(bool taken) { later_closures_.pin(taken); }
  const std::vector<std::uint32_t>& changed() const override { return changed_; }
  const IncrementalStats& stats() const override { return stats_; }

 private:
  bool saturated(LinkId l) const { return link_[l].load >= link_[l].saturation; }
  struct VarLinks {
    std::uint32_t first = 0, count = 0;
  };
  VarLinks range_of(std::uint32_t var) const {  // its incidences
    if (!held_) return var_links_[var];
    return {static_cast<std::uint32_t>(held_offsets_[var]),
            static_cast<std::uint32_t>(held_offsets_[var + 1] - held_offsets_[var])};
  }
  std::span<const LinkId> links_of(std::uint32_t var) const {
    const VarLinks r = range_of(var);
    return {inc_base_ + r.first, r.count};
  }
  // Links given at activation (flows that come and go, mostly alone on a lightly loaded network): the
  // path's link records requested from memory at once, as the loops that follow would wait for them
  // one after another (the open-loop Poisson run 8 % faster). Not with held paths, where a contended
  // run's links are mostly in cache and the extra pass cost 4 % (bench/RESULTS.md).
  void prefetch_links(VarLinks r) const {
    if (held_) return;
    for (std::uint32_t e = r.first; e < r.first + r.count; ++e) __builtin_prefetch(&link_[inc_base_[e]]);
  }
  void attach(std::uint32_t var);  // activation, once its links and weight are set
  void grow_variables(std::size_t vars);  // per-variable arrays for numbers below vars
  std::uint32_t place_links(std::uint32_t var, std::span<const LinkId> links);  // in the arena; returns the first
  void compact_arena();                   // drops the incidences of inactive variables
  std::uint32_t append_slot(LinkId l);    // a free slot at the end of the link's block (grown if full)
  void move_block(LinkId l, std::uint32_t room);  // the block's live slots to a new block of this room
  // Every block moved to fresh storage with room for twice its live slots (an idle link's given
  // back), the abandoned ones dropped. Only between activations (no link mid-append).
  void compact_slots();
  double saturation_of(LinkId l) const;  // the load at which the link counts as saturated
  void add_to_set(std::uint32_t var);
  // Adds the link's active variables that may have it as their bottleneck (those at its top level),
  // unless they are below the floor.
  void add_link_bottlenecked(LinkId l);
  void add_link_from(LinkId l, double level);   // its active variables at or above the level
  void add_link_above(LinkId l, double level);  // its active variables above the level (not tied)
  void lower_floor(double level);
  bool at_least(std::uint32_t var, double level) const;  // level of var >= level, with a margin
  bool above(std::uint32_t var, double level) const;     // level of var > level, beyond rounding
  // S's links are numbered 0.. (local_links_) as S grows during an update, and each variable of S
  // has its incidences as local link numbers (set_local_link_ from set_incidence_offsets_[k]): the
  // passes over S read that compact block instead of the paths and the per-link state again.
  void begin_numbering();
  std::uint32_t local_of(LinkId l);  // the link's local number, given one if it has none yet
  void number_next();                // numbers the next variable of S
  void number_set();                 // numbers the variables of S not numbered yet
  // Step 1 (with step 0's floor for the newcomers, and the per-update state reset): S seeded with the
  // batch's newcomers, the top-level variables of the saturated links a departing variable crossed,
  // and those a capacity change may move. Returns whether S holds any variable.
  bool seed_set();
  // Steps 3 and 4, repeated: solves S and takes in the variables its new rates may move
  // (bring_in_affected), closing S over them as in step 2, until a solve brings none in.
  void solve_until_closed();
  // Step 4 after a solve of S: the variables over the links that froze variables of S (above their
  // level), and those at the top of saturated links where a rate of S changed, join S.
  void bring_in_affected();
  // Closes S over the saturated links of its variables not yet numbered (their top-level variables
  // join, and so on), numbering them, until S holds close_limit_ variables; takes in every variable
  // above the floor once S holds half of the active ones. Returns the size of S when the closure
  // ended (before those).
  std::size_t close_set();
  // After an update whose first closure went beyond its bound (bounded: stopped there), whether the
  // bound helped (first: the size of S before the first solve): moves closure_score_.
  void learn_closure_bound(bool bounded, std::size_t bound, std::size_t first);
  // The commonest batch at light load, solved directly: one newcomer, no departure or capacity change,
  // alone on each of its links (step 1's S is that one variable and steps 2-4 add nothing). Returns
  // whether it applied (otherwise nothing is touched).
  bool solve_alone();
  void solve_set();                  // progressive filling of set_ on residual capacities, into new_rate_
  double unfrozen_weight(std::uint32_t li);  // weight_sum_[li], summed again where cancellation ate it
  // Refuses a weight that is not finite and positive; records the lightest and heaviest.
  void check_weight(double weight);
  // What a relative change tolerance of var's rate is taken of: its rate, and for a rate near 0 its
  // weight over the heaviest (a floor in Gbit/s that scales with the weight, so that it stays small
  // against the levels of light variables).
  double change_scale(std::uint32_t var) const { return std::max(weight_[var] / heaviest_, std::abs(rate_[var])); }
  // Applies the new rates of S that changed by more than tolerance (relative), listing them in changed_.
  void commit(double tolerance);
  void end_batch();  // forgets the batch's events and its floor

  // The per-link fields that an update reads together, side by side: one cache miss per link visited.
  struct LinkState {
    double load = 0;  // sum of the rates of the active variables crossing it
    double capacity = 0;
    double saturation = 0;          // saturated at a load at or above this (capacity less a tolerance)
    double weight = 0;              // sum of the weights of the active variables crossing it
    std::uint64_t first = 0;        // its block of slots: slot_[first, first + room)
    std::uint32_t walked = 0;       // == stamp_: add_link_bottlenecked ran on it
    std::uint32_t solve_stamp = 0;  // == solve_stamp_: `local` is its index in solve_set's problem
    std::uint32_t local = 0;
    std::uint32_t count = 0;  // how many active variables cross it
    std::uint32_t end = 0;    // slots in use, marked ones included
    std::uint32_t room = 0;   // slots in its block
  };
  std::vector<LinkState> link_;
  std::vector<double> initial_capacity_;
  // The constructor's path offsets (held_: given; otherwise empty, links given at activation); its
  // links and weights are inc_base_ and weight_.
  bool held_ = false;
  std::span<const std::uint64_t> held_offsets_;

  // Per variable: its weight (the constructor's, or own_weight_), and without held paths its
  // incidences in the arena (count 0 while inactive).
  const double* weight_ = nullptr;
  std::vector<double> own_weight_;
  std::vector<VarLinks> var_links_;
  // Incidence e is (its variable, inc_base_[e]), at slot inc_slot_[e] of the link's block. Held paths:
  // e indexes the constructor's links. Otherwise the links are in the arena inc_link_, where an
  // inactive variable's incidences are garbage until compact_arena() drops them.
  const LinkId* inc_base_ = nullptr;
  std::vector<LinkId> inc_link_;
  std::vector<std::uint32_t> inc_slot_;
  std::size_t inc_live_ = 0;  // incidences of active variables

  std::vector<double> rate_, new_rate_;
  std::vector<std::uint8_t> active_;
  std::vector<std::uint32_t> active_list_, list_position_;  // the active variables, in no order
  // Link l's active incidences lie among the first link_[l].end slots of its block, so a walk over a
  // link reads one contiguous block. Activation appends; removal only marks the slot (kRemoved), and
  // the block is compacted once most of it is marked, so that both stay a few memory accesses per
  // link. A full block moves to the end of slot_ with twice the room (or is compacted in place when a
  // quarter of it is marked); compact_slots() drops the blocks left behind and shrinks every block to
  // twice its live slots once slot_ holds four times the active incidences. A block moves whole, so a
  // slot's position within its block (inc_slot_) stays valid.
  static constexpr std::uint32_t kRemoved = ~0u;
  // (With held paths every block has room for every incidence that may cross the link, and a full
  // block is compacted in place.)
  // A block is compacted when its marked slots outnumber kCompactRatio × its live ones + kCompactAtLeast:
  // walks read at most that many more slots, and each live slot moves for every few removals at most.
  static constexpr std::uint32_t kCompactRatio = 3, kCompactAtLeast = 32;
  static constexpr std::uint32_t kMinRoom = 4;                      // a new block's slots
  static constexpr std::size_t kGarbageAtLeast = std::size_t{1} << 16;  // arena and slots: compacted beyond this
  struct Slot {
    std::uint32_t var;        // kRemoved once the incidence is removed
    std::uint32_t incidence;  // e
  };
  std::span<const Slot> slots_of(LinkId l) const { return {slot_.data() + link_[l].first, link_[l].end}; }
  void compact(LinkId l);  // moves the block's live slots to its front, in order
  // Copies the block's live slots, in order, to `to` (its own start: compaction in place), their
  // positions into inc_slot_; returns how many.
  std::uint32_t copy_live(const LinkState& s, Slot* to);
  std::vector<Slot> slot_;
  std::size_t garbage_at_least_ = kGarbageAtLeast;
  bool solve_alone_ = true;

  // Work of one update.
  std::vector<std::uint32_t> pending_new_;          // activated since the last update
  std::vector<LinkId> pending_links_;               // links of variables removed since the last update
  std::vector<std::uint8_t> pending_saturated_;     // was that link saturated at removal
  std::vector<LinkId> pending_capacity_;            // links whose capacity changed where rates may follow
  std::vector<std::uint8_t> pending_capacity_cut_;  // was that change a cut
  // The floor of the batch: no variable whose level (rate / weight) is below it can change (see above).
  double floor_level_ = std::numeric_limits<double>::infinity();
  double max_capacity_ = 0;
  // The lightest and heaviest weights activated: beyond rules::kWeightSpread apart
  // (engine/maxmin/incremental_rules.hpp), update() solves every active variable.
  double lightest_ = std::numeric_limits<double>::infinity(), heaviest_ = 0;
  bool track_loads_ = false;
  std::vector<LinkId> load_changes_;
  std::vector<std::uint32_t> set_, changed_;
  std::vector<std::uint32_t> in_set_;    // == stamp_: in S
  std::vector<std::uint32_t> new_mark_;  // == update_mark_: activated since the previous update
  std::uint32_t update_mark_ = 0;
  std::vector<std::uint32_t> link_above_stamp_;  // == stamp_: add_link_above ran on it, down to
  std::vector<double> link_above_level_;         // this level
  std::uint32_t stamp_ = 0, solve_stamp_ = 0;    // one per update, one per numbering of S
  // Local problem of solve_set().
  std::vector<LinkId> local_links_;
  std::vector<double> residual_, weight_sum_;
  // Per local link, the weight sum when last summed from its variables (weight_sum_ is that minus
  // the weights frozen since): see unfrozen_weight().
  std::vector<double> weight_summed_;
  std::vector<std::uint32_t> local_var_offsets_, local_vars_, cursor_, unfrozen_;
  std::vector<std::uint32_t> set_incidence_offsets_, set_local_link_;  // per variable of S: its local links
  // The first closure's bound (rules::kCloseFactor, kCloseAtLeast); later ones, when taken, do not stop.
  std::size_t close_limit_ = 0;
  // Above 0 the first closure is not bounded either (learn_closure_bound).
  int closure_score_ = 0;
  rules::LaterClosures later_closures_;  // whether step 4 closes what it brings in
  std::size_t numbered_ = 0;                                           // variables of S numbered so far
  std::vector<double> load_delta_;                                     // per local link, in commit()
  std::vector<std::uint8_t> frozen_, bottleneck_, var_changed_;
  std::vector<double> freeze_level_;  // per local link that froze variables: the level it froze them at
  RadixHeap<std::uint32_t, VectorStack> heap_;  // filled and emptied at every batch: keeps its storage

  IncrementalStats stats_;
};

}  // namespace interflow::maxmin
