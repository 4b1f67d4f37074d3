#include "topologies/hcn.hpp"

#include "core/error.hpp"
#include "topologies/registry.hpp"

namespace interflow::topo {

namespace {

std::string shape(const std::string& family, std::uint32_t alpha, std::uint32_t beta, std::uint32_t h,
                  std::uint32_t gamma) {
  if (family == "hcn") return "hcn n=" + std::to_string(alpha) + ", h=" + std::to_string(h);
  return family + " alpha=" + std::to_string(alpha) + ", beta=" + std::to_string(beta) + ", h=" + std::to_string(h) +
         ", gamma=" + std::to_string(gamma);
}

}  // namespace

HcnTopology::HcnTopology(std::string family, std::uint32_t alpha, std::uint32_t beta, std::uint32_t h,
                         std::uint32_t gamma, DCellRule rule, const LinkDefaults& defaults)
    : Topology(std::move(family)), alpha_(alpha), beta_(beta), h_(h), gamma_(gamma), rule_(rule) {
  const std::string what = shape(this->family(), alpha, beta, h, gamma);
  if (alpha < 2) throw InputError(what + ": needs at least 2 leader (master) servers per switch");
  if (h > kMaxLevels) throw InputError(what + ": h must be at most " + std::to_string(kMaxLevels));
  if (is_bcn()) {
    if (beta < 1) throw InputError(what + ": a BCN needs beta >= 1 follower (slave) servers per switch");
    if (gamma > kMaxLevels) throw InputError(what + ": gamma must be at most " + std::to_string(kMaxLevels));
  }
  const auto too_big = [&](const std::string& count) {
    return InputError(what + ": " + count + " is more than 2^31, the largest network supported");
  };
  pow_alpha_[0] = 1;
  ones_[0] = 0;
  for (std::uint32_t i = 1; i <= h + 1; ++i) {
    if (pow_alpha_[i - 1] * alpha > kMaxNetworkVertices) throw too_big("alpha^(h+1) servers");
    pow_alpha_[i] = pow_alpha_[i - 1] * alpha;
    ones_[i] = ones_[i - 1] + pow_alpha_[i - 1];
  }
  std::uint64_t copies = 1;
  if (has_second_dimension()) {
    const std::uint64_t unit = pow_alpha_[gamma] * beta;
    if (unit >= kMaxNetworkVertices) throw too_big("alpha^gamma * beta followers per unit");
    followers_per_unit_ = static_cast<std::uint32_t>(unit);
    copies = unit + 1;
  }
  // copies and alpha^h are each below 2^31, so their product fits; check it before multiplying further.
  const std::uint64_t switches = copies * pow_alpha_[h];
  if (switches > kMaxNetworkVertices) throw too_big(std::to_string(switches) + " switches");
  const std::uint64_t servers = switches * (static_cast<std::uint64_t>(alpha) + beta);
  if (servers + switches > kMaxNetworkVertices)
    throw too_big(std::to_string(servers) + " servers plus " + std::to_string(switches) + " switches");
  copies_ = static_cast<std::uint32_t>(copies);

  // Cables: one per server to its switch, (alpha^(h+1) - alpha) / 2 leader cables per copy, and in a
  // BCN one cable per pair of followers.
  const std::uint64_t leader_cables = copies * (pow_alpha_[h + 1] - alpha) / 2;
  const std::uint64_t follower_cables = has_second_dimension() ? switches * beta / 2 : 0;
  NetworkBuilder b(defaults);
  b.set_endpoints_forward(true);
  b.reserve(servers + switches, servers + leader_cables + follower_cables);
  for (std::uint64_t s = 0; s < servers; ++s) b.add_endpoint_vertex();
  b.add_switches(static_cast<std::uint32_t>(switches));

  const std::uint32_t per_copy = switches_per_copy();
  for (std::uint32_t c = 0; c < copies_; ++c)
    for (std::uint32_t w = 0; w < per_copy; ++w)
      for (std::uint32_t slot = 0; slot < ports(); ++slot)
        b.add_cable(server(c, w, slot), switch_vertex(c, w), -1, -1, 0, slot);

  // Leader [.., x_j = a, b, .., b] (j low digits b != a) is cabled to [.., b, a, .., a]; digit 0 is
  // the slot, digit i >= 1 is digit i-1 of the switch index.
  for (std::uint32_t c = 0; c < copies_; ++c)
    for (std::uint32_t w = 0; w < per_copy; ++w)
      for (std::uint32_t x0 = 0; x0 < alpha; ++x0) {
        std::uint32_t j = 1;
        while (j <= h && (w / pow_alpha_[j - 1]) % alpha == x0) ++j;
        if (j > h) continue;  // an available server: all digits equal
        const auto a = static_cast<std::uint32_t>((w / pow_alpha_[j - 1]) % alpha);
        const auto w2 = static_cast<std::uint32_t>(w - w % pow_alpha_[j] + x0 * pow_alpha_[j - 1] + a * ones_[j - 1]);
        const VertexId u = server(c, w, x0), v = server(c, w2, a);
        if (u < v) b.add_cable(u, v, -1, -1, 1, 1);
      }

  if (has_second_dimension()) {
    const std::uint32_t m = followers_per_unit_;
    for (std::uint32_t c = 0; c < copies_; ++c)
      for (std::uint32_t v = 0; v < per_copy / pow_alpha_[gamma]; ++v)
        for (std::uint32_t j = 0; j < m; ++j) {
          const std::uint32_t other = dcell_rule_target(rule_, m, c, j);
          if (c < other) b.add_cable(follower(c, v, j), bcn_bridge(other, c, v), -1, -1, 1, 1);
        }
  }
  net_ = b.build();
}

VertexId HcnTopology::follower(std::uint32_t copy, std::uint32_t v, std::uint32_t j) const {
  const std::uint32_t f = v * followers_per_unit_ + j;
  return server(copy, f / beta_, alpha_ + f % beta_);
}

VertexId HcnTopology::bcn_bridge(std::uint32_t a, std::uint32_t b, std::uint32_t v) const {
  return follower(a, v, dcell_rule_gateway(rule_, followers_per_unit_, a, b));
}

std::vector<TopologyFact> HcnTopology::facts() const {
  std::vector<TopologyFact> out;
  if (!is_bcn()) {
    out.push_back({"diameter_links", static_cast<double>(fdim_bound_links(h_)),
                   "longest shortest path between servers, in links: 3 * 2^h - 1, i.e. the paper's 2^(h+1) - 1 "
                   "server hops (a switch crossing is 2 links and one hop, a server-server cable 1 link and one "
                   "hop); checked against breadth-first search"});
    out.push_back({"available_servers", static_cast<double>(alpha_),
                   "servers whose backup port is free for further expansion (all label digits equal)"});
    if (h_ >= 1 && alpha_ % 2 == 0)
      out.push_back({"bisection_cables", static_cast<double>(alpha_ / 2) * (alpha_ / 2),
                     "cables crossing the top-level cut between copies x_h < n/2 and >= n/2 (equal halves, one "
                     "cable per pair of the n copies of HCN(n,h-1)): (n/2)^2; an upper bound on the minimum "
                     "bisection"});
  } else if (!has_second_dimension()) {
    out.push_back({"bcn_route_bound_links", static_cast<double>(fdim_bound_links(h_)),
                   "longest path of the 'bcn' routing, in links: gamma > h, so the network is one HCN(alpha,h) and "
                   "the routing is FdimRouting, 3 * 2^h - 1 links (2^(h+1) - 1 server hops); an upper bound on the "
                   "diameter"});
  } else {
    out.push_back({"bcn_route_bound_links", static_cast<double>(fdim_bound_links(gamma_) + 1 + fdim_bound_links(h_)),
                   "longest path of the 'bcn' routing, in links: (3 * 2^gamma - 1) inside the source's HCN(alpha,"
                   "gamma) unit, 1 BCN cable, (3 * 2^h - 1) inside the destination's copy; an upper bound on the "
                   "diameter (2^(gamma+1) + 2^(h+1) - 1 server hops)"});
  }
  return out;
}

void register_hcn(TopologyRegistry& registry) {
  const std::string numbering =
      "Vertices: servers first (vertex e is endpoint e = copy * alpha^h * (alpha+beta) + switch * (alpha+beta) + "
      "slot), then switches (copy * alpha^h + switch). A switch index has the label digits x_1..x_h in base alpha, "
      "x_1 least significant; a leader's digit x_0 is its slot. Server port 0 goes to its switch (arriving on the "
      "switch's port = slot); port 1, when present, is the backup cable. Servers forward traffic (server-centric).";
  registry.add(
      {"hcn",
       "HCN(n,h) of dual-port servers: n^(h+1) servers, n^h switches of n ports (Guo et al. 2013)",
       {int_param("n", "4", "ports per switch = servers per switch = copies joined at each level", 2, 1 << 16),
        int_param("h", "2", "levels of recursion; HCN(n,0) is one switch with n servers", 0, HcnTopology::kMaxLevels)},
       [](const ParamSet& p, const LinkDefaults& defaults) -> std::unique_ptr<Topology> {
         return std::make_unique<HcnTopology>("hcn", static_cast<std::uint32_t>(p.get_int("n")), 0,
                                              static_cast<std::uint32_t>(p.get_int("h")), kNone, DCellRule::Alpha,
                                              defaults);
       },
       "Guo, Chen, Li, Li, Liu, Chen, 'Expandable and cost-effective network structures for data centers using "
       "dual-port servers', IEEE Trans. Computers 62(7), 2013 (HCN). HCN(n,0): one n-port switch with n servers. "
       "HCN(n,l): n copies of HCN(n,l-1); the server with label [x_l = a, x_{l-1}..x_0 = b..b], a != b, connects its "
       "backup port to [b, a..a] (a WK-recursive network on the switches; Stewart, CANDAR 2014). The n servers with "
       "all digits equal keep a free backup port (the paper's available servers). Sizes: n^(h+1) servers, n^h "
       "switches, n^(h+1) + (n^(h+1) - n)/2 cables; diameter 2^(h+1) - 1 server hops = 3 * 2^h - 1 links. " +
           numbering,
       "hcn:n=4,h=2"});
  registry.add(
      {"bcn",
       "BCN(alpha,beta,h,gamma): alpha^gamma*beta + 1 copies of HCN(alpha,h) joined by follower servers (one copy "
       "when gamma > h)",
       {int_param("alpha", "4", "leader (master) servers per switch, used to build HCN(alpha,h)", 2, 1 << 16),
        int_param("beta", "4",
                  "follower (slave) servers per switch, used for the BCN level; switch ports = alpha + beta", 1,
                  1 << 16),
        int_param("h", "1", "levels of the HCN(alpha,h) inside each copy", 0, HcnTopology::kMaxLevels),
        int_param("gamma", "1",
                  "level of the HCN(alpha,gamma) units joined by the BCN level; gamma > h builds a single "
                  "HCN(alpha,h) with free followers",
                  0, HcnTopology::kMaxLevels),
        choice_param("rule", "alpha", {"alpha", "beta"},
                     "connection rule of the follower cables: alpha = the original DCell-like rule, beta = "
                     "Kliegl et al.'s beta-DCell rule")},
       [](const ParamSet& p, const LinkDefaults& defaults) -> std::unique_ptr<Topology> {
         const DCellRule rule = p.get_string("rule") == "beta" ? DCellRule::Beta : DCellRule::Alpha;
         return std::make_unique<HcnTopology>("bcn", static_cast<std::uint32_t>(p.get_int("alpha")),
                                              static_cast<std::uint32_t>(p.get_int("beta")),
                                              static_cast<std::uint32_t>(p.get_int("h")),
                                              static_cast<std::uint32_t>(p.get_int("gamma")), rule, defaults);
       },
       "Guo et al., IEEE Trans. Computers 62(7), 2013 (BCN), as formalised by Stewart (CANDAR 2014) and built by "
       "INRFlow's hcnbcn. Every switch has alpha + beta ports: alpha leaders (master servers) build HCN(alpha,h) as "
       "in 'hcn', beta followers (slave servers) hang off it. For gamma <= h: g = alpha^gamma * beta + 1 copies "
       "B_0..B_{g-1} of that HCN(alpha,h); each copy splits into alpha^(h-gamma) units B_u^v = HCN(alpha,gamma) (v = "
       "the switch digits above gamma), each with m = alpha^gamma * beta followers, numbered switch * beta + (slot - "
       "alpha) within the unit. For every v the units B_u^v form a complete graph through their followers: rule "
       "alpha cables follower j of B_u^v with j >= u to follower u of B_{j+1}^v; rule beta (Kliegl et al., "
       "'Generalized DCell structure for load-balanced data center networks', INFOCOM Workshops 2010) cables "
       "follower B of B_u^v to follower m-1-B of B_{(u+B+1) mod (m+1)}^v. Sizes: g * alpha^(h+1) leaders, g * "
       "alpha^h * beta followers, g * alpha^h switches; g * alpha leaders keep a free backup port. For gamma > h "
       "the second dimension is not formed yet (g = 1): one HCN(alpha,h) whose followers keep their backup ports "
       "free, as INRFlow's hcnbcn builds it. " +
           numbering,
       "bcn:alpha=3,beta=2,h=1,gamma=1"});
}

}  // namespace interflow::topo
