// The hierarchical routings of HCN and BCN (Guo et al., IEEE Trans. Computers 62(7), 2013):
//   hcn  FdimRouting: inside one HCN(alpha,h), find the highest label digit m where source and
//        destination differ; the HCN(alpha,m-1) copies s_m and d_m are joined by the single cable
//        [.., s_m, d_m..d_m] -- [.., d_m, s_m..s_m]; route source -> its end, cross it, and route
//        from its other end to the destination, recursively. Same switch: one switch crossing.
//   bcn  BdimRouting: in the same copy of HCN(alpha,h), FdimRouting; otherwise FdimRouting to the
//        follower of the source's unit B_u^v that is cabled to copy u' of the destination, cross that
//        BCN cable into B_u'^v, and FdimRouting to the destination.
// Single paths with split 1; link ids are computed from the port layout of topologies/hcn.hpp. A
// flow whose path crosses a failed link is unroutable (no alternative path is tried).
#include "routing/registry.hpp"
#include "topologies/hcn.hpp"

namespace interflow::routing {

namespace {

class HierarchicalHcnRouting : public PerFlowRouting {
 public:
  HierarchicalHcnRouting(const topo::HcnTopology& hcn, bool bcn) : t_(hcn), bcn_(bcn) {}

  void route(const Network& net, EndpointId src, EndpointId dst, std::uint64_t, PathSink& sink) const override {
    if (src == dst) return;
    const std::uint32_t cs = t_.copy_of(src), cd = t_.copy_of(dst);
    if (cs == cd) {
      if (!fdim(net, src, dst, t_.h(), sink)) return;
    } else {
      if (!bcn_) {
        sink.drop_flow();
        return;
      }
      const std::uint32_t v = t_.unit_of(src);
      const VertexId out = t_.bcn_bridge(cs, cd, v);
      const VertexId in = t_.bcn_bridge(cd, cs, v);
      if (!fdim(net, src, out, t_.gamma(), sink)) return;
      if (!push_or_drop(net, net.out_begin(out) + 1, sink)) return;
      if (!fdim(net, in, dst, t_.h(), sink)) return;
    }
    sink.commit(1.0);
  }

 private:
  // Label digit i of a server: 0 is the slot, i >= 1 digit i-1 of its switch index.
  std::uint32_t digit(VertexId s, std::uint32_t i) const {
    if (i == 0) return t_.slot_of(s);
    return static_cast<std::uint32_t>((t_.switch_of(s) / t_.pow_alpha(i - 1)) % t_.alpha());
  }

  // FdimRouting from s to d inside the same HCN(alpha, level) (their digits above `level` agree).
  bool fdim(const Network& net, VertexId s, VertexId d, std::uint32_t level, PathSink& sink) const {
    if (s == d) return true;
    std::uint32_t m = level;
    while (m >= 1 && digit(s, m) == digit(d, m)) --m;
    if (m == 0) {  // same switch: up to it and down on the destination's slot
      return push_or_drop(net, net.out_begin(s), sink) &&
             push_or_drop(net, net.out_begin(t_.switch_vertex(t_.copy_of(s), t_.switch_of(s))) + t_.slot_of(d), sink);
    }
    const std::uint32_t a = digit(s, m), b = digit(d, m);
    const std::uint64_t w = t_.switch_of(s);
    const std::uint64_t high = w - w % t_.pow_alpha(m);
    const std::uint64_t low_span = t_.pow_alpha(m - 1);
    const std::uint32_t copy = t_.copy_of(s);
    // [.., a, b..b] in the source's HCN(alpha,m-1) and [.., b, a..a] in the destination's.
    const VertexId out = t_.server(copy, static_cast<std::uint32_t>(high + a * low_span + b * t_.ones(m - 1)), b);
    const VertexId in = t_.server(copy, static_cast<std::uint32_t>(high + b * low_span + a * t_.ones(m - 1)), a);
    return fdim(net, s, out, m - 1, sink) && push_or_drop(net, net.out_begin(out) + 1, sink) &&
           fdim(net, in, d, m - 1, sink);
  }

  const topo::HcnTopology& t_;
  bool bcn_;
};

}  // namespace

void register_hcn_routing(RoutingRegistry& registry) {
  registry.add({"hcn",
                "FdimRouting of HCN (Guo et al. 2013): hierarchical, digit by digit from the top level",
                {},
                [](const ParamSet&, const Topology& t) -> std::unique_ptr<Routing> {
                  const auto& hcn = require_family<topo::HcnTopology>(t, "hcn", "hcn");
                  if (hcn.is_bcn())
                    throw InputError("routing 'hcn' routes inside one HCN only; use routing 'bcn' on a bcn topology");
                  return std::make_unique<HierarchicalHcnRouting>(hcn, false);
                },
                "Guo et al., IEEE Trans. Computers 62(7), 2013, FdimRouting. For servers s and d, m is the highest "
                "label digit where they differ (digits x_h..x_1 of the switch, x_0 the slot). m = 0 (same switch): "
                "s -> switch -> d, 2 links. Otherwise the two HCN(n,m-1) copies s_m = a and d_m = b are joined by "
                "the cable [.., a, b..b] -- [.., b, a..a]: route s to its first end, cross it, route from its second "
                "end to d, both recursively at level m-1. At most 2^(h+1) - 1 server hops = 3 * 2^h - 1 links. "
                "Deterministic single path; a failed link on it makes the flow unroutable."});
  registry.add({"bcn",
                "BdimRouting of BCN (Guo et al. 2013): FdimRouting, crossing one follower cable between copies",
                {},
                [](const ParamSet&, const Topology& t) -> std::unique_ptr<Routing> {
                  return std::make_unique<HierarchicalHcnRouting>(
                      require_family<topo::HcnTopology>(t, "bcn", "bcn or hcn"), true);
                },
                "Guo et al., IEEE Trans. Computers 62(7), 2013, BdimRouting. Source and destination in the same copy "
                "B_u of HCN(alpha,h): FdimRouting (routing 'hcn'). Otherwise, with the source in unit B_u^v and the "
                "destination in copy B_u': FdimRouting inside B_u^v to the follower cabled to B_u'^v, that cable, "
                "then FdimRouting inside B_u' to the destination (the follower cable is the one the topology's "
                "connection rule, alpha or beta, gives). At most (3 * 2^gamma - 1) + 1 + (3 * 2^h - 1) links = "
                "2^(gamma+1) + 2^(h+1) - 1 server hops; with gamma > h (one copy) it is FdimRouting. Stewart (CANDAR "
                "2014) and Erickson et al. (FGCS "
                "2017) give shorter-path variants, not implemented here. Deterministic single path; a failed link "
                "on it makes the flow unroutable."});
}

}  // namespace interflow::routing
