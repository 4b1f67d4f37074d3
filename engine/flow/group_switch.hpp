#pragma once
// When a run over single variables is handed to bottleneck groups, and back (--rate-solver auto;
// manual/dynamic.md "Switching to groups"). The groups of engine/maxmin/grouped_maxmin.hpp and the clocks of
// group_clocks.hpp pay where one rate change moves many flows to one level, as in an incast, where each
// end re-levels every flow behind the reducer's link. Where the flows whose rates change end at levels
// of their own, the groups' bookkeeping costs more than it saves (1.5–4.7× slower on the other rows
// of bench/dynamic.sh: bench/RESULTS.md, "Bottleneck groups built").
//
// Both ways the rule weighs the same two sums over each window of consecutive batches: B, the
// changed variables that sit in *large levels* (levels holding at least per_level of them: over
// groups one group's update, over variables one update per member), and R, the other changed
// variables (over groups each costs more than over variables).
//   - Over variables, after every batch the transport reports C, how many variables changed rate,
//     and, when C ≥ min_changed, how many of them sit in large levels: the levels (rate / weight,
//     up to rounding) of a sample, every ⌈C / kSample⌉-th changed variable, at most kSample of them
//     (so the counting costs a bounded sort and no memory that grows with the run), scaled back by
//     the stride. A window *favours groups* when B ≥ clustered_over_rest × R (most of its changes
//     are ones groups absorb) and at least the share clustered_batches of its batches had a large
//     level (one burst, every flow of a background starting at t = 0 or an application's first
//     exchange, does not make a window alone).
//   - Over groups the counts are exact and cheap: the members of each group whose level changed, as
//     the solver commits the levels (before it merges groups frozen at one level; members that only
//     moved between groups are left out), a large group counting in B. A window *favours
//     variables* when B ≤ back_clustered_over_rest × R: the flows that change rate have levels of
//     their own. Between the two ratios (1 and 3) a window favours neither.
// A window that favours the other solver hands the run to it when its sum is large enough: B ≥
// window × min_changed / 2 towards groups (enough changes for the groups to pay for the rebuild),
// R ≥ back_min_rest back (not a lull: an incast that pauses between its phases keeps the run over
// groups, where the pause costs little). Weighing in the rebuild (about one solve of the active
// variables: switching only once consecutive favouring windows had spared as many changes as there
// are active variables) was tried and dropped: it kept the 64x32x32 MapReduce over groups from
// batch 64 to its end, 9 min 40 s against 6 min 58 s with the rule before (bench/RESULTS.md,
// "Large levels").
// Sums, not a count of batches that each move many rates to few levels (the rule before), because an
// incast that grows while other traffic comes and goes (an open-loop hot spot) re-levels its thousands
// of flows in a third of the batches only, and each of those batches also moves a few hundred flows
// elsewhere to levels of their own: neither the batches nor their mean variables per level looked
// grouped, and the run switched only once its arrivals had ended.
// Measured: bench/RESULTS.md, "Switching to groups", "the way back" and "Large levels".
// The rule reads counts only, so it decides at the same batch on any machine and thread count.
#include <cstdint>
#include <span>

namespace interflow::flow {

class GroupSwitch {
 public:
  enum class Towards { groups, variables };  // the solver the rule may hand the run to
  struct Settings {
    std::uint32_t window = 64;  // batches per window (at least 1)
    // Over variables, the levels of batches that changed at least this many are counted; towards
    // groups, a window's B must reach window × this / 2.
    double min_changed = 256;
    double per_level = 32;      // members of a large level (of the sample, over variables), at least
    double clustered_over_rest = 3;    // favours groups: B ≥ this × R, and
    double clustered_batches = 0.125;  // this share of the batches with a large level, at least
    double back_clustered_over_rest = 1;  // favours variables: B ≤ this × R
    double back_min_rest = 128;           // back: the window's R, at least
    // Decides at every window's end, both ways (the tests' forced switches): nothing is large, and
    // every threshold is 0.
    static Settings always(std::uint32_t window);
  };
  GroupSwitch() = default;
  explicit GroupSwitch(const Settings& settings, Towards towards = Towards::groups);

  static constexpr std::uint64_t kSample = 4096;
  // Whether a batch over variables that changed `changed` should have the levels of a sample counted,
  // and which: every stride()-th of the changed list.
  bool wants_levels(std::uint64_t changed) const {
    return towards_ == Towards::groups && static_cast<double>(changed) >= settings_.min_changed;
  }
  static std::uint64_t stride(std::uint64_t changed) {
    return changed <= kSample ? 1 : (changed + kSample - 1) / kSample;
  }
  // Levels within this relative distance of the one below them are one: a variable's level is read
  // back as rate / weight, and rate = weight × λ (plus the leftover's under a cap) is rounded, so
  // members of one group with weights that are not powers of two (ECMP's splits) differ in the last bits.
  static constexpr double kSameLevel = 1e-12;
  // How many of `levels` lie in levels (up to kSameLevel) holding at least `at_least` of them
  // (sorted in place).
  static std::uint64_t in_large_levels(std::span<double> levels, double at_least);
  // One batch: the changed variables in large levels (B) and the others (R); true when its window
  // decides the switch.
  bool observe(std::uint64_t clustered, std::uint64_t rest);
  const Settings& settings() const { return settings_; }
  Towards towards() const { return towards_; }

 private:
  bool decides() const;  // at a window's end: whether it favours the other solver, enough

  Settings settings_;
  Towards towards_ = Towards::groups;
  double clustered_sum_ = 0, rest_sum_ = 0;  // the window's B and R
  std::uint32_t clustered_batches_ = 0;      // its batches with a large level
  std::uint32_t batches_ = 0;                // in the window so far
};

}  // namespace interflow::flow
