#include "topologies/bcube.hpp"

#include <string>

#include "core/error.hpp"
#include "topologies/registry.hpp"

namespace interflow::topo {

BCubeTopology::BCubeTopology(std::uint32_t n, std::uint32_t k, const LinkDefaults& defaults)
    : Topology("bcube"), n_(n), k_(k) {
  const std::string what = "bcube n=" + std::to_string(n) + ", k=" + std::to_string(k);
  if (n < 2) throw InputError(what + ": n (ports per switch) must be at least 2");
  if (k > kMaxLevel) throw InputError(what + ": k (highest level) must be at most " + std::to_string(kMaxLevel));
  pow_n_[0] = 1;
  for (std::uint32_t i = 1; i <= k + 1; ++i) {
    if (pow_n_[i - 1] * n > kMaxNetworkVertices)
      throw InputError(what + ": n^(k+1) = " + std::to_string(n) + "^" + std::to_string(k + 1) +
                       " servers is more than 2^31, the largest network supported");
    pow_n_[i] = pow_n_[i - 1] * n;
  }
  // n^(k+1) servers, (k+1) n^k switches, (k+1) n^(k+1) cables (Guo et al. 2009, Sec. 3.1).
  const std::uint64_t servers = pow_n_[k + 1];
  const std::uint64_t switches = (k + 1) * pow_n_[k];
  const std::uint64_t cables = (k + 1) * servers;
  check_network_size(what, servers + switches, "servers plus switches", cables);
  servers_ = static_cast<std::uint32_t>(servers);
  per_level_ = static_cast<std::uint32_t>(pow_n_[k]);

  NetworkBuilder b(defaults);
  b.set_endpoints_forward(true);
  b.reserve(servers + switches, cables);
  for (std::uint32_t e = 0; e < servers_; ++e) b.add_endpoint_vertex();
  b.add_switches(static_cast<std::uint32_t>(switches));
  for (EndpointId e = 0; e < servers_; ++e)
    for (std::uint32_t l = 0; l <= k_; ++l)
      b.add_cable(e, switch_vertex(l, switch_index(e, l)), -1, -1, l, digit(e, l));
  net_ = b.build();
}

std::vector<TopologyFact> BCubeTopology::facts() const {
  std::vector<TopologyFact> out{{"diameter_links", 2.0 * (k_ + 1),
                                 "longest shortest path between servers, in links: k+1 server-switch-server hops, one "
                                 "per address digit (Guo et al. 2009, Sec. 3.2)"}};
  if (n_ % 2 == 0)
    out.push_back({"bisection_cables", static_cast<double>(num_servers()) / 2,
                   "cables crossing the cut between servers with top digit a_k < n/2 and >= n/2: each of the n^k "
                   "level-k switches keeps n/2 servers on either side, N/2 cables; an upper bound on the minimum "
                   "bisection"});
  return out;
}

void register_bcube(TopologyRegistry& registry) {
  registry.add(
      {"bcube",
       "BCube(n,k): n^(k+1) servers with k+1 ports each, k+1 levels of n^k n-port switches (server-centric)",
       {int_param("n", "4", "ports per switch; servers per BCube_0 and the base of the server addresses", 2, 1 << 16),
        int_param("k", "1", "highest level (levels 0..k); every server has k+1 ports", 0, BCubeTopology::kMaxLevel)},
       [](const ParamSet& p, const LinkDefaults& defaults) -> std::unique_ptr<Topology> {
         return std::make_unique<BCubeTopology>(static_cast<std::uint32_t>(p.get_int("n")),
                                                static_cast<std::uint32_t>(p.get_int("k")), defaults);
       },
       "Guo et al., 'BCube: a high performance, server-centric network architecture for modular data centers', "
       "SIGCOMM 2009, Sec. 3.1. BCube_0 is n servers on one n-port switch; BCube_k is n BCube_(k-1) plus n^k "
       "level-k switches. Server-centric: servers relay traffic, switches only connect servers. Server e has "
       "address a_k..a_0 (its base-n digits, a_0 least significant); vertices 0..n^(k+1)-1 are the servers "
       "(vertex e is endpoint e). The level-l switch of a server is the one addressed by a_k..a_(l+1) "
       "a_(l-1)..a_0 (digit l dropped, read in base n as its index within the level); switch vertices follow "
       "the servers, level 0 first, each level in index order. Server port l goes to its level-l switch and "
       "arrives there on port a_l. Sizes: n^(k+1) servers, (k+1) n^k switches, (k+1) n^(k+1) cables; server "
       "degree k+1, switch degree n; diameter 2(k+1) links.",
       "bcube:n=4,k=2"});
}

}  // namespace interflow::topo
