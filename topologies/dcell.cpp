#include "topologies/dcell.hpp"

#include <string>

#include "engine/error.hpp"
#include "topologies/registry.hpp"

namespace interflow::topo {

DCellTopology::DCellTopology(std::uint32_t n, std::uint32_t k, const LinkDefaults& defaults)
    : Topology("dcell"), n_(n), k_(k) {
  const std::string what = "dcell n=" + std::to_string(n) + ", k=" + std::to_string(k);
  if (n < 2) throw InputError(what + ": n (servers per DCell_0) must be at least 2");
  if (k > kMaxLevel) throw InputError(what + ": k (level) must be at most " + std::to_string(kMaxLevel));
  // t_l = (t_(l-1) + 1) t_(l-1) (Guo et al. 2008, Sec. 3), checked before it can overflow.
  t_.assign(k + 1, n);
  for (std::uint32_t l = 1; l <= k; ++l) {
    const std::uint64_t size = (static_cast<std::uint64_t>(t_[l - 1]) + 1) * t_[l - 1];
    if (size > kMaxNetworkVertices)
      throw InputError(what + ": t_" + std::to_string(l) + " = " + std::to_string(size) +
                       " servers is more than 2^31, the largest network supported");
    t_[l] = static_cast<std::uint32_t>(size);
  }
  const std::uint64_t servers = t_[k];
  const std::uint64_t switches = servers / n;
  const std::uint64_t cables = servers + servers * k / 2;  // one mini-switch cable each, k level links per 2
  if (servers + switches > kMaxNetworkVertices)
    throw InputError(what + ": " + std::to_string(servers + switches) +
                     " vertices (servers plus switches) is more than 2^31, the largest network supported");
  if (2 * cables > kMaxNetworkLinks)
    throw InputError(what + ": " + std::to_string(2 * cables) +
                     " directed links is more than 4e9, the largest network supported");

  NetworkBuilder b(defaults);
  b.set_endpoints_forward(true);
  b.reserve(servers + switches, cables);
  for (std::uint64_t u = 0; u < servers; ++u) b.add_endpoint_vertex();
  b.add_switches(static_cast<std::uint32_t>(switches));
  for (EndpointId u = 0; u < servers; ++u) {
    b.add_cable(u, switch_of(u), -1, -1, 0, u % n_);
    for (std::uint32_t l = 1; l <= k_; ++l) {
      const EndpointId peer = level_peer(u, l);
      if (u < peer) b.add_cable(u, peer, -1, -1, l, l);
    }
  }
  net_ = b.build();
}

std::vector<TopologyFact> DCellTopology::facts() const {
  std::vector<TopologyFact> out;
  const double bound = static_cast<double>((1ULL << (k_ + 1)) - 1);
  out.push_back({"diameter_bound_server_hops", bound,
                 "upper bound 2^(k+1) - 1 on the diameter and on DCellRouting paths, in server hops (a hop through a "
                 "mini-switch counts once; Guo et al. 2008, Sec. 4)"});
  out.push_back({"routing_bound_links", 3.0 * static_cast<double>(1ULL << k_) - 1,
                 "upper bound on a DCellRouting path in links: at most 2^k mini-switch hops of 2 links and 2^k - 1 "
                 "level links, 3 x 2^k - 1"});
  return out;
}

void register_dcell(TopologyRegistry& registry) {
  registry.add(
      {"dcell",
       "DCell(n,k): recursive server-centric network, servers with k+1 ports, n-port mini-switches",
       {int_param("n", "4", "servers per DCell_0 (ports of every mini-switch)", 2, 1 << 16),
        int_param("k", "1", "level of the DCell; every server has k+1 ports (mini-switch plus one link per level)", 0,
                  DCellTopology::kMaxLevel)},
       [](const ParamSet& p, const LinkDefaults& defaults) -> std::unique_ptr<Topology> {
         return std::make_unique<DCellTopology>(static_cast<std::uint32_t>(p.get_int("n")),
                                                static_cast<std::uint32_t>(p.get_int("k")), defaults);
       },
       "Guo et al., 'DCell: a scalable and fault-tolerant network structure for data centers', SIGCOMM 2008, "
       "Sec. 3 (BuildDCells). t_0 = n, g_l = t_(l-1) + 1, t_l = g_l t_(l-1). DCell_0 is n servers on one "
       "n-port mini-switch; DCell_l joins g_l copies of DCell_(l-1): for i < j server [i, j-1] (uid j-1 inside "
       "copy i) connects to server [j, i]. Server-centric: servers relay traffic. Numbering: server uid u "
       "(0..t_k-1) is vertex and endpoint u; inside a DCell_l it lies in copy (u / t_(l-1)) mod g_l. Mini-switch "
       "s is vertex t_k + s and connects servers s n .. s n + n-1 on its ports 0..n-1. Server port 0 goes to "
       "the mini-switch, port l (1..k) is the level-l link. Sizes: t_k servers, t_k / n switches, t_k (1 + k/2) "
       "cables; server degree k+1, switch degree n. Diameter at most 2^(k+1) - 1 server hops (the DCellRouting "
       "bound, Sec. 4), where a hop through a mini-switch is 2 links and a level link is 1. INRFlow's 'gdcficonn' "
       "generalises DCell "
       "and FiConn: both join g_l copies of the level-(l-1) network by one link per pair of copies, and differ "
       "in which servers carry the level-l links (DCell: every server has one per level; FiConn: only servers "
       "with a free backup port, so g_l is smaller and every server keeps 2 ports); that generalisation is not "
       "implemented here."});
}

}  // namespace interflow::topo
