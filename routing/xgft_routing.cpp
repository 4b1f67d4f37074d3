// Up*/down* routings for the extended generalized fat tree (topologies/xgft.hpp, families xgft and
// gtree). A flow climbs from its source endpoint to the level L of the lowest common ancestors (the
// highest base-m digit where source and destination differ), choosing an up port at each level, then
// descends on the only way down: at level l it takes a cable to child d_l, the destination's digit l.
// The routings differ in the up port q (parent q / c_{l+1}, parallel cable q mod c_{l+1}) taken
// at level l, out of w_{l+1} c_{l+1}, and in the parallel cable t taken going down from level l:
//   xgftdmodk   q = (d / U_l) mod (w_{l+1} c_{l+1}), t = (d / U_{l-1}) mod c_l, where U_l = prod_{i<=l}
//               w_i c_i (Rodriguez, Minkenberg, Beivide, Luijten, Labarta, Valero, "Oblivious routing
//               schemes in extended generalized fat tree networks", 2009: D-mod-K);
//   xgftsmodk   the same with the source s in place of d (S-mod-K);
//   xgftrandom  q and t uniform, from the flow's own seeded stream.
// Link ids are computed as out_begin(node) + port, never searched.
#include "core/random.hpp"
#include "routing/registry.hpp"
#include "topologies/xgft.hpp"

namespace interflow::routing {

namespace {

enum class XgftChoice { Destination, Source, Random };

class XgftUpDownRouting : public PerFlowRouting {
 public:
  XgftUpDownRouting(const topo::XgftTopology& tree, XgftChoice choice) : tree_(tree), choice_(choice) {}

  void route(const Network& net, EndpointId src, EndpointId dst, std::uint64_t flow_seed,
             PathSink& sink) const override {
    if (src == dst) return;
    const std::uint32_t top = tree_.lca_level(src, dst);
    const std::uint64_t key = choice_ == XgftChoice::Source ? src : dst;
    Rng rng(flow_seed);
    std::uint32_t index = src;  // level-0 index of an endpoint is its id
    std::uint32_t level = 0;
    for (; level < top; ++level) {
      const std::uint32_t choices = tree_.up_choices(level);
      const auto q = static_cast<std::uint32_t>(choice_ == XgftChoice::Random ? rng.below(choices)
                                                                              : (key / tree_.up_span(level)) % choices);
      const LinkId l = net.out_begin(tree_.vertex(level, index)) + tree_.down_ports(level) + q;
      if (!push_or_drop(net, l, sink)) return;
      index = tree_.parent_index(level, index, q / tree_.c(level + 1));
    }
    for (; level > 0; --level) {
      const std::uint32_t a = tree_.endpoint_digit(dst, level);
      const std::uint32_t mult = tree_.c(level);
      const auto t = static_cast<std::uint32_t>(
          choice_ == XgftChoice::Random ? rng.below(mult) : (key / tree_.up_span(level - 1)) % mult);
      if (!push_or_drop(net, net.out_begin(tree_.vertex(level, index)) + a * mult + t, sink)) return;
      index = tree_.child_index(level, index, a);
    }
    sink.commit(1.0);
  }

 private:
  const topo::XgftTopology& tree_;
  XgftChoice choice_;
};

RoutingRegistry::Factory make(XgftChoice choice, const char* name) {
  return [choice, name](const ParamSet&, const Topology& t) -> std::unique_ptr<Routing> {
    return std::make_unique<XgftUpDownRouting>(require_family<topo::XgftTopology>(t, name, "xgft or gtree"), choice);
  };
}

const char* const kCommon =
    " The flow climbs from the source endpoint to level L, the highest position where the base-(m_1, m_2, ..) "
    "digits of source and destination differ (their lowest common ancestors), then descends on the only way "
    "down, taking at level l a cable to child d_l (the destination's digit l); a path has 2L links. The up port "
    "q at level l (0 = the endpoint) is one of w_{l+1} c_{l+1}: parent q / c_{l+1}, parallel cable q mod "
    "c_{l+1}. One path with split 1; a flow whose path crosses a failed link is unroutable.";

}  // namespace

void register_xgft_routing(RoutingRegistry& registry) {
  registry.add({"xgftdmodk",
                "destination-mod-k up*/down* routing for xgft and gtree",
                {},
                make(XgftChoice::Destination, "xgftdmodk"),
                std::string("D-mod-K of Rodriguez et al. 2009: going up from level l the flow takes up port q = (d / "
                            "U_l) mod (w_{l+1} c_{l+1}), U_l = prod_{i<=l} w_i c_i; going down from level l it takes "
                            "parallel cable (d / U_{l-1}) mod c_l. On XGFT(n; k..k; 1,k..k) (the k-ary n-tree) this "
                            "is exactly dmodk, which gives every shift permutation disjoint links.") +
                    kCommon});
  registry.add(
      {"xgftsmodk",
       "source-mod-k up*/down* routing for xgft and gtree",
       {},
       make(XgftChoice::Source, "xgftsmodk"),
       std::string("S-mod-K of Rodriguez et al. 2009: as xgftdmodk with the source id s in place of d.") + kCommon});
  registry.add({"xgftrandom",
                "up*/down* routing with random up ports, for xgft and gtree",
                {},
                make(XgftChoice::Random, "xgftrandom"),
                std::string("Every up port, and every parallel cable going down, is drawn uniformly from the flow's "
                            "own stream (derived from the run seed and the flow's index), so the same seed gives the "
                            "same paths whatever the thread count.") +
                    kCommon});
}

}  // namespace interflow::routing
