#include "topologies/ficonn.hpp"

#include <string>

#include "engine/error.hpp"
#include "topologies/registry.hpp"

namespace interflow::topo {

FiConnTopology::FiConnTopology(std::uint32_t n, std::uint32_t k, const LinkDefaults& defaults)
    : Topology("ficonn"), n_(n), k_(k) {
  const std::string what = "ficonn n=" + std::to_string(n) + ", k=" + std::to_string(k);
  if (n < 2 || n % 2 != 0) throw InputError(what + ": n (ports per switch) must be even and at least 2");
  if (k > kMaxLevel) throw InputError(what + ": k (level) must be at most " + std::to_string(kMaxLevel));
  // N_l = N_(l-1) (N_(l-1) / 2^l + 1) (Li et al. 2009, Sec. III), checked before it can overflow.
  size_.assign(k + 1, n);
  for (std::uint32_t l = 1; l <= k; ++l) {
    const std::uint64_t prev = size_[l - 1];
    // g_l = b_(l-1)/2 + 1 needs an even number b_(l-1) = N_(l-1) / 2^(l-1) of free backup ports.
    if (prev % (1ULL << l) != 0)
      throw InputError(what + ": N_" + std::to_string(l - 1) + " = " + std::to_string(prev) +
                       " servers is not divisible by 2^" + std::to_string(l) + ", so FiConn_" + std::to_string(l - 1) +
                       " has no even number of free backup ports");
    const std::uint64_t servers = prev * ((prev >> l) + 1);
    if (servers > kMaxNetworkVertices)
      throw InputError(what + ": N_" + std::to_string(l) + " = " + std::to_string(servers) +
                       " servers is more than 2^31, the largest network supported");
    size_[l] = static_cast<std::uint32_t>(servers);
  }
  const std::uint64_t servers = size_[k];
  const std::uint64_t switches = servers / n;
  const std::uint64_t free_backup = servers >> k;  // b_k = N_k / 2^k
  const std::uint64_t cables = servers + (servers - free_backup) / 2;
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
    if (backup_level(u) > k_) continue;
    const EndpointId peer = backup_peer(u);
    if (u < peer) b.add_cable(u, peer, -1, -1, 1, 1);
  }
  net_ = b.build();
}

std::vector<TopologyFact> FiConnTopology::facts() const {
  std::vector<TopologyFact> out;
  out.push_back({"diameter_bound_server_hops", static_cast<double>((1ULL << (k_ + 1)) - 1),
                 "upper bound 2^(k+1) - 1 on the diameter and on TOR paths, in server hops (a hop through a switch "
                 "counts once; Li et al. 2009, Sec. IV)"});
  out.push_back({"routing_bound_links", 3.0 * static_cast<double>(1ULL << k_) - 1,
                 "upper bound on a TOR path in links: at most 2^k switch hops of 2 links and 2^k - 1 level links, "
                 "3 x 2^k - 1"});
  out.push_back({"free_backup_ports", static_cast<double>(size_[k_] >> k_),
                 "servers whose backup port is unused, b_k = N_k / 2^k (Li et al. 2009, Sec. III)"});
  return out;
}

void register_ficonn(TopologyRegistry& registry) {
  registry.add(
      {"ficonn",
       "FiConn(n,k): recursive server-centric network of dual-port servers on n-port switches",
       {int_param("n", "4", "ports per switch, even; servers per FiConn_0", 2, 1 << 16),
        int_param("k", "2", "level of the FiConn; every server has 2 ports (switch and backup)", 0,
                  FiConnTopology::kMaxLevel)},
       [](const ParamSet& p, const LinkDefaults& defaults) -> std::unique_ptr<Topology> {
         return std::make_unique<FiConnTopology>(static_cast<std::uint32_t>(p.get_int("n")),
                                                 static_cast<std::uint32_t>(p.get_int("k")), defaults);
       },
       "Li et al., 'FiConn: using backup port for server interconnection in data centers', INFOCOM 2009, Sec. "
       "III (construction). N_0 = n; a FiConn_(l-1) has b_(l-1) = N_(l-1) / 2^(l-1) servers with a free "
       "backup port; FiConn_l joins g_l = b_(l-1)/2 + 1 copies of FiConn_(l-1), copy i and copy j (i < j) by "
       "one level-l link between server [i, (j-1) 2^l + 2^(l-1) - 1] and server [j, i 2^l + 2^(l-1) - 1]; so "
       "N_l = N_(l-1) (N_(l-1)/2^l + 1). Server-centric: servers relay traffic. Numbering: server uid u (0..N_k-1) "
       "is vertex and endpoint u; inside a FiConn_l it lies in copy (u / N_(l-1)) mod g_l. Switch s is vertex "
       "N_k + s and connects servers s n .. s n + n-1 on ports 0..n-1. Server port 0 goes to the switch; port 1 "
       "(backup) carries the level-l link, l = 1 + the number of trailing one bits of u, and stays free when l > k "
       "(b_k = N_k / 2^k servers). Cables: N_k + (N_k - b_k)/2; server degree 1 or 2, switch degree n. Diameter "
       "at most 2^(k+1) - 1 server hops, where a hop through a switch is 2 links and a level link is 1. INRFlow's "
       "'gdcficonn' generalises DCell and FiConn: both join copies of the level-(l-1) network by one link per "
       "pair of copies; DCell gives every server one link per level (t_(l-1) + 1 copies), FiConn only uses half "
       "of the still free backup ports per level (b_(l-1)/2 + 1 copies); that generalisation is not "
       "implemented here."});
}

}  // namespace interflow::topo
