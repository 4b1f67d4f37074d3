// Dimension-order routing for tori and meshes: correct dimension 0 first, then 1, and so on; on a
// ring take the shorter direction. When both directions are equally short (radix k even, distance
// k/2) the tie rule decides: 'positive' always goes up, 'balanced' goes up from even source
// coordinates and down from odd ones, which spreads a tornado-like load over both directions.
#include <algorithm>

#include "core/error.hpp"
#include "routing/registry.hpp"
#include "topologies/torus.hpp"

namespace interflow::routing {

namespace {

class DimensionOrderRouting : public PerFlowRouting {
 public:
  DimensionOrderRouting(const topo::TorusTopology& torus, bool balanced_ties)
      : torus_(torus), balanced_(balanced_ties), link_stride_(uniform_degree(torus)) {}

  void route(const Network& net, EndpointId src, EndpointId dst, std::uint64_t, PathSink& sink) const override {
    if (link_stride_ > 0 && &net == &torus_.network() && net.all_up())
      route_as<true>(net, src, dst, sink);
    else
      route_as<false>(net, src, dst, sink);
  }

 private:
  // kRuns: each dimension's links written as runs (push_runs), else hop by hop (push_hops).
  template <bool kRuns>
  void route_as(const Network& net, EndpointId src, EndpointId dst, PathSink& sink) const {
    VertexId at = torus_.router_of(src);
    const VertexId to = torus_.router_of(dst);
    if (torus_.endpoints_per_router() > 0 && !push_or_drop(net, net.find_link(net.endpoint_vertex(src), at), sink))
      return;
    for (std::size_t d = 0; d < torus_.dims().size(); ++d) {
      const std::int64_t x = torus_.coordinate(at, d), y = torus_.coordinate(to, d);
      if (x == y) continue;
      const int step = direction(x, y, torus_.dims()[d]);
      if constexpr (kRuns)
        push_runs(d, at, x, y, step, sink);
      else if (!push_hops(net, d, at, x, y, step, sink))
        return;  // DOR has no alternative path: a failed link makes the flow unroutable
      at = static_cast<VertexId>(static_cast<std::int64_t>(at) + (y - x) * torus_.stride(d));
    }
    if (torus_.endpoints_per_router() > 0 && !push_or_drop(net, net.find_link(at, net.endpoint_vertex(dst)), sink))
      return;
    sink.commit(1.0);
  }

  // +1 or -1: the shorter way from coordinate x to y on a ring of k (a mesh: towards y); the tie rule
  // on a ring of even k at distance k/2.
  int direction(std::int64_t x, std::int64_t y, std::int64_t k) const {
    if (!torus_.wrap()) return y > x ? 1 : -1;
    const std::int64_t up = y >= x ? y - x : y - x + k, down = k - up;
    return up < down ? 1 : up > down ? -1 : (!balanced_ || x % 2 == 0) ? 1 : -1;
  }

  // One hop at a time from router `at` (coordinate x along d) to coordinate y, each link looked up
  // and checked; false when one is down (the flow is dropped).
  bool push_hops(const Network& net, std::size_t d, VertexId at, std::int64_t x, std::int64_t y, int step,
                 PathSink& sink) const {
    const std::int64_t k = torus_.dims()[d], stride = torus_.stride(d);
    while (x != y) {
      std::int64_t nx = x + step;
      std::int64_t next = static_cast<std::int64_t>(at) + step * stride;
      if (nx == k) nx = 0, next -= k * stride;
      if (nx < 0) nx = k - 1, next += k * stride;
      if (!push_or_drop(net, torus_.link_toward(at, d, step, static_cast<VertexId>(next)), sink)) return false;
      at = static_cast<VertexId>(next);
      x = nx;
    }
    return true;
  }

  // The same links without lookups, on the topology's own network with no failure and uniform router
  // degrees: the links one way along d are the same port of routers `stride` apart, so they are at
  // most two arithmetic runs of ids (before and after the ring wraps).
  void push_runs(std::size_t d, VertexId at, std::int64_t x, std::int64_t y, int step, PathSink& sink) const {
    const std::int64_t k = torus_.dims()[d], stride = torus_.stride(d);
    const std::int64_t hops = step > 0 ? (y >= x ? y - x : y - x + k) : (x >= y ? x - y : x - y + k);
    const std::int64_t before_wrap = std::min(hops, step > 0 ? k - x : x + 1);  // to the ring's end
    const auto port = static_cast<std::int64_t>(2 * d + (step < 0 ? 1 : 0));
    const std::int64_t link_step = step * stride * link_stride_;
    std::int64_t link = static_cast<std::int64_t>(at) * link_stride_ + port;
    for (std::int64_t h = 0; h < before_wrap; ++h, link += link_step) sink.push(static_cast<LinkId>(link));
    const std::int64_t wrapped_x = step > 0 ? 0 : k - 1;  // the ring's other end
    link = (static_cast<std::int64_t>(at) + (wrapped_x - x) * stride) * link_stride_ + port;
    for (std::int64_t h = before_wrap; h < hops; ++h, link += link_step) sink.push(static_cast<LinkId>(link));
  }

  // The out-degree shared by every router when router r's links start at r times it (a regular torus
  // whose routers come first and all have the same degree, endpoints on links or not); else 0.
  static LinkId uniform_degree(const topo::TorusTopology& torus) {
    const Network& net = torus.network();
    if (!torus.regular() || torus.num_routers() == 0 || net.out_begin(0) != 0) return 0;
    const LinkId degree = net.degree(0);
    for (VertexId r = 0; r < torus.num_routers(); ++r)
      if (net.out_begin(r) != static_cast<LinkId>(r) * degree || net.degree(r) != degree) return 0;
    return degree;
  }

  const topo::TorusTopology& torus_;
  bool balanced_;
  LinkId link_stride_;  // uniform_degree(): 0 when push_runs() does not apply
};

}  // namespace

void register_dor(RoutingRegistry& registry) {
  registry.add({"dor",
                "dimension-order routing for torus and mesh (shortest direction per ring)",
                {choice_param("tie", "positive", {"positive", "balanced"},
                              "direction when both are equally short (even radix, distance k/2): positive = "
                              "always up; balanced = up from even source coordinates, down from odd")},
                [](const ParamSet& p, const Topology& t) -> std::unique_ptr<Routing> {
                  const auto& torus = require_family<topo::TorusTopology>(t, "dor", "torus or mesh");
                  return std::make_unique<DimensionOrderRouting>(torus, p.get_string("tie") == "balanced");
                },
                "Dimensions are corrected in increasing order. A single path; a flow whose path crosses a "
                "failed link is unroutable (DOR has no alternative)."});
}

}  // namespace interflow::routing
