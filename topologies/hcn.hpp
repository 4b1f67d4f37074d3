#pragma once
// HCN(n,h) and BCN(alpha,beta,h,gamma): server-centric data-centre networks of dual-port servers
// (Guo, Chen, Li, Li, Liu, Chen, "Expandable and cost-effective network structures for data centers
// using dual-port servers", IEEE Trans. Computers 62(7), 2013). Servers forward traffic; switches only
// connect servers.
//
// Both are built from copies of HCN(alpha,h) whose switches carry alpha leaders (the paper's master
// servers) and beta followers (slave servers):
// - HCN(alpha,0) is one switch with its alpha leaders (and beta followers). HCN(alpha,l) joins alpha
//   copies of HCN(alpha,l-1); the leader with label digits [x_l = a, x_{l-1}..x_0 = b..b] (a != b)
//   takes its backup port to the leader [b, a..a] (the WK-recursive rule: Guo et al. 2013 Def. of HCN;
//   Stewart, CANDAR 2014). The alpha leaders whose digits are all equal stay free: the "available
//   servers" of the paper.
// - The family 'hcn' is the paper's HCN(n,h): alpha = n, beta = 0, so n^(h+1) servers, n^h switches.
// - 'bcn' is BCN(alpha,beta,h,gamma). For gamma <= h: g = alpha^gamma * beta + 1 copies B_0..B_{g-1}
//   of HCN(alpha,h) with beta followers per switch. Each copy splits into alpha^(h-gamma) units
//   B_u^v = HCN(alpha,gamma) (v = the switch digits above gamma); for every v the g units B_u^v
//   are joined as a complete graph through their followers by a DCell connection rule
//   (topologies/dcell_rules.hpp): alpha, the original (follower j of B_u^v with j >= u is cabled to
//   follower u of B_{j+1}^v), or beta (Kliegl et al. 2010). For gamma > h the second dimension is not
//   formed yet: one HCN(alpha,h) whose followers keep their backup ports free (as INRFlow's hcnbcn).
//
// Numbering (routings compute link ids from it):
// - Server vertices come first and are the endpoints (vertex e is endpoint e):
//   e = copy * servers_per_copy + switch * (alpha + beta) + slot; slot < alpha is a leader whose
//   label digit x_0 is the slot, slot >= alpha a follower. A switch index w has the label digits
//   x_1..x_h in base alpha, x_1 least significant (w = sum x_i alpha^(i-1)).
// - Switch vertices follow: servers + copy * alpha^h + w. Switch port p goes to slot p.
// - Server port 0 is its switch; port 1 (when present) is its backup cable (leader: the HCN level
//   cable; follower: the BCN cable). Available leaders and HCN followers have only port 0.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/topology.hpp"
#include "topologies/dcell_rules.hpp"

namespace interflow::topo {

class HcnTopology : public Topology {
 public:
  static constexpr std::uint32_t kMaxLevels = 31;

  // gamma = kNone builds HCN(alpha,h) (with beta unconnected followers per switch when beta > 0).
  HcnTopology(std::string family, std::uint32_t alpha, std::uint32_t beta, std::uint32_t h, std::uint32_t gamma,
              DCellRule rule, const LinkDefaults& defaults);

  std::uint32_t alpha() const { return alpha_; }
  std::uint32_t beta() const { return beta_; }
  std::uint32_t ports() const { return alpha_ + beta_; }
  std::uint32_t h() const { return h_; }
  std::uint32_t gamma() const { return gamma_; }
  bool is_bcn() const { return gamma_ != kNone; }
  // A BCN with gamma <= h: several copies joined through their followers.
  bool has_second_dimension() const { return is_bcn() && gamma_ <= h_; }
  DCellRule rule() const { return rule_; }
  std::uint32_t copies() const { return copies_; }
  std::uint32_t switches_per_copy() const { return static_cast<std::uint32_t>(pow_alpha_[h_]); }
  std::uint32_t servers_per_copy() const { return switches_per_copy() * ports(); }
  std::uint32_t num_servers() const { return copies_ * servers_per_copy(); }
  // Followers per unit B_u^v (alpha^gamma * beta): also the number of other copies each unit meets.
  std::uint32_t followers_per_unit() const { return followers_per_unit_; }
  std::uint64_t pow_alpha(std::uint32_t i) const { return pow_alpha_[i]; }
  // 1 + alpha + ... + alpha^(i-1): the switch index whose i low digits are all 1.
  std::uint64_t ones(std::uint32_t i) const { return ones_[i]; }

  VertexId server(std::uint32_t copy, std::uint32_t sw, std::uint32_t slot) const {
    return copy * servers_per_copy() + sw * ports() + slot;
  }
  VertexId switch_vertex(std::uint32_t copy, std::uint32_t sw) const {
    return num_servers() + copy * switches_per_copy() + sw;
  }
  std::uint32_t copy_of(VertexId server) const { return server / servers_per_copy(); }
  std::uint32_t switch_of(VertexId server) const { return (server % servers_per_copy()) / ports(); }
  std::uint32_t slot_of(VertexId server) const { return server % ports(); }
  // The follower of unit B_copy^v with index j (0 <= j < followers_per_unit()).
  VertexId follower(std::uint32_t copy, std::uint32_t v, std::uint32_t j) const;
  // The BCN cable between units B_a^v and B_b^v (a != b): the follower of B_a^v it leaves from.
  VertexId bcn_bridge(std::uint32_t a, std::uint32_t b, std::uint32_t v) const;
  // The unit v of a server in a BCN with a second dimension (the switch digits above gamma).
  std::uint32_t unit_of(VertexId server) const {
    return switch_of(server) / static_cast<std::uint32_t>(pow_alpha_[gamma_]);
  }

  // Longest path of the hierarchical routings, in links (server hops are links / 2 for switch crossings).
  std::uint32_t fdim_bound_links(std::uint32_t level) const { return 3 * (1u << level) - 1; }

  std::vector<TopologyFact> facts() const override;
  std::string default_routing() const override { return is_bcn() ? "bcn" : "hcn"; }

 private:
  std::uint32_t alpha_, beta_, h_, gamma_;
  DCellRule rule_;
  std::uint32_t copies_ = 1;
  std::uint32_t followers_per_unit_ = 0;
  std::array<std::uint64_t, kMaxLevels + 2> pow_alpha_{}, ones_{};
};

}  // namespace interflow::topo
