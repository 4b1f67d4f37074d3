#pragma once
// Virtual clocks for transfers drained by several bottleneck groups at once: multipath flows (one
// group per path variable) and the flows of capped classes (their level solver's group plus the
// leftover solver's; Mubarak et al. 2019, §II; Navaridas et al. 2019, §3.1) over the solvers of
// engine/maxmin/grouped_maxmin.hpp (manual/dynamic.md "Bottleneck groups", "Mixed clocks").
//
// A transfer of weight W whose variables v (weight w_v) sit in groups g_s(v) of solvers s drains at
// Σ_v Σ_s w_v λ_s(g_s(v)) = W × Σ_t c_t λ_t, over its *terms* t = (solver, group) with coefficient
// c_t = Σ of w_v / W over the variables in that group. Transfers with the same terms drain alike per
// unit of weight, so they share one *mix* (the terms interned once) and one clock of GroupClocks
// (engine/flow/group_clocks.hpp), the integral of the mix's level Σ_t c_t λ_t. A change of a group's
// level re-levels the mixes holding it (reached through a list per group), not their transfers; a
// variable that changes group moves its transfer to another mix once.
// Correctness: between two changes, the transfer's rate is W × the mix's level, so its clock is what
// per-flow accounting would sum (GroupClocks's argument); the mix's level is recomputed from the
// solvers' levels whenever one of its groups' changes, and a transfer changes mix whenever one of its
// variables changes group, so the level it runs by is always its rate / W.
// What each path carried (for the links' bytes) is kept per variable apart: per group the integral
// Λ of its level, and per variable the Λ at which it joined; w_v × (Λ now − Λ joined) is what it sent
// in that group. These sums are scaled so that the variables' together equal the transfer's bits as
// its clock counts them (a rounding difference at most), so every transfer's bytes are conserved.
// Λ is not rebased (it restarts only when no variable here is in the group): a difference is off by
// about ulp(Λ) × w × 10⁹ bits, 0.1 bit per unit of weight at Λ = 10⁶ Gbit per unit of weight (10⁴ s
// at 100 Gbit/s), against megabytes per path.
// Tested against per-flow accounting in tests/engine/mixed_clocks.cpp and against the variable solver
// in whole runs (tests/engine/dynamic_engine.cpp).
#include <cstdint>
#include <span>
#include <vector>

#include "core/free_lists.hpp"
#include "core/id_index.hpp"
#include "engine/flow/group_clocks.hpp"

namespace interflow::maxmin {
class ClassedMaxMin;
class GroupedMaxMin;
}  // namespace interflow::maxmin

namespace interflow::flow {

class MixedClocks {
 public:
  static constexpr std::uint32_t kNone = ~0u;
  // Over a classed solver whose level solvers (and leftover, if any) are all grouped, with the
  // variables' weights (held, by variable number).
  MixedClocks(const maxmin::ClassedMaxMin& solver, std::span<const double> var_weight);

  // Variable v's groups will be followed here (before the solver activates it).
  void follow(std::uint32_t var);
  // The variables' weights moved (streamed runs: the transport's array grew); the same values.
  void weights_moved(std::span<const double> var_weight) { var_weight_ = var_weight; }
  // Transfer number t, of variables [first, end), starts now with `bits` left (its variables active,
  // their groups placed by the solver's update).
  void start(std::uint32_t t, std::uint32_t first, std::uint32_t end, double bits, double now);
  // After the solver's update: variables moved between groups, then the groups' new levels.
  void update(double now);
  // Transfer t ends now: its bits left (0 at the earliest once due); its variables' bits sent, which
  // add up to total_bits − that, are then bits(v).
  double finish(std::uint32_t t, double now, double total_bits);
  // A transfer still running: its variables' bits sent up to now, which add up to total_bits − its
  // bits left, are then bits(v).
  void settle(std::uint32_t t, double now, double total_bits);
  double bits(std::uint32_t var) const { return bits_[var]; }
  bool started(std::uint32_t t) const { return t < mix_of_.size() && mix_of_[t] != kNone; }
  double bits_left(std::uint32_t t, double now) const { return clocks_.bits_left(t, now); }
  double rate(std::uint32_t t) const;  // Gbit/s
  // The clocks' members are transfer numbers.
  const GroupClocks& clocks() const { return clocks_; }
  GroupClocks& clocks() { return clocks_; }
  std::size_t mixes() const { return mix_.size() - free_mixes_.size(); }  // alive

 private:
  struct Term {
    std::uint32_t source = 0, group = 0;
    double coef = 0;
    std::uint32_t mix = kNone;
    std::uint32_t next = kNone, prev = kNone;  // the list of terms of (source, group)
  };
  struct Mix {
    std::uint32_t first = 0, count = 0;  // its terms in terms_
    std::uint32_t holders = 0;
    std::uint32_t mark = 0;  // == stamp_: to be re-levelled in this update
    std::uint64_t hash = 0;
  };
  struct Integral {  // Λ of a group: the integral of its level, while variables here are in it
    double value = 0, last = 0, level = 0;
    std::uint32_t vars = 0;
  };

  // Mixes interned by their terms (sorted by source and group, no two alike).
  std::uint32_t hold(std::span<const Term> terms);
  void release(std::uint32_t mix);
  bool same_terms(std::uint32_t mix, std::span<const Term> terms, std::uint64_t hash) const;
  std::uint32_t take_terms(std::uint32_t count);
  double level(std::uint32_t mix) const;  // Σ c_t λ_t, from the solvers' levels now
  void link_term(std::uint32_t t);
  void unlink_term(std::uint32_t t);
  std::uint32_t& head(std::uint32_t source, std::uint32_t group);

  // Per variable and solver slot (0: its level solver, 1: the leftover): its group and Λ.
  std::uint32_t source_of(std::uint32_t var, int slot) const;
  int slots() const { return leftover_ == kNone ? 1 : 2; }
  double lambda(std::uint32_t source, std::uint32_t group, double now);
  void enter(std::uint32_t var, int slot, double now);  // into its solver group
  void leave(std::uint32_t var, int slot, double now);  // out of the group it is counted in
  void remix(std::uint32_t t, double now);              // its terms changed: into its new mix
  void terms_of(std::uint32_t t);                       // into scratch_
  void scale_bits(std::uint32_t t, double total_bits);
  void grow(std::uint32_t t, std::uint32_t end);

  const maxmin::ClassedMaxMin& solver_;
  std::vector<maxmin::GroupedMaxMin*> sources_;  // the level solvers, then the leftover
  std::uint32_t leftover_ = kNone;               // its source number
  GroupClocks clocks_;                           // one clock per mix
  std::vector<Mix> mix_;
  std::vector<std::uint32_t> free_mixes_;
  std::vector<Term> terms_;
  FreeRanges free_terms_;
  IdIndex index_;                                  // mixes by the hash of their terms
  std::vector<std::vector<std::uint32_t>> heads_;  // per source, per group: its first term
  std::vector<std::vector<Integral>> integral_;    // per source, per group
  std::span<const double> var_weight_;
  // Per variable: its transfer, bits sent (as of its last settle), and per slot the group it is
  // counted in and Λ then (slot 1 only with a leftover solver).
  std::vector<std::uint32_t> transfer_of_;
  std::vector<double> bits_;
  std::vector<std::uint32_t> group_[2];
  std::vector<double> joined_[2];
  // Per transfer: its variables, mix and weight W.
  std::vector<std::uint32_t> first_, end_, mix_of_;
  std::vector<double> weight_;
  std::vector<std::uint32_t> remix_, remix_mark_, relevel_;
  std::uint32_t stamp_ = 0;
  std::vector<Term> scratch_;
};

}  // namespace interflow::flow
