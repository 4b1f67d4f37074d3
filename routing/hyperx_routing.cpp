// Minimal routings for HyperX and the flattened butterfly (topologies/hyperx.hpp). Both correct
// each coordinate in which the routers of source and destination differ with one hop straight to the
// destination's value, so a path has (differing coordinates) + 2 links.
//   hxdor          dimension order: dimensions 0, 1, .. in turn (Ahn et al. 2009, section 4.1).
//   hxminadaptive  minimal adaptive: at every router the flow takes, among the links that correct a
//                  still-differing coordinate, the one crossed by the fewest paths placed so far.
// Among the K parallel cables of a router pair, hxdor takes cable dst mod K. Link ids are computed
// from the port layout (out_begin(router) + port), never searched.
#include <numeric>
#include <vector>

#include "routing/registry.hpp"
#include "topologies/hyperx.hpp"

namespace interflow::routing {

namespace {

class HyperXDimensionOrder : public PerFlowRouting {
 public:
  explicit HyperXDimensionOrder(const topo::HyperXTopology& hx) : hx_(hx) {}

  void route(const Network& net, EndpointId src, EndpointId dst, std::uint64_t, PathSink& sink) const override {
    if (src == dst) return;
    if (!push_or_drop(net, net.out_begin(net.endpoint_vertex(src)), sink)) return;
    std::uint32_t at = hx_.router_of(src);
    const std::uint32_t target = hx_.router_of(dst);
    const std::uint32_t m = dst % hx_.parallel();
    for (std::uint32_t d = 0; d < hx_.num_dims(); ++d) {
      const std::uint32_t to = hx_.coordinate(target, d);
      if (hx_.coordinate(at, d) == to) continue;
      if (!push_or_drop(net, net.out_begin(hx_.router_vertex(at)) + hx_.port_towards(at, d, to, m), sink)) return;
      at = hx_.with_coordinate(at, d, to);
    }
    if (!push_or_drop(net, net.out_begin(hx_.router_vertex(at)) + dst % hx_.endpoints_per_router(), sink)) return;
    sink.commit(1.0);
  }

 private:
  const topo::HyperXTopology& hx_;
};

class HyperXMinimalAdaptive : public LoadAwareRouting {
 public:
  explicit HyperXMinimalAdaptive(const topo::HyperXTopology& hx) : hx_(hx) {}

  // At every router, the least-loaded up link among all that correct a still-differing coordinate;
  // ties to the lowest dimension, then the lowest parallel cable. Unroutable when every such link
  // is down.
  void route(const Network& net, EndpointId src, EndpointId dst, std::uint64_t, std::span<const std::uint32_t> placed,
             PathSink& sink) const override {
    if (!push_or_drop(net, net.out_begin(net.endpoint_vertex(src)), sink)) return;
    std::uint32_t at = hx_.router_of(src);
    const std::uint32_t target = hx_.router_of(dst);
    while (at != target) {
      LinkId best = kNone;
      std::uint32_t best_dim = 0;
      const LinkId base = net.out_begin(hx_.router_vertex(at));
      for (std::uint32_t d = 0; d < hx_.num_dims(); ++d) {
        const std::uint32_t to = hx_.coordinate(target, d);
        if (hx_.coordinate(at, d) == to) continue;
        for (std::uint32_t m = 0; m < hx_.parallel(); ++m) {
          const LinkId l = base + hx_.port_towards(at, d, to, m);
          if (net.up(l) && (best == kNone || placed[l] < placed[best])) best = l, best_dim = d;
        }
      }
      if (!push_or_drop(net, best, sink)) return;
      at = hx_.with_coordinate(at, best_dim, hx_.coordinate(target, best_dim));
    }
    if (!push_or_drop(net, net.out_begin(hx_.router_vertex(at)) + dst % hx_.endpoints_per_router(), sink)) return;
    sink.commit(1.0);
  }

 private:
  const topo::HyperXTopology& hx_;
};

const char* const kFamilies = "hyperx or flatbutterfly";

}  // namespace

void register_hyperx_routing(RoutingRegistry& registry) {
  registry.add({"hxdor",
                "dimension-order minimal routing for hyperx and flatbutterfly",
                {},
                [](const ParamSet&, const Topology& t) -> std::unique_ptr<Routing> {
                  return std::make_unique<HyperXDimensionOrder>(
                      require_family<topo::HyperXTopology>(t, "hxdor", kFamilies));
                },
                "Ahn et al., SC 2009, section 4.1 (dimension-order routing): from the source's router the flow "
                "corrects dimensions 0, 1, .., L-1 in turn, each differing coordinate with a single hop straight "
                "to the destination router's value (every row is a complete graph), then takes the destination's "
                "endpoint port. Among the K parallel cables of a router pair it takes cable number dst mod K. A "
                "path has H + 2 links, H the number of differing coordinates (at most L). One path, split 1; a "
                "flow whose path crosses a failed link is unroutable."});
  registry.add({"hxminadaptive",
                "minimal adaptive routing for hyperx and flatbutterfly, per flow from the paths already placed",
                {},
                [](const ParamSet&, const Topology& t) -> std::unique_ptr<Routing> {
                  return std::make_unique<HyperXMinimalAdaptive>(
                      require_family<topo::HyperXTopology>(t, "hxminadaptive", kFamilies));
                },
                "Static-engine stand-in for HyperX minimal adaptive routing (Ahn et al., SC 2009, section 4): "
                "flows are routed one after another in flow-index order while a per-link count of the paths "
                "placed so far is kept. At each router the flow considers every link that corrects a coordinate "
                "still differing from the destination router (one per differing dimension and parallel cable) "
                "and takes the one with the lowest count, ties to the lowest dimension and then the lowest "
                "cable; links that are down are skipped, and a flow with no usable minimal link is unroutable. "
                "Paths stay minimal (H + 2 links). Routing is sequential, so the table is the same for any "
                "thread count."});
}

}  // namespace interflow::routing
