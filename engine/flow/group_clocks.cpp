#include "engine/flow/group_clocks.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace interflow::flow {

namespace {

constexpr double kRebase = 64.0;  // Gbit per unit of weight: a clock beyond it is rebased to 0
constexpr double kNoEnd = std::numeric_limits<double>::infinity();

}  // namespace

void GroupClocks::grow_group(std::uint32_t g) {
  if (g >= group_.size()) group_.resize(std::size_t{g} + 1);
  ends_.grow(group_.size());
}

void GroupClocks::grow_var(std::uint32_t var) {
  if (var < group_of_.size()) return;
  group_of_.resize(std::size_t{var} + 1, kNone);
  pos_.resize(std::size_t{var} + 1, 0);
  weight_.resize(std::size_t{var} + 1, 0.0);
}

void GroupClocks::settle(std::uint32_t g, double now) {
  Group& G = group_[g];
  if (now > G.last && std::isfinite(G.level)) G.clock += G.level * (now - G.last);
  G.last = std::max(G.last, now);
  if (G.clock > kRebase) {  // every end value moves by as much: the heap's order stays
    for (Entry& e : G.heap) e.end -= G.clock;
    G.clock = 0;
  }
}

void GroupClocks::rekey(std::uint32_t g, double now) {
  const Group& G = group_[g];
  if (G.heap.empty() || !(G.level > 0)) {
    if (ends_.contains(g)) ends_.erase(g);
    return;
  }
  const double left = std::max(0.0, G.heap.front().end - G.clock);
  ends_.set(g, std::isinf(G.level) ? now : now + left / G.level);
}

void GroupClocks::join(std::uint32_t var, std::uint32_t g, double bits, double weight, double level, double now) {
  grow_group(g);
  grow_var(var);
  Group& G = group_[g];
  if (G.heap.empty()) {  // a group new to the clocks: its clock starts now
    G.clock = 0;
    G.last = now;
    G.level = level;
    G.weight = 0;
  } else {
    settle(g, now);
  }
  group_of_[var] = g;
  weight_[var] = weight;
  G.weight += weight;
  if (std::isfinite(G.level)) gbps_.add(weight * G.level);
  ++members_;
  G.heap.push_back({G.clock + bits / (weight * 1e9), var});
  pos_[var] = static_cast<std::uint32_t>(G.heap.size() - 1);
  sift_up(G, G.heap.size() - 1);
  rekey(g, now);
}

double GroupClocks::bits_left(std::uint32_t var, double now) const {
  const Group& G = group_[group_of_[var]];
  const double clock = G.clock + (std::isfinite(G.level) && now > G.last ? G.level * (now - G.last) : 0.0);
  if (std::isinf(G.level)) return 0.0;
  return std::max(0.0, G.heap[pos_[var]].end - clock) * weight_[var] * 1e9;
}

double GroupClocks::leave(std::uint32_t var, double now) {
  const std::uint32_t g = group_of_[var];
  settle(g, now);
  const double bits = bits_left(var, now);
  Group& G = group_[g];
  const std::size_t at = pos_[var];
  const Entry last = G.heap.back();
  G.heap.pop_back();
  if (at < G.heap.size()) {
    place(G, at, last);
    sift_up(G, at);
    sift_down(G, pos_[last.var]);
  }
  group_of_[var] = kNone;
  G.weight = G.heap.empty() ? 0.0 : G.weight - weight_[var];
  if (std::isfinite(G.level)) gbps_.add(-weight_[var] * G.level);
  if (--members_ == 0) gbps_.reset();
  rekey(g, now);
  return bits;
}

void GroupClocks::set_level(std::uint32_t g, double level, double now) {
  grow_group(g);
  Group& G = group_[g];
  if (G.heap.empty()) {
    G.level = level;
    return;
  }
  settle(g, now);
  if (std::isfinite(G.level)) gbps_.add(-G.weight * G.level);
  G.level = level;
  if (std::isfinite(G.level)) gbps_.add(G.weight * G.level);
  rekey(g, now);
}

double GroupClocks::next_time() { return ends_.empty() ? kNoEnd : ends_.top_key(); }

std::uint32_t GroupClocks::next_var() { return group_[ends_.top()].heap.front().var; }

void GroupClocks::place(Group& G, std::size_t i, const Entry& e) {
  G.heap[i] = e;
  pos_[e.var] = static_cast<std::uint32_t>(i);
}

void GroupClocks::sift_up(Group& G, std::size_t i) {
  const Entry e = G.heap[i];
  while (i > 0) {
    const std::size_t parent = (i - 1) / 2;
    if (!before(e, G.heap[parent])) break;
    place(G, i, G.heap[parent]);
    i = parent;
  }
  place(G, i, e);
}

void GroupClocks::sift_down(Group& G, std::size_t i) {
  const Entry e = G.heap[i];
  const std::size_t n = G.heap.size();
  for (;;) {
    std::size_t child = 2 * i + 1;
    if (child >= n) break;
    if (child + 1 < n && before(G.heap[child + 1], G.heap[child])) ++child;
    if (!before(G.heap[child], e)) break;
    place(G, i, G.heap[child]);
    i = child;
  }
  place(G, i, e);
}

}  // namespace interflow::flow
