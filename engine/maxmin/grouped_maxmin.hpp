#pragma once
// Weighted max-min fair rates kept up to date over bottleneck groups: the incremental solver of
// engine/maxmin/incremental_maxmin.hpp with the variables of one level held together, so that an
// incast (every end of a flow into a shared bottleneck moves the rate of every flow behind it) costs
// per group, not per flow. The design is manual/dynamic.md's ("Bottleneck groups").
//
// State. Every active variable is in one group; a group has one level λ, and each member's rate is
// its weight × λ. Per link that a group's members cross, a pair (group, link) holds their incidences
// there, the sum of their weights (a path that crosses the link twice counts twice), how many
// incidences and how many distinct members. Each link lists its pairs, so "the variables at the top
// of a link" are the groups of the highest level among its pairs, and a link's load is the sum over
// its pairs of weight × λ.
// Update. Steps 0-4 of incremental_maxmin.hpp, with whole groups where it takes variables:
//   0. The floor (the same events lower it); a group below it is never taken in.
//   1. S starts with the batch's newcomers (one group of level 0), the groups at the top of every
//      saturated link a departing variable crossed, of every link whose capacity rose, and every
//      group (above the floor) of a link whose capacity was cut.
//   2. S is closed over the saturated links of its groups (their top-level groups join), bounded at
//      first by its pairs (16 × those of step 1 + 256) as the variable solver bounds its variables,
//      with the same learning of whether the bound helps (counting every variable whose rate
//      changed, followed or not, so that the work does not depend on who follows the groups).
//   3. Progressive filling of S on the residual capacities. All unfrozen variables of S are at one
//      level at every step of a filling, so a link that reaches its share freezes, of each unfrozen
//      group crossing it, the members that cross it: the whole group when all of them do (its pairs
//      give the weight to take off every link it crosses, without reading its paths), otherwise the
//      group splits, and only the smaller part's paths are read (the members crossing the link are
//      listed by the pair; the others are found by marking those).
//   4. A link that froze groups at λ takes in the groups on it above λ; a saturated link where a
//      group of S changed level takes in its top-level groups; 2-4 repeat until S stops growing
//      (the closures of 2 after the first solve learned as the variable solver learns them,
//      rules::LaterClosures, counting variables).
// Afterwards the groups frozen by one link at one pop (the same λ, bit for bit) merge, the smaller
// into the larger, so that groups follow the bottlenecks instead of fragmenting.
// Exactness. S is a union of whole groups: it holds every variable that the variable solver's rules
// take in (a group's members share its level, so a rule that takes one takes all; the margins are
// taken with the weight that includes most) and maybe more, and taking variables in only adds work.
// The filling takes the same steps as one over single variables; only the order of the sums differs,
// so the rates equal the variable solver's and a solve from scratch up to rounding (tests compare
// them after every batch of random event sequences). Loads change by the sums of S's pairs ×
// the change of their group's level, as the variable solver's change by its variables' rates.
// Cost. An update reads the pairs of S's groups, the paths of the members that change group (the
// smaller part of each split, the smaller group of each merge) and the pairs on the links it walks;
// where S holds many variables at few levels (an incast) that is far below S's path links. Where
// every variable has its own level it is the variable solver's work with more bookkeeping.
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "core/id_index.hpp"
#include "core/radix_heap.hpp"
#include "core/random.hpp"
#include "core/types.hpp"
#include "engine/maxmin/incremental_rules.hpp"
#include "engine/maxmin/rate_solver.hpp"

namespace interflow::maxmin {

class GroupedMaxMin final : public RateSolver {
 public:
  // As IncrementalMaxMin's constructors: held paths (every variable's links from the start), or
  // links given at activation.
  GroupedMaxMin(std::span<const double> capacity, std::span<const std::uint64_t> var_offsets,
                std::span<const LinkId> links, std::span<const double> weight);
  explicit GroupedMaxMin(std::span<const double> capacity);

  void activate(std::uint32_t var) override;
  void activate(std::uint32_t var, std::span<const LinkId> links, double weight) override;
  void deactivate(std::uint32_t var) override;
  void set_capacity(LinkId l, double capacity) override;
  void track_load_changes(bool on) override { track_loads_ = on; }
  const std::vector<LinkId>& load_changes() const override { return load_changes_; }
  void clear_load_changes() override { load_changes_.clear(); }
  void update() override;     // afterwards changed() lists the active variables whose rate changed (each once)
  void solve_all() override;  // every active variable from scratch

  double rate(std::uint32_t var) const override {
    return active(var) ? weight_[var] * group_[group_of_[var]].level : 0.0;
  }
  std::span<const LinkId> links(std::uint32_t var) const override { return links_of(var); }
  double load(LinkId l) const override { return link_[l].load; }
  bool active(std::uint32_t var) const override { return var < group_of_.size() && group_of_[var] != kNone; }
  const std::vector<std::uint32_t>& changed() const override { return changed_; }
  const IncrementalStats& stats() const override { return stats_; }
  std::size_t incidence_storage() const override { return inc_var_.size(); }
  // The groups, for tests and profiles: how many are alive, a variable's group and a group's level.
  std::size_t group_count() const { return group_.size() - free_groups_.size(); }
  std::uint32_t group_of(std::uint32_t var) const { return group_of_[var]; }
  double group_level(std::uint32_t g) const { return group_[g].level; }
  // Variables followed by their group (the transport's clocks, engine/flow/group_clocks.hpp and
  // mixed_clocks.hpp): set before activation. A followed variable whose rate changes with its group's
  // level is not listed in changed(); after an update, moved() lists the followed variables that
  // changed group (one may be listed more than once, or be back in its group) and level_changed() the
  // groups whose level changed (group_level gives it), and level_changed_members() how many members
  // each of those held when its level changed (before groups frozen at one level merged).
  void set_followed(std::uint32_t var, bool on);
  const std::vector<std::uint32_t>& moved() const { return moved_; }
  const std::vector<std::uint32_t>& level_changed() const { return level_changed_; }
  const std::vector<std::uint32_t>& level_changed_members() const { return level_changed_members_; }
  // Garbage in the arena of links given at activation below this is never compacted (tests set it low).
  void set_garbage_at_least(std::size_t n) { garbage_at_least_ = n; }
  // For tests: the closures after an update's first solve always taken, or never (rules::LaterClosures).
  void pin_later_closures(bool taken) { later_closures_.pin(taken); }

 private:
  static constexpr std::uint32_t kNone = ~0u;
  // 48 bytes, no storage of its own: its incidences are a list through inc_next_/inc_prev_.
  struct Pair {
    std::uint32_t group = kNone, link = 0;
    std::uint32_t at_group = 0, at_link = 0;  // positions in the group's and the link's lists
    std::uint32_t count = 0, distinct = 0;     // incidences; distinct members
    std::uint32_t head = kNone;                // its first incidence
    double weight = 0;  // sum of the incidences' weights
    double peak = 0;    // the largest weight held since last summed (see remove_incidence)
  };
  struct Group {
    double level = 0;      // λ: committed
    double new_level = 0;  // from the last filling
    std::vector<std::uint32_t> members, pairs;
    std::uint32_t in_set = 0;        // == stamp_: in S
    std::uint32_t changed_mark = 0;  // == round_: its level changes in this round
    std::uint32_t pop = 0;           // the pop of the filling that froze it
    std::uint32_t unfollowed = 0;    // members not followed by their group (listed in changed())
    bool alive = false, frozen = false;
    bool fresh = false;  // holds variables activated in this batch (rate 0 until the update)
  };
  struct LinkState {
    double load = 0, capacity = 0, saturation = 0;
    double weight = 0;  // of the active variables crossing it
    std::uint32_t count = 0;
    std::uint32_t walked = 0;  // == stamp_: its top-level groups were taken in
    std::uint32_t above_stamp = 0;
    double above_level = 0;
    std::uint32_t solve_stamp = 0, local = 0;  // == solve_stamp_: its local number
    std::uint32_t walk = 0;                    // == walk_: met already on the path being walked
    std::uint32_t hint = kNone;                // a pair of the link, probably the one asked for next
  };
  struct VarLinks {
    std::uint32_t first = 0, count = 0;
  };

  VarLinks range_of(std::uint32_t var) const {
    if (!held_) return var_links_[var];
    return {static_cast<std::uint32_t>(held_offsets_[var]),
            static_cast<std::uint32_t>(held_offsets_[var + 1] - held_offsets_[var])};
  }
  std::span<const LinkId> links_of(std::uint32_t var) const {
    if (!held_ && var >= var_links_.size()) return {};
    const VarLinks r = range_of(var);
    return {inc_base_ + r.first, r.count};
  }
  bool saturated(LinkId l) const { return link_[l].load >= link_[l].saturation; }
  double saturation_of(LinkId l) const;
  void grow_variables(std::size_t vars);
  void check_weight(double weight);
  void place_links(std::uint32_t var, std::span<const LinkId> links);
  void compact_arena();
  void attach(std::uint32_t var);
  void lower_floor(double level) { floor_level_ = std::min(floor_level_, std::max(0.0, level)); }

  // Groups and pairs (storage reused through free lists).
  std::uint32_t new_group();
  void free_group(std::uint32_t g);
  std::uint32_t find_pair(std::uint32_t g, LinkId l);  // kNone if the group does not cross it
  std::uint32_t pair_of(std::uint32_t g, LinkId l);    // found or made
  void free_pair(std::uint32_t p);
  void unlist_from_group(std::uint32_t p);  // out of its group's list of pairs (and the index)
  void list_in_group(std::uint32_t p, std::uint32_t g);  // into g's, as g's (and into the index)
  static std::uint64_t key_hash(std::uint32_t g, LinkId l) { return mix64(std::uint64_t{g} << 32 | l); }
  void add_incidence(std::uint32_t p, std::uint32_t var, std::uint32_t e, bool first);
  void remove_incidence(std::uint32_t e, bool first);  // first: the path's first incidence on that link
  void add_member(std::uint32_t g, std::uint32_t var);  // with its incidences
  void drop_member(std::uint32_t var);                  // from its group, with its incidences
  void move_member(std::uint32_t var, std::uint32_t to);
  // Calls f(e, link, first) for each incidence of var's path; first: the path's first on that link.
  template <class F>
  void walk_path(std::uint32_t var, F&& f) {
    ++walk_;
    const VarLinks r = range_of(var);
    for (std::uint32_t e = r.first; e < r.first + r.count; ++e) {
      const LinkId l = inc_base_[e];
      const bool first = link_[l].walk != walk_;
      link_[l].walk = walk_;
      f(e, l, first);
    }
  }
  void merge(std::uint32_t into, std::uint32_t from);  // from's members join into; from is freed
  void splice(std::uint32_t from, std::uint32_t to);   // pair from's incidences (and sums) into pair to

  // The rules of the header. The level tests include a group when they would include any member.
  bool at_least(std::uint32_t g, double level) const;
  bool above(std::uint32_t g, double level) const;
  void add_to_set(std::uint32_t g);
  void add_top(LinkId l);                     // the top-level groups of a saturated link (above the floor)
  void add_from(LinkId l, double level);      // its groups at or above the level
  void add_above(LinkId l, double level);     // its groups above the level, ties left out
  void begin_update();                        // a new S (and new lists of changes) for this update
  bool seed_set();                            // step 1; whether S holds anything
  std::size_t close_set();                    // step 2; S's pairs when the closure stopped
  void learn_closure_bound(bool bounded, std::size_t bound, std::size_t first, std::uint64_t changed);
  void solve_until_closed();                  // steps 3-4
  void bring_in_affected();                   // step 4
  void begin_numbering();
  std::uint32_t local_of(LinkId l);
  void number_group(std::uint32_t g);  // local numbers for the links of its pairs
  // Step 3: the filling, in named parts.
  void solve_set();
  void start_filling();  // residual capacities and unfrozen weights of the local links, the heap
  double unfrozen_weight(std::uint32_t li);
  void freeze_link(LinkId l, double level);  // the unfrozen members of S crossing it
  void split_and_freeze(std::uint32_t g, std::uint32_t p, double level);
  void freeze_group(std::uint32_t g, double level);  // whole, at this level
  void commit(double tolerance);
  void merge_frozen();  // the groups frozen at one pop, into the largest
  void end_batch();

  std::vector<LinkState> link_;
  std::vector<double> initial_capacity_;
  double max_capacity_ = 0;
  bool held_ = false;
  std::span<const std::uint64_t> held_offsets_;
  const double* weight_ = nullptr;
  std::vector<double> own_weight_;
  std::vector<VarLinks> var_links_;
  const LinkId* inc_base_ = nullptr;
  std::vector<LinkId> inc_link_;  // the arena (links given at activation)
  std::size_t inc_live_ = 0;
  std::size_t garbage_at_least_ = std::size_t{1} << 16;
  // Per incidence (e: its index among the held paths' links or in the arena): its pair, its
  // neighbours in the pair's list (kNone at the ends) and its variable.
  std::vector<std::uint32_t> inc_pair_, inc_next_, inc_prev_, inc_var_;
  std::vector<std::uint32_t> group_of_, member_pos_;  // per variable (kNone: inactive)
  std::vector<std::uint8_t> followed_;                 // per variable: set_followed
  std::vector<std::uint32_t> moved_, level_changed_, level_changed_members_;
  std::vector<std::uint32_t> active_list_, list_position_;  // links given at activation: for compaction

  std::vector<Group> group_;
  std::vector<std::uint32_t> free_groups_;
  std::vector<Pair> pair_;
  std::vector<std::uint32_t> free_pairs_;
  std::size_t live_pairs_ = 0;
  std::vector<std::vector<std::uint32_t>> link_pairs_;
  // The live pairs by (group, link) (find_pair), a hash table of pair numbers (kNone: empty slot).
  IdIndex index_;

  // Work of one update.
  std::uint32_t fresh_group_ = kNone;  // the batch's newcomers
  std::vector<LinkId> pending_links_;
  std::vector<std::uint8_t> pending_saturated_;
  std::vector<LinkId> pending_capacity_;
  std::vector<std::uint8_t> pending_capacity_cut_;
  double floor_level_ = std::numeric_limits<double>::infinity();
  double lightest_ = std::numeric_limits<double>::infinity(), heaviest_ = 0;
  bool track_loads_ = false;
  std::vector<LinkId> load_changes_;
  std::vector<std::uint32_t> set_, changed_, scratch_, scratch_members_, freezing_, merge_order_;
  std::size_t set_pairs_ = 0, numbered_ = 0, close_limit_ = 0;
  int closure_score_ = 0;
  rules::LaterClosures later_closures_;  // whether step 4 closes what it brings in (as IncrementalMaxMin)
  std::uint32_t stamp_ = 0, solve_stamp_ = 0, round_ = 0, walk_ = 0, pops_ = 0;
  std::vector<std::uint32_t> var_mark_;  // == walk_: marked by the split under way
  std::size_t open_ = 0;                 // unfrozen groups of S in the filling
  std::vector<LinkId> local_links_;
  std::vector<double> residual_, weight_sum_, weight_summed_, freeze_level_;
  std::vector<std::uint32_t> unfrozen_;  // per local link: unfrozen incidences of S
  std::vector<std::uint8_t> bottleneck_, link_changed_;
  std::vector<double> load_delta_;
  RadixHeap<std::uint32_t, VectorStack> heap_;
  IncrementalStats stats_;
};

}  // namespace interflow::maxmin
