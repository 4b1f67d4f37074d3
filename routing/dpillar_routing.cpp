// Routings for DPillar (topologies/dpillar.hpp). A server hop crosses one switch of S_i and may set
// label digit i to any value: from column c, "clockwise" through S_c to H_{c+1}, "anticlockwise"
// through S_{c-1} to H_{c-1}, or through either switch and back into H_c ("stay", which also fixes
// that switch column's digit). A hop is always 2 links.
//   dpillar       a shortest path (the optimum that Erickson, Kiasari, Navaridas, Stewart, "An optimal
//                 single-path routing algorithm in the datacenter network DPillar", IEEE TPDS 28(3),
//                 2017, compute). Derived here: lift the walk on the ring of columns to the integers;
//                 it visits an interval [L,R] around the source and ends at a lift T of the
//                 destination column. It crosses every switch column inside [L,R) and can fix the two
//                 just outside with one stay each; every differing digit must be fixed. Enumerating
//                 L, R (R - L <= k) and T gives the cheapest such walk in O(k^2).
//   dpillar-orig  the original routing of Liao et al. (ICCCN 2010 / Computer Networks 2012): helix
//                 phase clockwise, fixing each digit as its switch column is crossed, until the label
//                 equals the destination's; then ring phase to the destination column in the shorter
//                 direction (ties clockwise), leaving the label unchanged. When the ring phase turns
//                 back through the switch the helix just crossed, those two hops become one stay hop,
//                 so paths never revisit a switch.
// Every crossing sets the crossed column's digit to the destination's value. Single paths with split 1;
// a failed link on the path makes the flow unroutable.
#include <cstdint>
#include <limits>

#include "routing/registry.hpp"
#include "topologies/dpillar.hpp"

namespace interflow::routing {

namespace {

// Walks a server through DPillar, pushing the links of each hop.
class DPillarWalker {
 public:
  DPillarWalker(const topo::DPillarTopology& t, const Network& net, PathSink& sink, EndpointId src, EndpointId dst)
      : t_(t), net_(net), sink_(sink), column_(t.column_of(src)), label_(t.label_of(src)), target_(t.label_of(dst)) {}

  std::uint32_t column() const { return column_; }
  std::uint32_t label() const { return label_; }
  bool ok() const { return ok_; }

  // Through the clockwise switch (S_c); `move` false comes back into H_c.
  void clockwise(bool move) { hop(column_, 0, move ? (column_ + 1) % t_.k() : column_, move ? t_.m() : 0); }
  // Through the anticlockwise switch (S_{c-1}); `move` false comes back into H_c.
  void anticlockwise(bool move) {
    const std::uint32_t prev = (column_ + t_.k() - 1) % t_.k();
    hop(prev, 1, move ? prev : column_, move ? 0 : t_.m());
  }

 private:
  // Leave on server port `out_port` to the switch of column `sw`, set digit sw to the destination's,
  // arrive in column `to` (switch port side offset `side`: 0 for H_sw, m for H_sw+1).
  void hop(std::uint32_t sw, std::uint32_t out_port, std::uint32_t to, std::uint32_t side) {
    if (!ok_) return;
    const VertexId here = t_.server(column_, label_);
    const VertexId sw_vertex = t_.switch_vertex(sw, label_);
    const std::uint32_t want = t_.digit(target_, sw);
    label_ = static_cast<std::uint32_t>(label_ - t_.digit(label_, sw) * t_.pow_m(sw) + want * t_.pow_m(sw));
    column_ = to;
    ok_ = push_or_drop(net_, net_.out_begin(here) + out_port, sink_) &&
          push_or_drop(net_, net_.out_begin(sw_vertex) + side + want, sink_);
  }

  const topo::DPillarTopology& t_;
  const Network& net_;
  PathSink& sink_;
  std::uint32_t column_, label_, target_;
  bool ok_ = true;
};

class DPillarShortestRouting : public PerFlowRouting {
 public:
  explicit DPillarShortestRouting(const topo::DPillarTopology& t) : t_(t) {}

  void route(const Network& net, EndpointId src, EndpointId dst, std::uint64_t, PathSink& sink) const override {
    if (src == dst) return;
    const int k = static_cast<int>(t_.k());
    const int cs = static_cast<int>(t_.column_of(src));
    const int t0 = (static_cast<int>(t_.column_of(dst)) - cs + k) % k;
    const std::uint32_t xs = t_.label_of(src), xd = t_.label_of(dst);
    std::uint64_t differ = 0;  // bit i: digit i must change (switch column S_i must be crossed)
    for (std::uint32_t i = 0; i < t_.k(); ++i)
      if (t_.digit(xs, i) != t_.digit(xd, i)) differ |= 1ULL << i;
    const auto col = [&](int p) { return static_cast<std::uint32_t>(((cs + p) % k + k) % k); };

    struct Plan {
      int left = 0, right = 0, end = 0;
      bool left_first = true, stay_left = false, stay_right = false;
    } best;
    int best_cost = std::numeric_limits<int>::max();
    // Ties: the first plan found, L from 0 down to -k, R upwards, T upwards, left-first before right-first.
    std::uint64_t left_part = 0;  // switch columns crossed inside [left, 0)
    for (int left = 0; left >= -k; --left) {
      if (left < 0) left_part |= 1ULL << col(left);
      std::uint64_t covered = left_part;  // switch columns crossed inside [left, right)
      for (int right = 0; right <= left + k; ++right) {
        if (right > 0) covered |= 1ULL << col(right - 1);
        std::uint64_t need = differ & ~covered;
        const std::uint64_t left_bit = 1ULL << col(left - 1), right_bit = 1ULL << col(right);
        const bool stay_left = (need & left_bit) != 0;
        need &= ~left_bit;
        const bool stay_right = (need & right_bit) != 0;
        need &= ~right_bit;
        if (need != 0) continue;
        for (int end = t0 - k; end <= t0 + k; end += k) {
          if (end < left || end > right) continue;
          const int stays = (stay_left ? 1 : 0) + (stay_right ? 1 : 0);
          const int left_first = -left + (right - left) + (right - end) + stays;
          const int right_first = right + (right - left) + (end - left) + stays;
          if (left_first < best_cost) {
            best_cost = left_first;
            best = {left, right, end, true, stay_left, stay_right};
          }
          if (right_first < best_cost) {
            best_cost = right_first;
            best = {left, right, end, false, stay_left, stay_right};
          }
        }
      }
    }

    DPillarWalker walk(t_, net, sink, src, dst);
    auto go = [&](int from, int to) {
      for (; from < to; ++from) walk.clockwise(true);
      for (; from > to; --from) walk.anticlockwise(true);
    };
    if (best.left_first) {
      go(0, best.left);
      if (best.stay_left) walk.anticlockwise(false);
      go(best.left, best.right);
      if (best.stay_right) walk.clockwise(false);
      go(best.right, best.end);
    } else {
      go(0, best.right);
      if (best.stay_right) walk.clockwise(false);
      go(best.right, best.left);
      if (best.stay_left) walk.anticlockwise(false);
      go(best.left, best.end);
    }
    if (walk.ok()) sink.commit(1.0);
  }

 private:
  const topo::DPillarTopology& t_;
};

class DPillarOriginalRouting : public PerFlowRouting {
 public:
  explicit DPillarOriginalRouting(const topo::DPillarTopology& t) : t_(t) {}

  void route(const Network& net, EndpointId src, EndpointId dst, std::uint64_t, PathSink& sink) const override {
    if (src == dst) return;
    const std::uint32_t xd = t_.label_of(dst), cd = t_.column_of(dst), k = t_.k();
    // Helix phase: clockwise, fixing each crossed column's digit, until the label is the
    // destination's (at most k hops). Counted first, so the ring phase direction is known.
    std::uint32_t helix = 0;
    for (std::uint32_t label = t_.label_of(src), column = t_.column_of(src); label != xd; ++helix) {
      label = static_cast<std::uint32_t>(label - t_.digit(label, column) * t_.pow_m(column) +
                                         t_.digit(xd, column) * t_.pow_m(column));
      column = (column + 1) % k;
    }
    const std::uint32_t forward = (cd + k - (t_.column_of(src) + helix) % k) % k;  // ring phase, clockwise hops
    const bool back = forward > k - forward;
    DPillarWalker walk(t_, net, sink, src, dst);
    if (back && helix > 0) {
      // The ring phase would go straight back through the switch the last helix hop crossed
      // (A -> X -> B -> X -> C): take the stay hop A -> X -> C instead, so the path stays simple.
      for (std::uint32_t i = 0; i + 1 < helix; ++i) walk.clockwise(true);
      walk.clockwise(false);
      for (std::uint32_t i = 0; i + 1 < k - forward; ++i) walk.anticlockwise(true);
    } else {
      for (std::uint32_t i = 0; i < helix; ++i) walk.clockwise(true);
      if (back)
        for (std::uint32_t i = 0; i < k - forward; ++i) walk.anticlockwise(true);
      else
        for (std::uint32_t i = 0; i < forward; ++i) walk.clockwise(true);
    }
    if (walk.ok()) sink.commit(1.0);
  }

 private:
  const topo::DPillarTopology& t_;
};

}  // namespace

void register_dpillar_routing(RoutingRegistry& registry) {
  registry.add({"dpillar",
                "shortest-path single-path routing for DPillar (the optimum of Erickson et al. 2017)",
                {},
                [](const ParamSet&, const Topology& t) -> std::unique_ptr<Routing> {
                  return std::make_unique<DPillarShortestRouting>(
                      require_family<topo::DPillarTopology>(t, "dpillar", "dpillar"));
                },
                "Returns a shortest server-to-server path, the optimum computed by Erickson, Kiasari, Navaridas, "
                "Stewart, 'An optimal single-path routing algorithm in the datacenter network DPillar', IEEE TPDS "
                "28(3), 2017. Their case analysis is not reproduced; the path is found by an equivalent O(k^2) "
                "search: the walk around the ring of columns, lifted to the integers, visits an interval [L,R] "
                "around the source and ends at a lift T of the destination column; it crosses every switch column "
                "in [L,R) and fixes the columns just outside with one extra 'stay' hop each (out through a switch "
                "and back into the same column). Every differing digit's column must be crossed. Cost: the walk "
                "s -> L -> R -> T or s -> R -> L -> T plus the stays. Among equal-length paths the first found "
                "wins (L from 0 down to -k, then R upwards, T upwards, left-first before right-first), so the path "
                "may differ from Erickson et al.'s while its length is the same. Every crossing sets the crossed "
                "column's digit to the destination's. Deterministic; a failed link makes the flow unroutable."});
  registry.add({"dpillar-orig",
                "the original DPillar routing (Liao et al. 2010/2012): clockwise helix phase, then shorter ring phase",
                {},
                [](const ParamSet&, const Topology& t) -> std::unique_ptr<Routing> {
                  return std::make_unique<DPillarOriginalRouting>(
                      require_family<topo::DPillarTopology>(t, "dpillar-orig", "dpillar"));
                },
                "Liao, Yin, Gao, ICCCN 2010; Liao, Yin, Yin, Gao, Computer Networks 56(8), 2012, single-path "
                "routing. Helix phase: move clockwise (H_c -> S_c -> H_{c+1}), setting digit c to the destination's "
                "at each switch column, until the label equals the destination's. Ring phase: move to the "
                "destination column in the shorter direction around the ring (ties clockwise). When the ring phase "
                "would turn straight back through the switch the last helix hop crossed (A -> X -> B -> X -> C), "
                "those two hops become one stay hop A -> X -> C, so paths never revisit a switch. At most "
                "k + floor(k/2) server hops = 2 (k + floor(k/2)) links. Deterministic; a failed link makes the flow "
                "unroutable."});
}

}  // namespace interflow::routing
