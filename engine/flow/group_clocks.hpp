#pragma once
// Virtual clocks for transfers that share a rate level: the flow transport's accounting over the
// bottleneck groups of engine/maxmin/grouped_maxmin.hpp (manual/dynamic.md "Bottleneck groups").
//
// A group's clock is the integral of its level λ over time, in Gbit per unit of weight. A member of
// weight w sends w × 10⁹ bits per unit of clock, so its transfer ends when the clock reaches the value
// fixed when it joined: the clock then + its bits left / (w × 10⁹). A change of λ settles the clock
// and re-keys one entry, the group's next end, instead of every member's remaining bits and heap
// entry; a member that changes group has its bits left converted once, by the old group's clock.
// Correctness: between two changes a member's rate is w × λ, so the bits it sends are w × 10⁹ × (the
// clock's advance), which is what the per-flow accounting sums; the end time is the time at which
// that reaches its bits left. The members of a group end in the order of their end values (ties: by
// number), which a change of λ does not alter, so each group keeps them in a heap of its own and the
// groups' next ends are in one heap.
// Precision: end values and the clock are differenced; a clock is rebased to 0 (every member's end
// value shifted by as much, which keeps their order) once it passes 64 Gbit per unit of weight, so a
// difference loses at most about 2^-46 Gbit/w, an end time at most about 2^-46 / λ seconds, far
// below the batching window (10^-12 relative). A rebase reads the group's members once per 64 units
// of its clock. Tested against per-flow accounting in
// tests/engine/group_clocks.cpp.
#include <cstdint>
#include <vector>

#include "core/indexed_heap.hpp"
#include "core/stats.hpp"

namespace interflow::flow {

class GroupClocks {
 public:
  static constexpr std::uint32_t kNone = ~0u;
  // member `var` joins group g at `now` with `bits` left (> 0) and weight w (> 0). A group without
  // members takes `level` (its level from now); one with members keeps the level it has (set_level
  // changes it), and its clock is settled to now first.
  void join(std::uint32_t var, std::uint32_t g, double bits, double weight, double level, double now);
  // var leaves its group at `now`: returns its bits left then (0 at the earliest once due).
  double leave(std::uint32_t var, double now);
  bool member(std::uint32_t var) const { return var < group_of_.size() && group_of_[var] != kNone; }
  std::uint32_t group(std::uint32_t var) const { return group_of_[var]; }
  double bits_left(std::uint32_t var, double now) const;
  // Group g's level from `now` (the clock settled at the old one first).
  void set_level(std::uint32_t g, double level, double now);
  double level(std::uint32_t g) const { return g < group_.size() ? group_[g].level : 0.0; }
  // The next transfer end over all groups: when (kNever: none) and whose.
  double next_time();
  std::uint32_t next_var();
  double gbps() const { return members_ == 0 ? 0.0 : gbps_.value(); }  // the members' total rate, Gbit/s
  std::uint32_t members() const { return members_; }

 private:
  struct Entry {
    double end;  // the clock value at which the member's last bit is sent
    std::uint32_t var;
  };
  struct Group {
    double clock = 0, last = 0, level = 0;
    double weight = 0;  // of its members
    std::vector<Entry> heap;
  };
  static bool before(const Entry& a, const Entry& b) { return a.end != b.end ? a.end < b.end : a.var < b.var; }
  void grow_group(std::uint32_t g);
  void grow_var(std::uint32_t var);
  void settle(std::uint32_t g, double now);  // the clock advanced to now (and rebased when large)
  void rekey(std::uint32_t g, double now);   // its next end in ends_
  void place(Group& G, std::size_t i, const Entry& e);
  void sift_up(Group& G, std::size_t i);
  void sift_down(Group& G, std::size_t i);

  std::vector<Group> group_;
  std::vector<std::uint32_t> group_of_, pos_;  // per member: its group, its place in the group's heap
  std::vector<double> weight_;
  IndexedMinHeap ends_;  // per group with a member due: when its next member ends
  RunningSum gbps_;
  std::uint32_t members_ = 0;
};

}  // namespace interflow::flow
