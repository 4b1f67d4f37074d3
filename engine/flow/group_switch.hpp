#pragma once
// When a run over single variables is handed to bottleneck groups, and back (--rate-solver auto;
// manual/dynamic.md "Switching to groups"). The groups of engine/maxmin/grouped_maxmin.hpp and the clocks of
// group_clocks.hpp pay where one rate change moves many flows to one level, as in an incast, where each
// end re-levels every flow behind the reducer's link. Where the flows whose rates change end at levels
// of their own, the groups' bookkeeping costs more than it saves (1.5–4.7× slower on the other rows
// of bench/dynamic.sh: bench/RESULTS.md, "Bottleneck groups built").
//
// After every batch over variables the transport reports C, how many variables changed rate, and,
// when C ≥ min_changed, how many distinct levels (rate / weight, up to rounding) a sample of them
// took: every ⌈C / kSample⌉-th changed variable, at most kSample of them (so the counting costs a
// bounded sort and no memory that grows with the run), and only while the window can still decide.
// A batch is *grouped* when C ≥ min_changed and the sample holds at least per_level variables per
// distinct level: many rates moved, to few levels. Batches are taken in consecutive windows of
// `window`; a window in which at least three quarters of the batches are grouped decides the
// switch. Counting batches, not summing C, keeps one burst (every flow of a background starting at
// t = 0) from deciding a window alone; asking for three quarters keeps an incast that shares the
// network with traffic of its own (where groups cost more on the other traffic than they save on the
// incast) over variables.
// The way back. Over groups the same counts are exact and cheap: C is the number of members of the
// groups whose level changed (as the solver commits the levels, before it merges groups frozen at
// one level) and L the number of those groups (members that only moved between groups are left out).
// Here the window's sums decide, for the cost of either solver follows them: a batch over variables
// costs about its C, over groups about its L plus what C spares. A window whose
// changed groups held fewer than back_per_level members on average (ΣC < back_per_level × ΣL), with
// at least back_min_levels of them (ΣL ≥ back_min_levels: the groups' work is not negligible), hands
// the run back to single variables: the flows that change rate now have levels of their own. A lull
// (few changes of any kind) keeps the run over groups, where it costs little, so an incast that pauses
// does not pay two rebuilds and a window over variables when it resumes. The thresholds lie far
// below the way there (32 per level) for the same reason.
// Measured (bench/RESULTS.md, "Switching to groups"): in the evenly spaced MapReduces most windows
// of the incast have 50–64 grouped batches of 64; a MapReduce sharing a torus with a graph
// application at most 33 (groups there: 10.3 s against 6.7 s); the contended two-application row,
// Fig. 8's 16k torus, the jellyfish row and the seed-001 interference points at most 3; an
// all-to-all has two batches, never a window. The way back ("Switching to groups: the way back"):
// a MapReduce on half a 16x16x16 torus followed by a graph application on the other half goes back
// soon after the graph starts (16.2 s instead of 20.2 s one-way; 17.1 s over variables); the ECMP
// MapReduce stays over groups to its end; the 16x16x16 MapReduce goes back once, in a lull between
// its phases (a window of 60 changed groups holding 7.7 members each), and returns at the next
// incast (2.7 s against 3.1 s one-way).
// The rule reads counts only, so it decides at the same batch on any machine and thread count.
#include <cstdint>
#include <span>

namespace interflow::flow {

class GroupSwitch {
 public:
  enum class Towards { groups, variables };  // the solver the rule may hand the run to
  struct Settings {
    std::uint32_t window = 64;  // batches per window (at least 1)
    double min_changed = 256;   // variables changed in a grouped batch, at least
    double per_level = 32;      // sampled variables per distinct level in a grouped batch, at least
    // Towards variables (over groups): a window goes back when its changed groups held fewer than
    // back_per_level members on average, and were at least back_min_levels.
    double back_per_level = 8;
    double back_min_levels = 16;
  };
  GroupSwitch() = default;
  explicit GroupSwitch(const Settings& settings, Towards towards = Towards::groups);

  static constexpr std::uint64_t kSample = 4096;
  // Whether a batch of `changed` variables should have the levels of a sample counted (it can be
  // grouped, and its window can still decide), and which: every stride()-th of the changed list.
  bool wants_levels(std::uint64_t changed) const {
    return static_cast<double>(changed) >= settings_.min_changed && open();
  }
  static std::uint64_t stride(std::uint64_t changed) {
    return changed <= kSample ? 1 : (changed + kSample - 1) / kSample;
  }
  // Levels within this relative distance of the one below them are one: a variable's level is read
  // back as rate / weight, and rate = weight × λ (plus the leftover's under a cap) is rounded, so
  // members of one group with weights that are not powers of two (ECMP's splits) differ in the last bits.
  static constexpr double kSameLevel = 1e-12;
  // How many distinct values `levels` holds, up to kSameLevel (sorted in place).
  static std::uint64_t distinct(std::span<double> levels);
  // One batch's counts: the variables that changed, and of the sample (0 and 0 when not counted) its
  // size and distinct levels; true when its window decides the switch. Towards variables: C and L,
  // exact (sampled unused).
  bool observe(std::uint64_t changed, std::uint64_t sampled, std::uint64_t sampled_levels);
  const Settings& settings() const { return settings_; }
  Towards towards() const { return towards_; }

 private:
  // Whether a window with this many grouped batches decides: towards groups three quarters of it at
  // least, towards variables fewer than a quarter.
  // Towards groups: whether a window with this many grouped batches decides (three quarters of it).
  bool decides(std::uint64_t grouped) const { return 4 * grouped >= 3 * std::uint64_t{settings_.window}; }
  // Towards groups: whether the batches left in the window could still make three quarters.
  bool open() const {
    return towards_ == Towards::groups && decides(std::uint64_t{grouped_batches_} + settings_.window - batches_);
  }
  bool decides_back() const;  // towards variables, at a window's end: from its sums

  Settings settings_;
  Towards towards_ = Towards::groups;
  double changed_sum_ = 0, levels_sum_ = 0;  // towards variables: the window's C and L
  std::uint32_t batches_ = 0;          // in the window so far
  std::uint32_t grouped_batches_ = 0;  // of those, the batches that meet both thresholds
};

}  // namespace interflow::flow
