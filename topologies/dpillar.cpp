#include "topologies/dpillar.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "topologies/registry.hpp"

namespace interflow::topo {

namespace {}

DPillarTopology::DPillarTopology(std::uint32_t n, std::uint32_t k, const LinkDefaults& defaults)
    : Topology("dpillar"), n_(n), k_(k) {
  const std::string what = "dpillar n=" + std::to_string(n) + ", k=" + std::to_string(k);
  if (n < 4 || n % 2 != 0) throw InputError(what + ": n (switch ports) must be even and at least 4");
  if (k < 2) throw InputError(what + ": k (server columns) must be at least 2");
  pow_m_.assign(k + 1, 1);
  for (std::uint32_t i = 1; i <= k; ++i) {
    if (pow_m_[i - 1] * m() * k > kMaxNetworkVertices)
      throw InputError(what + ": k * (n/2)^k servers is more than 2^31, the largest network supported");
    pow_m_[i] = pow_m_[i - 1] * m();
  }
  per_column_ = static_cast<std::uint32_t>(pow_m_[k]);
  const std::uint64_t servers = static_cast<std::uint64_t>(k) * per_column_;
  const std::uint64_t switches = static_cast<std::uint64_t>(k) * pow_m_[k - 1];
  if (servers + switches > kMaxNetworkVertices)
    throw InputError(what + ": " + std::to_string(servers + switches) +
                     " vertices is more than 2^31, the largest network supported");

  NetworkBuilder b(defaults);
  b.set_endpoints_forward(true);
  b.reserve(servers + switches, 2 * servers);
  for (std::uint64_t s = 0; s < servers; ++s) b.add_endpoint_vertex();
  b.add_switches(static_cast<std::uint32_t>(switches));
  for (std::uint32_t c = 0; c < k; ++c) {
    const std::uint32_t prev = (c + k - 1) % k;
    for (std::uint32_t x = 0; x < per_column_; ++x) {
      const VertexId s = server(c, x);
      b.add_cable(s, switch_vertex(c, x), -1, -1, 0, digit(x, c));
      b.add_cable(s, switch_vertex(prev, x), -1, -1, 1, m() + digit(x, prev));
    }
  }
  net_ = b.build();
}

VertexId DPillarTopology::switch_vertex(std::uint32_t column, std::uint32_t label) const {
  const std::uint64_t r = label % pow_m_[column] + (label / pow_m_[column + 1]) * pow_m_[column];
  return static_cast<VertexId>(static_cast<std::uint64_t>(k_) * per_column_ + column * pow_m_[k_ - 1] + r);
}

std::uint32_t DPillarTopology::diameter_hops() const { return std::max(k_, 3 * k_ / 2 - 2); }

std::vector<TopologyFact> DPillarTopology::facts() const {
  return {{"diameter_links", 2.0 * diameter_hops(),
           "longest shortest path between servers, in links: 2 * max(k, floor(3k/2) - 2) (every server hop crosses "
           "one switch: 2 links); checked against breadth-first search"},
          {"orig_route_bound_links", 2.0 * (k_ + k_ / 2),
           "longest path of the original DPillar routing ('dpillar-orig'), in links: 2 * (k + floor(k/2)), a helix "
           "phase of at most k switch crossings and a ring phase of at most floor(k/2)"}};
}

void register_dpillar(TopologyRegistry& registry) {
  registry.add(
      {"dpillar",
       "DPillar(n,k): k columns of (n/2)^k dual-port servers and k columns of (n/2)^(k-1) n-port switches in a ring",
       {int_param("n", "8", "ports per switch; even: n/2 to each neighbouring server column", 4, 1 << 16),
        int_param("k", "3", "server columns (= switch columns = label digits)", 2, 31)},
       [](const ParamSet& p, const LinkDefaults& defaults) -> std::unique_ptr<Topology> {
         const auto n = static_cast<std::uint32_t>(p.get_int("n"));
         if (n % 2 != 0) p.fail("n", "must be even (half the ports face each neighbouring server column)");
         return std::make_unique<DPillarTopology>(n, static_cast<std::uint32_t>(p.get_int("k")), defaults);
       },
       "Liao, Yin, Gao, 'DPillar: scalable dual-port server interconnection for data center networks', ICCCN 2010; "
       "Liao, Yin, Yin, Gao, Computer Networks 56(8), 2012. With m = n/2: k server columns H_0..H_{k-1} of m^k "
       "servers (labels of k base-m digits) and k switch columns S_0..S_{k-1} of m^(k-1) switches alternate in a "
       "ring; the switch of S_i for the labels agreeing on all digits but digit i joins the m servers of H_i and the "
       "m servers of H_{i+1 mod k} with those labels. Sizes: k m^k servers of degree 2, k m^(k-1) switches of "
       "degree n, 2 k m^k cables. Numbering: server (column c, label x = sum v_i m^i) is vertex and endpoint "
       "c m^k + x; switch (S_i, label without digit i) follows the servers, column by column. Server port 0 goes "
       "to S_c, port 1 to S_{c-1}; switch port p < m is the server of H_i with digit i = p, port m + p the server of "
       "H_{i+1} with digit i = p. Servers forward traffic (server-centric).",
       "dpillar:n=6,k=3"});
}

}  // namespace interflow::topo
