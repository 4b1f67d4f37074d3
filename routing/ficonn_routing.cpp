// TOR, FiConn's traffic-oblivious routing (Li et al., INFOCOM 2009, Sec. IV): inside one FiConn_0
// the path crosses its switch (server -> switch -> server, 2 links). Otherwise, with l the highest
// level at which the source and destination lie in different copies of FiConn_(l-1), the path goes
// from the source to the server n1 of its copy that owns the level-l link to the destination's
// copy, crosses it to n2 (1 link, backup ports) and continues from n2 to the destination, both
// halves by the same rule. At most 2^(k+1) - 1 server hops: 2^k switch hops (2 links each) plus
// 2^k - 1 level links. Link ids come from the port layout of topologies/ficonn.hpp.
#include "routing/registry.hpp"
#include "topologies/ficonn.hpp"

namespace interflow::routing {

namespace {

class FiConnTor : public PerFlowRouting {
 public:
  explicit FiConnTor(const topo::FiConnTopology& ficonn) : ficonn_(ficonn) {}

  void route(const Network& net, EndpointId src, EndpointId dst, std::uint64_t, PathSink& sink) const override {
    if (src == dst) return;  // nothing to route: the engines count self flows apart
    if (walk(net, src, dst, ficonn_.k(), sink)) sink.commit(1.0);
  }

 private:
  // Appends the path a -> b, both inside one FiConn_level; false when it met a failed link (the
  // flow was dropped). Recursion depth is at most k + 1.
  bool walk(const Network& net, EndpointId a, EndpointId b, std::uint32_t level, PathSink& sink) const {
    if (a == b) return true;
    while (level > 0 && a / ficonn_.size(level - 1) == b / ficonn_.size(level - 1)) --level;
    if (level == 0) {
      const VertexId sw = ficonn_.switch_of(a);
      return push_or_drop(net, net.out_begin(a), sink) && push_or_drop(net, net.out_begin(sw) + b % ficonn_.n(), sink);
    }
    const std::uint32_t sub = ficonn_.size(level - 1);
    const EndpointId base = a - a % ficonn_.size(level);
    const std::uint32_t from = (a - base) / sub, to = (b - base) / sub;
    const EndpointId n1 = base + from * sub + topo::FiConnTopology::gateway_inner(from, to, level);
    const EndpointId n2 = base + to * sub + topo::FiConnTopology::gateway_inner(to, from, level);
    return walk(net, a, n1, level - 1, sink) && push_or_drop(net, net.out_begin(n1) + 1, sink) &&
           walk(net, n2, b, level - 1, sink);
  }

  const topo::FiConnTopology& ficonn_;
};

}  // namespace

void register_ficonn_routing(RoutingRegistry& registry) {
  registry.add({"ficonn",
                "TOR: FiConn's traffic-oblivious recursive routing through the link between the two sub-FiConns",
                {},
                [](const ParamSet&, const Topology& t) -> std::unique_ptr<Routing> {
                  return std::make_unique<FiConnTor>(require_family<topo::FiConnTopology>(t, "ficonn", "ficonn"));
                },
                "Li et al., 'FiConn: using backup port for server interconnection in data centers', INFOCOM 2009, "
                "Sec. IV (traffic-oblivious routing, TOR). Inside one FiConn_0 the path crosses its switch (2 "
                "links). Otherwise, with l the highest level where the source and destination lie in different "
                "copies i and j of FiConn_(l-1), the path goes from the source to the server of copy i holding the "
                "level-l link to copy j, over that link (1 link, between backup ports) to its peer in copy j, and "
                "on to the destination, each half routed the same way. Not a shortest-path routing; paths have at "
                "most 2^(k+1) - 1 server hops, at most 3 x 2^k - 1 links. A single path with split 1; a flow whose "
                "path crosses a failed link is unroutable (the paper's traffic-aware routing TAR is not "
                "implemented)."});
}

}  // namespace interflow::routing
