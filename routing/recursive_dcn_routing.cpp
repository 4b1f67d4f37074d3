// Routings of the recursive server-centric networks DCell, FiConn and gdcficonn
// (topologies/recursive_dcn.hpp); link ids come from its port layout, never from a search.
//
// Dimensional routing, 'dcell' (DCellRouting, Guo et al. SIGCOMM 2008 Sec. 4) and 'ficonn' (TOR, Li et al.
// INFOCOM 2009 Sec. IV): inside one level-0 unit the path crosses its switch (server -> switch -> server, 2
// links). Otherwise, with l the highest level at which the source and destination lie in different copies i
// and j of the level-(l-1) network, the path goes from the source to the server of copy i holding the level-l
// link to copy j, crosses it (1 link) and continues from its peer to the destination, both halves routed the
// same way. At most 2^(k+1) - 1 server hops: 2^k switch hops (2 links each) plus 2^k - 1 level links.
//
// Proxy routing, 'gdcproxy' (after the proxy routings of Erickson, Kiasari, Navaridas, Stewart, TrustCom 2015,
// which INRFlow's gdcficonn implements): at that level l it also considers going through a third copy c (a
// proxy): source -> link i-c -> across c -> link c-j -> destination. Every option is costed in links with the
// dimensional routing inside the copies; the cheapest wins (the direct route on ties, then the lowest candidate).
// The chosen segments are routed by the same rule one level down, so a path is never longer than the
// dimensional route and stays simple (its segments lie in different copies). The candidates are the copies
// reached by level-l links from servers in the source's (or the destination's) level-t unit, t = tightness.
#include <algorithm>

#include "core/error.hpp"
#include "routing/registry.hpp"
#include "topologies/recursive_dcn.hpp"

namespace interflow::routing {

namespace {

using topo::RecursiveDcnTopology;

// Shared arithmetic of both routings: the level at which two servers part and the link between copies.
class RecursiveWalker {
 public:
  explicit RecursiveWalker(const RecursiveDcnTopology& t) : t_(t) {}

 protected:
  // The highest level <= `level` at which a and b lie in different copies (0: same level-0 unit).
  std::uint32_t split_level(EndpointId a, EndpointId b, std::uint32_t level) const {
    while (level > 0 && a / t_.t(level - 1) == b / t_.t(level - 1)) --level;
    return level;
  }
  // The server of copy `from` (of the level-l unit that starts at `base`) holding the link to copy `to`.
  EndpointId gateway(EndpointId base, std::uint32_t from, std::uint32_t to, std::uint32_t level) const {
    return base + from * t_.t(level - 1) + t_.gateway_inner(from, to, level);
  }
  bool switch_hop(const Network& net, EndpointId a, EndpointId b, PathSink& sink) const {
    return push_or_drop(net, net.out_begin(a), sink) &&
           push_or_drop(net, net.out_begin(t_.switch_of(a)) + b % t_.n(), sink);
  }
  bool level_hop(const Network& net, EndpointId from, std::uint32_t level, PathSink& sink) const {
    return push_or_drop(net, net.out_begin(from) + t_.level_port(level), sink);
  }
  // Length in links of the dimensional route a -> b inside one level-`level` unit.
  std::uint32_t dimensional_length(EndpointId a, EndpointId b, std::uint32_t level) const {
    if (a == b) return 0;
    level = split_level(a, b, level);
    if (level == 0) return 2;
    const EndpointId base = a - a % t_.t(level);
    const std::uint32_t from = (a - base) / t_.t(level - 1), to = (b - base) / t_.t(level - 1);
    return dimensional_length(a, gateway(base, from, to, level), level - 1) + 1 +
           dimensional_length(gateway(base, to, from, level), b, level - 1);
  }

  const RecursiveDcnTopology& t_;
};

class DimensionalRouting : public PerFlowRouting, RecursiveWalker {
 public:
  using RecursiveWalker::RecursiveWalker;

  void route(const Network& net, EndpointId src, EndpointId dst, std::uint64_t, PathSink& sink) const override {
    if (src == dst) return;  // nothing to route: the engines count self flows apart
    if (walk(net, src, dst, t_.k(), sink)) sink.commit(1.0);
  }

 private:
  // Appends the path a -> b inside one level-`level` unit; false when it met a failed link (the flow was
  // dropped). Recursion depth is at most k + 1.
  bool walk(const Network& net, EndpointId a, EndpointId b, std::uint32_t level, PathSink& sink) const {
    if (a == b) return true;
    level = split_level(a, b, level);
    if (level == 0) return switch_hop(net, a, b, sink);
    const EndpointId base = a - a % t_.t(level);
    const std::uint32_t from = (a - base) / t_.t(level - 1), to = (b - base) / t_.t(level - 1);
    const EndpointId n1 = gateway(base, from, to, level);
    return walk(net, a, n1, level - 1, sink) && level_hop(net, n1, level, sink) &&
           walk(net, gateway(base, to, from, level), b, level - 1, sink);
  }
};

class ProxyRouting : public PerFlowRouting, RecursiveWalker {
 public:
  ProxyRouting(const RecursiveDcnTopology& t, std::uint32_t tightness) : RecursiveWalker(t), tightness_(tightness) {}

  void route(const Network& net, EndpointId src, EndpointId dst, std::uint64_t, PathSink& sink) const override {
    if (src == dst) return;
    if (walk(net, src, dst, t_.k(), sink)) sink.commit(1.0);
  }

 private:
  static constexpr std::uint32_t kDirect = ~0U;

  bool walk(const Network& net, EndpointId a, EndpointId b, std::uint32_t level, PathSink& sink) const {
    if (a == b) return true;
    level = split_level(a, b, level);
    if (level == 0) return switch_hop(net, a, b, sink);
    const EndpointId base = a - a % t_.t(level);
    const std::uint32_t sub = t_.t(level - 1);
    const std::uint32_t from = (a - base) / sub, to = (b - base) / sub;
    const std::uint32_t proxy = best_proxy(a, b, base, from, to, level);
    if (proxy == kDirect) {
      const EndpointId n1 = gateway(base, from, to, level);
      return walk(net, a, n1, level - 1, sink) && level_hop(net, n1, level, sink) &&
             walk(net, gateway(base, to, from, level), b, level - 1, sink);
    }
    const EndpointId p1 = gateway(base, from, proxy, level), q1 = gateway(base, proxy, from, level);
    const EndpointId p2 = gateway(base, proxy, to, level), q2 = gateway(base, to, proxy, level);
    return walk(net, a, p1, level - 1, sink) && level_hop(net, p1, level, sink) && walk(net, q1, p2, level - 1, sink) &&
           level_hop(net, p2, level, sink) && walk(net, q2, b, level - 1, sink);
  }

  // The proxy copy with the shortest estimated route, or kDirect when none beats the direct one.
  std::uint32_t best_proxy(EndpointId a, EndpointId b, EndpointId base, std::uint32_t from, std::uint32_t to,
                           std::uint32_t level) const {
    std::uint32_t best = dimensional_length(a, gateway(base, from, to, level), level - 1) + 1 +
                         dimensional_length(gateway(base, to, from, level), b, level - 1);
    std::uint32_t choice = kDirect;
    const auto consider = [&](std::uint32_t c) {
      if (c == from || c == to) return;
      const std::uint32_t cost =
          dimensional_length(a, gateway(base, from, c, level), level - 1) + 1 +
          dimensional_length(gateway(base, c, from, level), gateway(base, c, to, level), level - 1) + 1 +
          dimensional_length(gateway(base, to, c, level), b, level - 1);
      if (cost < best) best = cost, choice = c;
    };
    // Candidates: copies linked from the servers of the source's and the destination's level-t unit.
    const std::uint32_t unit = t_.t(std::min(tightness_, level - 1));
    const std::uint32_t sub = t_.t(level - 1);
    for (const auto& [copy, inner] : {std::pair{from, (a - base) % sub}, std::pair{to, (b - base) % sub}}) {
      const std::uint32_t first = inner - inner % unit;
      for (std::uint32_t x = first; x < first + unit; ++x)
        if (t_.has_level_link(x, level)) consider(t_.link_target_copy(copy, x, level));
    }
    return choice;
  }

  std::uint32_t tightness_;
};

const RecursiveDcnTopology& recursive_dcn(const Topology& t, const std::string& routing, bool dcell_rules) {
  const auto& dcn = require_family<RecursiveDcnTopology>(t, routing, "dcell, ficonn or gdcficonn");
  if (dcn.is_dcell() != dcell_rules)
    throw InputError("routing '" + routing + "' needs a network built with " +
                     (dcell_rules ? "a DCell connection rule (dcell, gdcficonn rule=alpha|beta)"
                                  : "FiConn's rule (ficonn, gdcficonn rule=ficonn)") +
                     ", not '" + t.family() + "' with rule " + topo::to_string(dcn.rule()) + "; use '" +
                     dcn.default_routing() + "' or 'gdcproxy'");
  return dcn;
}

}  // namespace

void register_recursive_dcn_routing(RoutingRegistry& registry) {
  const std::string common =
      " Inside one level-0 unit the path crosses its switch (2 links). Otherwise, with l the highest level where the "
      "source and destination lie in different copies i and j of the level-(l-1) network, the path goes from the "
      "source to the server of copy i holding the level-l link to copy j, over that link (1 link) to its peer in "
      "copy j, and on to the destination, each half routed the same way. Not a shortest-path routing; paths have at "
      "most 2^(k+1) - 1 server hops, at most 3 x 2^k - 1 links. A single path with split 1; a flow whose path "
      "crosses a failed link is unroutable";
  registry.add({"dcell",
                "DCellRouting: DCell's recursive routing through the link between the two sub-DCells",
                {},
                [](const ParamSet&, const Topology& t) -> std::unique_ptr<Routing> {
                  return std::make_unique<DimensionalRouting>(recursive_dcn(t, "dcell", true));
                },
                "Guo et al., 'DCell: a scalable and fault-tolerant network structure for data centers', SIGCOMM "
                "2008, Sec. 4 (DCellRouting); for dcell and gdcficonn with rule alpha or beta (with rule beta the "
                "gateway servers follow the beta pairing)." +
                    common + " (the paper's fault-tolerant DFR is not implemented)."});
  registry.add({"ficonn",
                "TOR: FiConn's traffic-oblivious recursive routing through the link between the two sub-FiConns",
                {},
                [](const ParamSet&, const Topology& t) -> std::unique_ptr<Routing> {
                  return std::make_unique<DimensionalRouting>(recursive_dcn(t, "ficonn", false));
                },
                "Li et al., 'FiConn: using backup port for server interconnection in data centers', INFOCOM 2009, "
                "Sec. IV (traffic-oblivious routing, TOR); for ficonn and gdcficonn with rule ficonn; level links "
                "use the backup ports." +
                    common + " (the paper's traffic-aware routing TAR is not implemented)."});
  registry.add(
      {"gdcproxy",
       "Proxy routing for DCell/FiConn/gdcficonn: the dimensional route or a detour through a proxy copy, whichever "
       "is shorter",
       {int_param("tightness", "0",
                  "proxy candidates: copies linked from servers in the source's or destination's level-t unit; 0 = "
                  "the servers on the same switch, >= k-1 = every copy (cost grows with t_t per level)",
                  0, RecursiveDcnTopology::kMaxLevel)},
       [](const ParamSet& p, const Topology& t) -> std::unique_ptr<Routing> {
         const auto& dcn = require_family<RecursiveDcnTopology>(t, "gdcproxy", "dcell, ficonn or gdcficonn");
         return std::make_unique<ProxyRouting>(dcn, static_cast<std::uint32_t>(p.get_int("tightness")));
       },
       "After the proxy routing of Erickson, Kiasari, Navaridas, Stewart, 'Routing algorithms for "
       "recursively-defined data centre networks', TrustCom 2015 (INRFlow's gdcficonn routings), with INRFlow's "
       "tightness notion for the candidate set. At the highest level l where the source (copy i) and destination "
       "(copy j) part, the options are the dimensional route (link i-j) and, for each candidate proxy copy c, "
       "source -> link i-c -> across c -> link c-j -> destination. Each option is costed in links with the "
       "dimensional routing inside the copies; the cheapest wins (the direct route on ties, then the first "
       "candidate in order: copies linked from the source's level-t unit, then from the destination's). The chosen "
       "segments are routed by the same rule one level down, so a path is never longer than the dimensional route "
       "(at most 3 x 2^k - 1 links) and is simple. Candidates: the copies reached by level-l links of the servers "
       "in the source's and the destination's level-t unit (t = min(tightness, l-1)); tightness >= k-1 tries every "
       "copy. A single path with split 1; a flow whose path crosses a failed link is unroutable."});
}

}  // namespace interflow::routing
