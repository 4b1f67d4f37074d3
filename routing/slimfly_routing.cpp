// Routings for the Slim Fly (topologies/slimfly.hpp), after Besta & Hoefler 2014 §IV:
//   sfmin      minimal: the MMS graph has diameter 2, so a flow crosses one router link when the two
//              routers are adjacent, else two, through a middle router computed from the structure.
//   sfvaliant  Valiant: minimal to a random intermediate router, then minimal to the destination
//              (at most 4 router hops).
// Link ids are computed from the router port layout, never searched.
#include <algorithm>

#include "core/random.hpp"
#include "routing/registry.hpp"
#include "topologies/slimfly.hpp"

namespace interflow::routing {

namespace {

class SlimFlyPaths {
 public:
  explicit SlimFlyPaths(const topo::SlimFlyTopology& sf) : sf_(sf) {}

  // A router adjacent to both r and t (r, t distinct and not adjacent), or kNone.
  std::uint32_t middle(std::uint32_t r, std::uint32_t t) const {
    const auto& f = sf_.field();
    const std::uint32_t sr = sf_.subgraph(r), st = sf_.subgraph(t);
    const std::uint32_t ar = sf_.first_coord(r), br = sf_.second_coord(r);
    const std::uint32_t at = sf_.first_coord(t), bt = sf_.second_coord(t);
    if (sr == st && ar == at) {
      // Same column: b_t - b_r = g + g' with g, g' generators; the first g of the set that works.
      const std::uint32_t d = f.sub(bt, br);
      for (std::uint32_t g : sf_.generators(sr))
        if (sf_.generator_index(sr, f.sub(d, g)) != kNone) return sf_.router(sr, ar, f.add(br, g));
      return kNone;
    }
    if (sr == 0 && st == 0) {  // the unique (1,m,c) on both lines: m = (y - y') / (x - x')
      const std::uint32_t m = f.div(f.sub(br, bt), f.sub(ar, at));
      return sf_.router(1, m, f.sub(br, f.mul(m, ar)));
    }
    if (sr == 1 && st == 1) {  // the unique (0,x,y) on both lines: x = (c' - c) / (m - m')
      const std::uint32_t x = f.div(f.sub(bt, br), f.sub(ar, at));
      return sf_.router(0, x, f.add(f.mul(ar, x), br));
    }
    // One router in each subgraph: (x,y) and (m,c). Prefer the middle router in subgraph 0,
    // (0, x, m x + c), then the one in subgraph 1, (1, m, y - m x).
    const std::uint32_t x = sr == 0 ? ar : at, y = sr == 0 ? br : bt;
    const std::uint32_t m = sr == 0 ? at : ar, c = sr == 0 ? bt : br;
    const std::uint32_t in_zero = sf_.router(0, x, f.add(f.mul(m, x), c));
    const std::uint32_t in_one = sf_.router(1, m, f.sub(y, f.mul(m, x)));
    for (std::uint32_t candidate : {in_zero, in_one})
      if (sf_.port_toward(r, candidate) != kNone && sf_.port_toward(candidate, t) != kNone) return candidate;
    return kNone;
  }

  // Appends the minimal router path r -> t (no links when r == t); false when it crosses a failed
  // link or no path was found (the flow is then dropped).
  bool minimal(const Network& net, std::uint32_t r, std::uint32_t t, PathSink& sink) const {
    if (r == t) return true;
    if (sf_.port_toward(r, t) != kNone) return hop(net, r, t, sink);
    const std::uint32_t mid = middle(r, t);
    if (mid == kNone) {
      sink.drop_flow();
      return false;
    }
    return hop(net, r, mid, sink) && hop(net, mid, t, sink);
  }

  bool inject(const Network& net, EndpointId src, PathSink& sink) const {
    return push_or_drop(net, net.out_begin(src), sink);
  }
  bool eject(const Network& net, EndpointId dst, PathSink& sink) const {
    const std::uint32_t port = dst % sf_.endpoints_per_router();
    return push_or_drop(net, net.out_begin(sf_.router_vertex(sf_.router_of(dst))) + port, sink);
  }

 private:
  bool hop(const Network& net, std::uint32_t r, std::uint32_t t, PathSink& sink) const {
    return push_or_drop(net, net.out_begin(sf_.router_vertex(r)) + sf_.port_toward(r, t), sink);
  }

  const topo::SlimFlyTopology& sf_;
};

class SlimFlyRouting : public PerFlowRouting {
 public:
  SlimFlyRouting(const topo::SlimFlyTopology& sf, bool valiant) : sf_(sf), paths_(sf), valiant_(valiant) {}

  void route(const Network& net, EndpointId src, EndpointId dst, std::uint64_t flow_seed,
             PathSink& sink) const override {
    if (src == dst) return;
    const std::uint32_t r = sf_.router_of(src), t = sf_.router_of(dst);
    if (!paths_.inject(net, src, sink)) return;
    if (valiant_ && r != t) {
      // Uniform over the 2q^2 - 2 routers other than r and t.
      Rng rng(flow_seed);
      auto via = static_cast<std::uint32_t>(rng.below(sf_.num_routers() - 2));
      if (via >= std::min(r, t)) ++via;
      if (via >= std::max(r, t)) ++via;
      if (!paths_.minimal(net, r, via, sink) || !paths_.minimal(net, via, t, sink)) return;
    } else if (!paths_.minimal(net, r, t, sink)) {
      return;
    }
    if (!paths_.eject(net, dst, sink)) return;
    sink.commit(1.0);
  }

 private:
  const topo::SlimFlyTopology& sf_;
  SlimFlyPaths paths_;
  bool valiant_;
};

RoutingRegistry::Factory make(bool valiant, const char* name) {
  return [valiant, name](const ParamSet&, const Topology& t) -> std::unique_ptr<Routing> {
    return std::make_unique<SlimFlyRouting>(require_family<topo::SlimFlyTopology>(t, name, "slimfly"), valiant);
  };
}

const char* const kMinimalRule =
    " Minimal router path: one link when the routers are adjacent, else two through a middle router: for two "
    "routers of one subgraph on different columns the unique router of the other subgraph on both lines; on "
    "the same column (0,x,y), (0,x,y') the router (0,x,y+g) for the first g of X (in port order) with "
    "y'-y-g in X too (likewise with X'); between the subgraphs the middle router (0, x, mx+c) if adjacent to "
    "both, else (1, m, y-mx). A flow whose path crosses a failed link is unroutable.";

}  // namespace

void register_slimfly_routing(RoutingRegistry& registry) {
  registry.add({"sfmin",
                "minimal routing for slimfly: at most 2 router hops",
                {},
                make(false, "sfmin"),
                std::string("One path per flow, split 1: endpoint link, at most 2 router links, endpoint link (at "
                            "most 4 links).") +
                    kMinimalRule});
  registry.add({"sfvaliant",
                "Valiant routing for slimfly through a random intermediate router",
                {},
                make(true, "sfvaliant"),
                std::string("The intermediate router is drawn uniformly from the 2q^2 - 2 routers other than the "
                            "source's and the destination's, with the flow's own stream (derive_seed(seed, "
                            "routing, flow index)); the path is minimal to it and then minimal to the destination "
                            "router: at most 4 router links, 6 links in all. Flows between endpoints of one "
                            "router take no router link.") +
                    kMinimalRule});
}

}  // namespace interflow::routing
