// BCubeRouting (Guo et al., SIGCOMM 2009, Sec. 3.2 and Fig. 3): the path from A = a_k..a_0 to
// B = b_k..b_0 corrects one differing address digit at a time, each correction being one hop
// server -> level-l switch -> server (2 links). The paper takes any permutation of the levels; we
// use the fixed order of its Fig. 3 with the identity permutation: from the highest level k down
// to level 0. A path has 2 x (Hamming distance of the addresses) links, which is also the shortest
// distance. Link ids are computed from the port layout (topologies/bcube.hpp), never searched.
#include "routing/registry.hpp"
#include "topologies/bcube.hpp"

namespace interflow::routing {

namespace {

class BCubeRouting : public PerFlowRouting {
 public:
  explicit BCubeRouting(const topo::BCubeTopology& bcube) : bcube_(bcube) {}

  void route(const Network& net, EndpointId src, EndpointId dst, std::uint64_t, PathSink& sink) const override {
    if (src == dst) return;  // nothing to route: the engines count self flows apart
    EndpointId at = src;
    for (std::uint32_t level = bcube_.k() + 1; level-- > 0;) {
      const std::uint32_t want = bcube_.digit(dst, level);
      if (bcube_.digit(at, level) == want) continue;
      const std::uint32_t sw = bcube_.switch_index(at, level);
      if (!push_or_drop(net, net.out_begin(at) + level, sink)) return;
      if (!push_or_drop(net, net.out_begin(bcube_.switch_vertex(level, sw)) + want, sink)) return;
      at = bcube_.server_on_port(level, sw, want);
    }
    sink.commit(1.0);
  }

 private:
  const topo::BCubeTopology& bcube_;
};

}  // namespace

void register_bcube_routing(RoutingRegistry& registry) {
  registry.add({"bcube",
                "BCube's digit-correcting routing (BCubeRouting), highest level first",
                {},
                [](const ParamSet&, const Topology& t) -> std::unique_ptr<Routing> {
                  return std::make_unique<BCubeRouting>(require_family<topo::BCubeTopology>(t, "bcube", "bcube"));
                },
                "Guo et al., 'BCube: a high performance, server-centric network architecture for modular data "
                "centers', SIGCOMM 2009, Sec. 3.2, Fig. 3 (BCubeRouting). From source address a_k..a_0 to "
                "destination b_k..b_0 the path corrects the differing digits one by one in the fixed order k, "
                "k-1, .., 0 (the paper's permutation taken as the identity): correcting digit l goes from the "
                "current server on its port l to its level-l switch and out of the switch's port b_l to the server "
                "whose digit l is b_l (2 links). A path has 2 x (Hamming distance of the addresses) links, the "
                "shortest possible; at most 2(k+1). A single path with split 1; a flow whose path crosses a failed "
                "link is unroutable (the paper's parallel paths and fault handling are not used)."});
}

}  // namespace interflow::routing
