// Up*/down* routings for k-ary n-trees and k:k'-ary n-trees (topologies/tree.hpp). A flow climbs from
// the source's leaf to the level of the lowest common ancestors of the two leaves, choosing one up
// port per level, then descends along the unique path to the destination: at level m it takes down
// port e_m, the destination's base-k digit m. The routings differ only in the up port chosen at
// level l:
//   dmodk   destination digit e_l mod k' (d-mod-k; on a fattree this spreads any shift permutation
//           over disjoint links: Zahavi et al., "Optimized InfiniBand fat-tree routing for shift
//           all-to-all communication patterns", 2010);
//   smodk   source digit s_l mod k';
//   random  uniform over the k' up ports, drawn from the flow's own seeded stream.
// Link ids are computed as out_begin(switch) + port (the tree's dense port layout), never searched.
#include "core/random.hpp"
#include "routing/registry.hpp"
#include "topologies/tree.hpp"

namespace interflow::routing {

namespace {

enum class UpChoice { DestinationDigit, SourceDigit, Random };

class TreeUpDownRouting : public PerFlowRouting {
 public:
  TreeUpDownRouting(const topo::TreeTopology& tree, UpChoice choice) : tree_(tree), choice_(choice) {}

  void route(const Network& net, EndpointId src, EndpointId dst, std::uint64_t flow_seed,
             PathSink& sink) const override {
    if (src == dst) return;  // nothing to route: the engines count self flows apart
    const std::uint32_t k = tree_.k();
    const std::uint32_t kp = tree_.kp();
    const std::uint32_t top = tree_.lca_level(src, dst);
    Rng rng(flow_seed);

    if (!push_or_drop(net, net.out_begin(net.endpoint_vertex(src)), sink)) return;
    std::uint32_t index = tree_.leaf_index(src);
    std::uint32_t level = 0;
    for (; level < top; ++level) {
      std::uint32_t j = 0;
      switch (choice_) {
        case UpChoice::DestinationDigit:
          j = digit(dst, level) % kp;
          break;
        case UpChoice::SourceDigit:
          j = digit(src, level) % kp;
          break;
        case UpChoice::Random:
          j = static_cast<std::uint32_t>(rng.below(kp));
          break;
      }
      if (!push_or_drop(net, net.out_begin(tree_.switch_vertex(level, index)) + k + j, sink)) return;
      index = tree_.up_index(level, index, j);
    }
    for (; level > 0; --level) {
      const std::uint32_t p = digit(dst, level);
      if (!push_or_drop(net, net.out_begin(tree_.switch_vertex(level, index)) + p, sink)) return;
      index = tree_.down_index(level, index, p);
    }
    if (!push_or_drop(net, net.out_begin(tree_.switch_vertex(0, index)) + digit(dst, 0), sink)) return;
    sink.commit(1.0);
  }

 private:
  std::uint32_t digit(EndpointId e, std::uint32_t position) const {
    return static_cast<std::uint32_t>((e / tree_.pow_k(position)) % tree_.k());
  }

  const topo::TreeTopology& tree_;
  UpChoice choice_;
};

RoutingRegistry::Factory make(UpChoice choice, const char* name) {
  return [choice, name](const ParamSet&, const Topology& t) -> std::unique_ptr<Routing> {
    const auto& tree = require_family<topo::TreeTopology>(t, name, "fattree or thintree");
    return std::make_unique<TreeUpDownRouting>(tree, choice);
  };
}

const char* const kCommon =
    " The flow climbs from the source's leaf to the level of the lowest common ancestors of the two "
    "leaves (0 on the same leaf, else one more than the highest leaf-label digit where they differ), then "
    "descends on the unique path to the destination, taking down port e_m (the destination's base-k "
    "digit m) at level m; a path has 2 (LCA level + 1) links. A single path with split 1. A flow whose "
    "path crosses a failed link is unroutable (no alternative path is tried).";

}  // namespace

void register_tree_routing(RoutingRegistry& registry) {
  registry.add({"dmodk",
                "destination-mod-k up*/down* routing for fattree and thintree",
                {},
                make(UpChoice::DestinationDigit, "dmodk"),
                std::string("Going up from level l the flow takes up port e_l mod k', where e_l is the destination's "
                            "base-k digit l (on a fattree simply e_l = (dst / k^l) mod k). On a fattree every shift "
                            "permutation then uses each link at most once (Zahavi et al. 2010).") +
                    kCommon});
  registry.add({"smodk",
                "source-mod-k up*/down* routing for fattree and thintree",
                {},
                make(UpChoice::SourceDigit, "smodk"),
                std::string("Going up from level l the flow takes up port s_l mod k', where s_l is the source's "
                            "base-k digit l.") +
                    kCommon});
  registry.add({"random-up",
                "up*/down* routing with a random up port per level, for fattree and thintree",
                {},
                make(UpChoice::Random, "random-up"),
                std::string("At each level on the way up the flow takes one of the k' up ports uniformly at random, "
                            "drawn from its own stream (derived from the run seed and the flow's index), so the "
                            "same seed gives the same paths whatever the thread count.") +
                    kCommon});
}

}  // namespace interflow::routing
