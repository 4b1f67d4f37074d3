// 'updown': the multipath up*/down* routing of k-ary and k:k'-ary n-trees (topologies/tree.hpp), the
// tree's own ECMP. A flow may climb through any of the k' up ports at each level below the level of
// the lowest common ancestors (LCA) of the two leaves, then descends on the unique path; so it has
// P = k'^(LCA level) shortest paths, all of the same length, one per choice of up ports. With P <=
// max_paths every path carries 1/P. With more, max_paths walks at the quantiles u = (i + o) /
// max_paths (o in [0, 1) drawn per flow from the run seed) take up port floor(u k') at each level
// and go on with u k' - floor(u k'), each carrying 1/max_paths (equal walks merged), as 'ecmp' does.
// Paths crossing a failed link are left out and the others share the flow; with none left the flow is
// unroutable. Link ids come from the tree's dense port layout, never from a search.
#include <array>
#include <memory>

#include "core/random.hpp"
#include "routing/registry.hpp"
#include "topologies/tree.hpp"

namespace interflow::routing {

namespace {

using Choices = std::array<std::uint32_t, topo::TreeTopology::kMaxLevels>;

class TreeAllUpRouting : public PerFlowRouting {
 public:
  TreeAllUpRouting(const topo::TreeTopology& tree, std::uint32_t max_paths) : tree_(tree), max_paths_(max_paths) {}

  bool multipath() const override { return true; }

  void route(const Network& net, EndpointId src, EndpointId dst, std::uint64_t flow_seed,
             PathSink& sink) const override {
    if (src == dst) return;
    const std::uint32_t top = tree_.lca_level(src, dst);
    double paths = 1;
    for (std::uint32_t l = 0; l < top; ++l) paths *= tree_.kp();
    const bool all = paths <= max_paths_;
    const std::uint32_t walks = all ? static_cast<std::uint32_t>(paths) : max_paths_;
    const double offset = all ? 0.0 : Rng(flow_seed).uniform();
    // Pass 1: the weight of the usable paths; pass 2: emit them with their share.
    double usable = 0;
    for (int pass = 0; pass < 2; ++pass) {
      Choices previous{}, current{};
      std::uint32_t repeat = 0;
      for (std::uint32_t i = 0; i <= walks; ++i) {
        if (i < walks) {
          choose(i, walks, all, offset, top, current);
          if (i > 0 && std::equal(current.begin(), current.begin() + top, previous.begin())) {
            ++repeat;
            continue;
          }
        }
        if (i > 0 && up(net, src, dst, top, previous)) {  // flush the previous walk and its repeats
          if (pass == 0) {
            usable += repeat;
          } else {
            push(net, src, dst, top, previous, sink);
            sink.commit(repeat / usable);
          }
        }
        previous = current;
        repeat = 1;
      }
      if (usable == 0) return;  // every path crosses a failed link: unroutable
    }
  }

 private:
  // The up ports of path i: its mixed-radix digits when all paths are taken, else a quantile walk.
  void choose(std::uint32_t i, std::uint32_t walks, bool all, double offset, std::uint32_t top, Choices& c) const {
    const std::uint32_t kp = tree_.kp();
    double u = (i + offset) / walks;
    for (std::uint32_t l = 0; l < top; ++l) {
      if (all) {
        c[l] = i % kp;
        i /= kp;
      } else {
        c[l] = std::min(kp - 1, static_cast<std::uint32_t>(u * kp));
        u = u * kp - c[l];
      }
    }
  }

  // Visits the links of the path with up ports c, in order; stops early when visit returns false.
  template <class Visit>
  bool walk(const Network& net, EndpointId src, EndpointId dst, std::uint32_t top, const Choices& c,
            Visit visit) const {
    const std::uint32_t k = tree_.k();
    if (!visit(net.out_begin(net.endpoint_vertex(src)))) return false;
    std::uint32_t index = tree_.leaf_index(src), level = 0;
    for (; level < top; ++level) {
      if (!visit(net.out_begin(tree_.switch_vertex(level, index)) + k + c[level])) return false;
      index = tree_.up_index(level, index, c[level]);
    }
    for (; level > 0; --level) {
      const std::uint32_t p = digit(dst, level);
      if (!visit(net.out_begin(tree_.switch_vertex(level, index)) + p)) return false;
      index = tree_.down_index(level, index, p);
    }
    return visit(net.out_begin(tree_.switch_vertex(0, index)) + digit(dst, 0));
  }
  bool up(const Network& net, EndpointId src, EndpointId dst, std::uint32_t top, const Choices& c) const {
    return walk(net, src, dst, top, c, [&](LinkId l) { return net.up(l); });
  }
  void push(const Network& net, EndpointId src, EndpointId dst, std::uint32_t top, const Choices& c,
            PathSink& sink) const {
    walk(net, src, dst, top, c, [&](LinkId l) {
      sink.push(l);
      return true;
    });
  }
  std::uint32_t digit(EndpointId e, std::uint32_t position) const {
    return static_cast<std::uint32_t>((e / tree_.pow_k(position)) % tree_.k());
  }

  const topo::TreeTopology& tree_;
  std::uint32_t max_paths_;
};

}  // namespace

void register_tree_multipath(RoutingRegistry& registry) {
  registry.add(
      {"updown",
       "multipath up*/down* for fattree and thintree: every up port at every level (the tree's ECMP)",
       {int_param("max_paths", "64", "most paths (max-min variables) per flow", 1, 1 << 16)},
       [](const ParamSet& p, const Topology& t) -> std::unique_ptr<Routing> {
         const auto& tree = require_family<topo::TreeTopology>(t, "updown", "fattree or thintree");
         return std::make_unique<TreeAllUpRouting>(tree, static_cast<std::uint32_t>(p.get_int("max_paths")));
       },
       "A flow may climb through any of the k' up ports at each level below the level of the lowest common "
       "ancestors of the two leaves, then descends on the unique path: P = k'^(LCA level) shortest paths, one "
       "per choice of up ports. With P <= max_paths each carries 1/P. With more, max_paths walks at the "
       "quantiles u = (i + o) / max_paths (o in [0, 1) drawn per flow from the run seed) take up port "
       "floor(u k') at each level and go on with u k' - floor(u k'), each carrying 1/max_paths, equal walks "
       "merged (as 'ecmp'). Paths crossing a failed link are left out and the others share the flow; with none "
       "left the flow is unroutable. Each path is one max-min variable; the flow's rate is their sum. Without "
       "failures the same paths and splits as 'ecmp' on a tree, computed from the labels instead of a search "
       "('ecmp' recomputes its DAG around failed links, 'updown' drops the affected paths and rescales)."});
}

}  // namespace interflow::routing
