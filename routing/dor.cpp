// Dimension-order routing for tori and meshes: correct dimension 0 first, then 1, and so on; on a
// ring take the shorter direction. When both directions are equally short (radix k even, distance
// k/2) the tie rule decides: 'positive' always goes up, 'balanced' goes up from even source
// coordinates and down from odd ones, which spreads a tornado-like load over both directions.
#include "core/error.hpp"
#include "routing/registry.hpp"
#include "topologies/torus.hpp"

namespace interflow::routing {

namespace {

class DimensionOrderRouting : public PerFlowRouting {
 public:
  DimensionOrderRouting(const topo::TorusTopology& torus, bool balanced_ties)
      : torus_(torus), balanced_(balanced_ties) {}

  void route(const Network& net, EndpointId src, EndpointId dst, std::uint64_t, PathSink& sink) const override {
    VertexId at = torus_.router_of(src);
    const VertexId to = torus_.router_of(dst);
    if (torus_.endpoints_per_router() > 0 && !push_or_drop(net, net.find_link(net.endpoint_vertex(src), at), sink))
      return;
    for (std::size_t d = 0; d < torus_.dims().size(); ++d) {
      const std::int64_t k = torus_.dims()[d];
      const std::int64_t stride = torus_.stride(d);
      std::int64_t x = torus_.coordinate(at, d);
      const std::int64_t y = torus_.coordinate(to, d);
      if (x == y) continue;
      int step;
      if (!torus_.wrap()) {
        step = y > x ? 1 : -1;
      } else {
        const std::int64_t up = y >= x ? y - x : y - x + k;
        const std::int64_t down = k - up;
        step = up < down ? 1 : up > down ? -1 : (!balanced_ || x % 2 == 0) ? 1 : -1;
      }
      while (x != y) {
        std::int64_t nx = x + step;
        std::int64_t next = static_cast<std::int64_t>(at) + step * stride;
        if (nx == k) nx = 0, next -= k * stride;
        if (nx < 0) nx = k - 1, next += k * stride;
        // DOR has no alternative path: a failed link makes the flow unroutable.
        if (!push_or_drop(net, torus_.link_toward(at, d, step, static_cast<VertexId>(next)), sink)) return;
        at = static_cast<VertexId>(next);
        x = nx;
      }
    }
    if (torus_.endpoints_per_router() > 0 && !push_or_drop(net, net.find_link(at, net.endpoint_vertex(dst)), sink))
      return;
    sink.commit(1.0);
  }

 private:
  const topo::TorusTopology& torus_;
  bool balanced_;
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
