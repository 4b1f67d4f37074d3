// DCellRouting (Guo et al., SIGCOMM 2008, Sec. 4): a divide-and-conquer routing. When the
// source and destination share a DCell_0 the path goes through its mini-switch (server -> switch ->
// server, 2 links). Otherwise let l be the highest level whose DCell_(l-1) copies differ (the
// shortest common prefix of the two addresses): the path routes from the source to the server n1
// of its copy that owns the level-l link to the destination's copy, crosses that link to n2 (1
// link), and routes from n2 to the destination, both halves by the same rule. Paths have at most
// 2^(k+1) - 1 server hops, i.e. at most 2^k mini-switch hops (2 links each) plus 2^k - 1 level
// links. Link ids come from the port layout of topologies/dcell.hpp, never from a search.
#include "routing/registry.hpp"
#include "topologies/dcell.hpp"

namespace interflow::routing {

namespace {

class DCellRouting : public PerFlowRouting {
 public:
  explicit DCellRouting(const topo::DCellTopology& dcell) : dcell_(dcell) {}

  void route(const Network& net, EndpointId src, EndpointId dst, std::uint64_t, PathSink& sink) const override {
    if (src == dst) return;  // nothing to route: the engines count self flows apart
    if (walk(net, src, dst, dcell_.k(), sink)) sink.commit(1.0);
  }

 private:
  // Appends the path a -> b, both inside one DCell_level; false when it met a failed link (the flow
  // was dropped). Recursion depth is at most k + 1.
  bool walk(const Network& net, EndpointId a, EndpointId b, std::uint32_t level, PathSink& sink) const {
    if (a == b) return true;
    while (level > 0 && a / dcell_.t(level - 1) == b / dcell_.t(level - 1)) --level;
    if (level == 0) {
      const VertexId sw = dcell_.switch_of(a);
      return push_or_drop(net, net.out_begin(a), sink) && push_or_drop(net, net.out_begin(sw) + b % dcell_.n(), sink);
    }
    const std::uint32_t sub = dcell_.t(level - 1);
    const EndpointId base = a - a % dcell_.t(level);
    const std::uint32_t from = (a - base) / sub, to = (b - base) / sub;
    const EndpointId n1 = base + from * sub + topo::DCellTopology::gateway_inner(from, to);
    const EndpointId n2 = base + to * sub + topo::DCellTopology::gateway_inner(to, from);
    return walk(net, a, n1, level - 1, sink) && push_or_drop(net, net.out_begin(n1) + level, sink) &&
           walk(net, n2, b, level - 1, sink);
  }

  const topo::DCellTopology& dcell_;
};

}  // namespace

void register_dcell_routing(RoutingRegistry& registry) {
  registry.add({"dcell",
                "DCellRouting: DCell's recursive routing through the link between the two sub-DCells",
                {},
                [](const ParamSet&, const Topology& t) -> std::unique_ptr<Routing> {
                  return std::make_unique<DCellRouting>(require_family<topo::DCellTopology>(t, "dcell", "dcell"));
                },
                "Guo et al., 'DCell: a scalable and fault-tolerant network structure for data centers', SIGCOMM "
                "2008, Sec. 4 (DCellRouting). Inside one DCell_0 the path crosses its mini-switch (2 "
                "links). Otherwise, with l the highest level where the source and destination lie in different "
                "copies i and j of DCell_(l-1), the path goes from the source to the server of copy i holding the "
                "level-l link to copy j (uid j-1 if i < j, else j inside copy i), over that link (1 link) to its "
                "peer in copy j, and on to the destination, each half routed the same way. Not a shortest-path "
                "routing; paths have at most 2^(k+1) - 1 server hops, at most 3 x 2^k - 1 links (2^k mini-switch "
                "hops of 2 links plus 2^k - 1 level links). A single path with split 1; a flow whose path crosses "
                "a failed link is unroutable (the paper's fault-tolerant DFR is not implemented)."});
}

}  // namespace interflow::routing
